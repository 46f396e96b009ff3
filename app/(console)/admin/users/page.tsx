import type { Metadata } from 'next';
import { PageHeader } from '@/components/shell/page-header';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import { requireRole } from '@/lib/auth/guards';
import { listUsers } from '@/lib/auth/users';
import { CreateUserForm, UserRowActions } from '@/components/admin/users-forms';
import { LocalTime } from '@/components/time/local-time';

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
          <Table>
            <caption className="sr-only">Users</caption>
            <THead>
              <TR>
                <TH>User</TH>
                <TH>Role</TH>
                <TH>Status</TH>
                <TH className="whitespace-nowrap">Last sign-in</TH>
                <TH>
                  <span className="sr-only">Actions</span>
                </TH>
              </TR>
            </THead>
            <TBody>
              {rows.map((u) => (
                <TR key={u.id}>
                  <TD>
                    <div className="font-medium">{u.name}</div>
                    <div className="text-xs text-muted-fg">{u.email}</div>
                  </TD>
                  <TD className="capitalize">{u.role}</TD>
                  <TD>
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
                  </TD>
                  <TD className="text-xs text-muted-fg">
                    <LocalTime value={u.lastSignInAt} />
                  </TD>
                  <TD className="text-right">
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
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </Card>
        <Card className="self-start">
          <CardHeader>
            <CardTitle>Add a user</CardTitle>
          </CardHeader>
          <CardContent>
            <CreateUserForm />
          </CardContent>
        </Card>
      </div>
    </>
  );
}
