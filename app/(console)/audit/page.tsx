import type { Metadata } from 'next';
import Link from 'next/link';
import { AuditExportForm } from '@/components/audit/export-form';
import { IntegrityStatus } from '@/components/audit/integrity-status';
import { PageHeader } from '@/components/shell/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Input, Label, Select } from '@/components/ui/input';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import { requireRole } from '@/lib/auth/guards';
import {
  auditQuerySchema,
  getAuditIntegrity,
  listAuditActions,
  listAuditActors,
  listAuditEntries,
} from '@/lib/data/audit';
import { consoleSigningKey, publicKeyPem } from '@/lib/evidence/signing';
import { formatDateTime, shortId } from '@/lib/format';

export const metadata: Metadata = { title: 'Audit log' };

const OUTCOME_TONE = { success: 'ok', failure: 'reject', denied: 'warn' } as const;

export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireRole('manager');
  const raw = await searchParams;
  const q = auditQuerySchema.parse(
    Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v || undefined])),
  );
  const [{ rows, nextBefore }, actions, actors, integrity] = await Promise.all([
    listAuditEntries(q),
    listAuditActions(),
    listAuditActors(),
    getAuditIntegrity(),
  ]);
  const qs = (extra: Record<string, string | undefined>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...q, ...extra })) if (v) p.set(k, v);
    return `?${p.toString()}`;
  };
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every sign-in, change and read of personal data, newest first. Entries cannot be edited or removed, and each one carries the hash of the one before it."
      />
      <IntegrityStatus
        last={integrity.last}
        lastOk={integrity.lastOk}
        checkpoint={integrity.checkpoint}
        unsealed={integrity.unsealed}
      />
      <AuditExportForm
        actors={actors}
        defaults={{ from: q.from, to: q.to }}
        publicKey={{ pem: publicKeyPem(consoleSigningKey()), keyId: consoleSigningKey().keyId }}
      />
      <form
        method="get"
        className="mb-4 flex flex-wrap items-end gap-3"
        role="search"
        aria-label="Filter the audit log"
      >
        <div className="flex flex-col gap-1">
          <Label htmlFor="f-user">User</Label>
          <Select id="f-user" name="user" defaultValue={q.user ?? ''} className="w-60">
            <option value="">Everyone</option>
            {actors.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="f-action">Action</Label>
          <Select id="f-action" name="action" defaultValue={q.action ?? ''} className="w-52">
            <option value="">All actions</option>
            {actions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="f-from">From</Label>
          <Input id="f-from" name="from" type="date" defaultValue={q.from} className="w-40" />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="f-to">To</Label>
          <Input id="f-to" name="to" type="date" defaultValue={q.to} className="w-40" />
        </div>
        {q.target ? <input type="hidden" name="target" value={q.target} /> : null}
        <Button type="submit">Apply</Button>
        <Button asChild variant="ghost">
          <Link href="/audit">Clear</Link>
        </Button>
      </form>
      {rows.length === 0 ? (
        <EmptyState title="No audit entries match these filters">Try a wider date range or another user.</EmptyState>
      ) : (
        <Card>
          <Table>
            <caption className="sr-only">Audit entries</caption>
            <THead>
              <TR>
                <TH className="whitespace-nowrap">When</TH>
                <TH>Who</TH>
                <TH>Action</TH>
                <TH>Record</TH>
                <TH>Outcome</TH>
                <TH>IP</TH>
                <TH>Details</TH>
              </TR>
            </THead>
            <TBody>
              {rows.map((r) => (
                <TR key={r.id}>
                  <TD className="whitespace-nowrap text-xs">{formatDateTime(r.at)}</TD>
                  <TD className="text-xs">{r.actorEmail ?? <span className="text-muted-fg">system</span>}</TD>
                  <TD className="font-mono text-xs">{r.action}</TD>
                  <TD className="whitespace-nowrap font-mono text-xs" title={r.targetId ?? undefined}>
                    {r.targetType ? `${r.targetType}:${shortId(r.targetId ?? '')}` : '—'}
                  </TD>
                  <TD>
                    <Badge tone={OUTCOME_TONE[r.outcome]}>{r.outcome}</Badge>
                  </TD>
                  <TD className="font-mono text-xs">{r.ip ?? '—'}</TD>
                  <TD
                    className="max-w-xs truncate font-mono text-xs"
                    title={r.details ? JSON.stringify(r.details) : undefined}
                  >
                    {r.details ? JSON.stringify(r.details) : ''}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </Card>
      )}
      <nav aria-label="Audit pages" className="mt-4 flex justify-end gap-2">
        {q.before ? (
          <Button asChild variant="secondary" size="sm">
            <Link href={qs({ before: undefined })}>Newest</Link>
          </Button>
        ) : null}
        {nextBefore ? (
          <Button asChild variant="secondary" size="sm">
            <Link href={qs({ before: nextBefore })}>Older entries</Link>
          </Button>
        ) : null}
      </nav>
    </>
  );
}
