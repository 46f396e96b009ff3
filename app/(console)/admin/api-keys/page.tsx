import type { Metadata } from 'next';
import { PageHeader } from '@/components/shell/page-header';
import { Badge } from '@/components/ui/badge';
import { Card, TitledCard } from '@/components/ui/card';
import { MOMENT, StaticTable, srOnlyHeader } from '@/components/data-table/static-table';
import { CreateApiKeyForm, RevokeApiKeyButton } from '@/components/admin/api-keys-forms';
import { listApiKeys } from '@/lib/api/keys';
import { requireRole } from '@/lib/auth/guards';
import { LocalTime } from '@/components/time/local-time';

export const metadata: Metadata = { title: 'API keys' };

const STATE = {
  active: { tone: 'ok', label: 'Active' },
  expired: { tone: 'neutral', label: 'Expired' },
  revoked: { tone: 'reject', label: 'Revoked' },
} as const;

export default async function ApiKeysPage() {
  await requireRole('admin');
  const keys = await listApiKeys();
  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            Keys for machines reading /api/v1/ (read-only, expiring, rate limited; every call is in the audit log). The
            document is at{' '}
            <a href="/api/v1/openapi.json" className="text-primary underline underline-offset-2">
              /api/v1/openapi.json
            </a>
            .
          </>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <Card className="self-start">
          <StaticTable
            caption="API keys"
            rows={keys}
            rowKey={(k) => k.id}
            rowProps={(k) => ({ 'data-testid': `api-key-${k.prefix}` })}
            empty="No keys yet."
            columns={[
              {
                header: 'Key',
                cell: (k) => (
                  <>
                    <div className="font-medium">{k.name}</div>
                    <div className="font-mono text-xs text-muted-fg">{k.prefix}…</div>
                    <div className="text-xs text-muted-fg">
                      {k.scope}, by {k.createdByEmail ?? 'a removed user'} on <LocalTime value={k.createdAt} />
                    </div>
                  </>
                ),
              },
              { header: 'State', cell: (k) => <Badge tone={STATE[k.state].tone}>{STATE[k.state].label}</Badge> },
              { header: 'Expires', ...MOMENT, cell: (k) => <LocalTime value={k.revokedAt ?? k.expiresAt} /> },
              {
                header: 'Last use',
                headerClassName: 'whitespace-nowrap',
                className: 'text-xs text-muted-fg',
                cell: (k) =>
                  k.lastUsedAt ? (
                    <>
                      <LocalTime value={k.lastUsedAt} /> from {k.lastUsedIp ?? 'unknown'}
                    </>
                  ) : (
                    'Never'
                  ),
              },
              {
                header: srOnlyHeader('Actions'),
                className: 'text-right',
                cell: (k) => (k.state === 'active' ? <RevokeApiKeyButton keyId={k.id} name={k.name} /> : null),
              },
            ]}
          />
        </Card>
        <TitledCard title="Create a key" className="self-start">
          <CreateApiKeyForm />
        </TitledCard>
      </div>
    </>
  );
}
