import type { Metadata } from 'next';
import { LocalTime } from '@/components/time/local-time';
import { PageHeader } from '@/components/shell/page-header';
import { Badge } from '@/components/ui/badge';
import { Card, TitledCard } from '@/components/ui/card';
import { MOMENT, StaticTable, personColumn, srOnlyHeader } from '@/components/data-table/static-table';
import { requireRole } from '@/lib/auth/guards';
import { listUsers } from '@/lib/auth/users';
import { CreateUserForm, UserRowActions } from '@/components/admin/users-forms';

export const metadata: Metadata = { title: 'Users' };

export default async function UsersPage() {
  const me = await requireRole('admin');
  const rows = await listUsers();
  return (
    <>
      <PageHeader
        title="Users"
        description="Who may sign in to Verdict, and with which role. Deactivated users are signed out at once. Five wrong passwords lock an account from that address only; unlock it here."
      />
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <Card className="self-start">
          <StaticTable
            caption="Users"
            rows={rows}
            rowKey={(u) => u.id}
            columns={[
              personColumn('User'),
              { header: 'Role', className: 'capitalize', cell: (u) => u.role },
              {
                header: 'Status',
                cell: (u) => (
                  <div className="flex flex-col items-start gap-1">
                    {u.active ? <Badge tone="ok">Active</Badge> : <Badge tone="neutral">Deactivated</Badge>}
                    {u.lockedAddresses > 0 ? (
                      <Badge
                        tone="warn"
                        title="Too many wrong passwords from these addresses; other addresses still sign in."
                      >
                        Sign-in locked from {u.lockedAddresses} address{u.lockedAddresses === 1 ? '' : 'es'}
                      </Badge>
                    ) : null}
                  </div>
                ),
              },
              { header: 'Last sign-in', ...MOMENT, cell: (u) => <LocalTime value={u.lastSignInAt} /> },
              {
                header: srOnlyHeader('Actions'),
                className: 'text-right',
                cell: (u) => (
                  <UserRowActions
                    user={{
                      id: u.id,
                      email: u.email,
                      name: u.name,
                      sso: u.sso,
                      role: u.role,
                      active: u.active,
                      lockedAddresses: u.lockedAddresses,
                    }}
                    isSelf={u.id === me.id}
                  />
                ),
              },
            ]}
          />
        </Card>
        <TitledCard title="Add a user" className="self-start">
          <CreateUserForm />
        </TitledCard>
      </div>
    </>
  );
}
