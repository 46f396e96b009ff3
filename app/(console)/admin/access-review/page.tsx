import type { Metadata } from 'next';
import { MarkReviewedButton } from '@/components/admin/access-review-forms';
import { PageHeader } from '@/components/shell/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
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
          <Table>
            <caption className="sr-only">Users</caption>
            <THead>
              <TR>
                <TH>User</TH>
                <TH>Role</TH>
                <TH>State</TH>
                <TH>Signs in with</TH>
                <TH>Second factors</TH>
                <TH className="whitespace-nowrap">Last sign-in</TH>
              </TR>
            </THead>
            <TBody>
              {r.users.map((u) => (
                <TR key={u.id}>
                  <TD>
                    <div className="font-medium">{u.name}</div>
                    <div className="text-xs text-muted-fg">{u.email}</div>
                  </TD>
                  <TD className="capitalize">{u.role}</TD>
                  <TD>
                    <div className="flex flex-col items-start gap-1">
                      {u.active ? <Badge tone="ok">Active</Badge> : <Badge tone="neutral">Deactivated</Badge>}
                      {u.idle ? <Badge tone="warn">Idle over {idleDays()} days</Badge> : null}
                    </div>
                  </TD>
                  <TD>{u.method}</TD>
                  <TD>
                    {u.factors.length ? (
                      u.factors.map((f) => FACTOR_LABEL[f] ?? f).join(', ')
                    ) : (
                      <span className="text-muted-fg">None</span>
                    )}
                  </TD>
                  <TD className="text-xs text-muted-fg">
                    <LocalTime value={u.lastSignInAt} />
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>API keys</CardTitle>
          </CardHeader>
          {r.keys.length === 0 ? (
            <EmptyState title="No API keys">Nobody has created a key for the read API.</EmptyState>
          ) : (
            <Table>
              <caption className="sr-only">API keys</caption>
              <THead>
                <TR>
                  <TH>Key</TH>
                  <TH>State</TH>
                  <TH>Created by</TH>
                  <TH>Created</TH>
                  <TH>Last used</TH>
                </TR>
              </THead>
              <TBody>
                {r.keys.map((k) => (
                  <TR key={k.id}>
                    <TD className="font-medium">{k.name}</TD>
                    <TD>{k.revokedAt ? <Badge tone="neutral">Revoked</Badge> : <Badge tone="ok">Active</Badge>}</TD>
                    <TD>{k.createdBy ?? 'a removed user'}</TD>
                    <TD className="text-xs text-muted-fg">
                      <LocalTime value={k.createdAt} />
                    </TD>
                    <TD className="text-xs text-muted-fg">
                      <LocalTime value={k.lastUsedAt} />
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          )}
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Webhook endpoints</CardTitle>
          </CardHeader>
          {r.hooks.length === 0 ? (
            <EmptyState title="No webhook endpoints">Nobody has added an endpoint.</EmptyState>
          ) : (
            <Table>
              <caption className="sr-only">Webhook endpoints</caption>
              <THead>
                <TR>
                  <TH>Endpoint</TH>
                  <TH>State</TH>
                  <TH>Created by</TH>
                  <TH>Created</TH>
                  <TH>Last delivery</TH>
                </TR>
              </THead>
              <TBody>
                {r.hooks.map((h) => (
                  <TR key={h.id}>
                    <TD className="break-all font-mono text-xs">{h.url}</TD>
                    <TD>{h.enabled ? <Badge tone="ok">Enabled</Badge> : <Badge tone="neutral">Disabled</Badge>}</TD>
                    <TD>{h.createdBy ?? 'a removed user'}</TD>
                    <TD className="text-xs text-muted-fg">
                      <LocalTime value={h.createdAt} />
                    </TD>
                    <TD className="text-xs text-muted-fg">
                      <LocalTime value={h.lastUsedAt} />
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          )}
        </Card>
      </div>
    </>
  );
}
