import type { Metadata } from 'next';
import { MOMENT, StaticTable, personColumn } from '@/components/data-table/static-table';
import { MarkReviewedButton } from '@/components/admin/access-review-forms';
import { PageHeader } from '@/components/shell/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { requireRole } from '@/lib/auth/guards';
import { idleDays, idleDeactivates, loadAccessReview } from '@/lib/auth/access-review';
import { LocalTime } from '@/components/time/local-time';

export const metadata: Metadata = { title: 'Access review' };

const FACTOR_LABEL: Record<string, string> = { totp: 'Authenticator app', passkey: 'Passkey' };

export default async function AccessReviewPage() {
  await requireRole('admin');
  const r = await loadAccessReview();
  const idle = r.users.filter((u) => u.idle).length;
  return (
    <>
      <PageHeader
        title="Access review"
        description={
          <>
            {`Who can reach Verdict and what they created. Review it at least once a year: users idle for ${idleDays()} days are flagged${idleDeactivates() ? ' and deactivated when you mark the review' : ''}. `}
            {r.lastReview ? (
              <>
                Last reviewed <LocalTime value={r.lastReview.at} /> by {r.lastReview.by ?? 'unknown'}.
              </>
            ) : (
              'Never reviewed yet.'
            )}
          </>
        }
      />
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <p className="text-sm text-muted-fg">
          {r.users.length} users ({idle} idle), {r.keys.length} API keys, {r.hooks.length} webhook endpoints.
        </p>
        <div className="flex items-start gap-2">
          <Button variant="secondary" asChild>
            <a href="/api/admin/access-review/export" download>
              Download CSV
            </a>
          </Button>
          <MarkReviewedButton />
        </div>
      </div>
      <div className="flex flex-col gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Users</CardTitle>
          </CardHeader>
          <StaticTable
            caption="Users"
            rows={r.users}
            rowKey={(u) => u.id}
            columns={[
              personColumn('User'),
              { header: 'Role', className: 'capitalize', cell: (u) => u.role },
              {
                header: 'State',
                cell: (u) => (
                  <div className="flex flex-col items-start gap-1">
                    {u.active ? <Badge tone="ok">Active</Badge> : <Badge tone="neutral">Deactivated</Badge>}
                    {u.idle ? <Badge tone="warn">Idle over {idleDays()} days</Badge> : null}
                  </div>
                ),
              },
              { header: 'Signs in with', cell: (u) => u.method },
              {
                header: 'Second factors',
                cell: (u) =>
                  u.factors.length ? (
                    u.factors.map((f) => FACTOR_LABEL[f] ?? f).join(', ')
                  ) : (
                    <span className="text-muted-fg">None</span>
                  ),
              },
              { header: 'Last sign-in', ...MOMENT, cell: (u) => <LocalTime value={u.lastSignInAt} /> },
            ]}
          />
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>API keys</CardTitle>
          </CardHeader>
          {r.keys.length === 0 ? (
            <EmptyState title="No API keys">Nobody has created a key for the read API.</EmptyState>
          ) : (
            <StaticTable
              caption="API keys"
              rows={r.keys}
              rowKey={(k) => k.id}
              columns={[
                { header: 'Key', className: 'font-medium', cell: (k) => k.name },
                {
                  header: 'State',
                  cell: (k) => (k.revokedAt ? <Badge tone="neutral">Revoked</Badge> : <Badge tone="ok">Active</Badge>),
                },
                { header: 'Created by', cell: (k) => k.createdBy ?? 'a removed user' },
                { header: 'Created', ...MOMENT, cell: (k) => <LocalTime value={k.createdAt} /> },
                { header: 'Last used', ...MOMENT, cell: (k) => <LocalTime value={k.lastUsedAt} /> },
              ]}
            />
          )}
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Webhook endpoints</CardTitle>
          </CardHeader>
          {r.hooks.length === 0 ? (
            <EmptyState title="No webhook endpoints">Nobody has added an endpoint.</EmptyState>
          ) : (
            <StaticTable
              caption="Webhook endpoints"
              rows={r.hooks}
              rowKey={(h) => h.id}
              columns={[
                { header: 'Endpoint', className: 'break-all font-mono text-xs', cell: (h) => h.url },
                {
                  header: 'State',
                  cell: (h) => (h.enabled ? <Badge tone="ok">Enabled</Badge> : <Badge tone="neutral">Disabled</Badge>),
                },
                { header: 'Created by', cell: (h) => h.createdBy ?? 'a removed user' },
                { header: 'Created', ...MOMENT, cell: (h) => <LocalTime value={h.createdAt} /> },
                { header: 'Last delivery', ...MOMENT, cell: (h) => <LocalTime value={h.lastUsedAt} /> },
              ]}
            />
          )}
        </Card>
      </div>
    </>
  );
}
