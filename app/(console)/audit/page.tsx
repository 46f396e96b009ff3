import type { Metadata } from 'next';
import { StaticTable } from '@/components/data-table/static-table';
import Link from 'next/link';
import { AuditDetails } from '@/components/audit/audit-details';
import { LocalTime } from '@/components/time/local-time';
import { AuditExportForm } from '@/components/audit/export-form';
import { IntegrityStatus } from '@/components/audit/integrity-status';
import { VerifyNow } from '@/components/audit/verify-now';
import { PageHeader } from '@/components/shell/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField, Select } from '@/components/ui/input';
import { ActorSelect } from '@/components/audit/actor-select';
import { requireRole } from '@/lib/auth/guards';
import {
  auditQuerySchema,
  getAuditIntegrity,
  listAuditActions,
  listAuditActors,
  listAuditEntries,
} from '@/lib/evidence/audit-log';
import { consoleSigningKey, publicKeyPem } from '@/lib/evidence/signing';
import { auditRecordHref } from '@/lib/evidence/record-link';
import { shortId } from '@/lib/format';
import { dayFormatError, isIsoDay } from '@/lib/utils';
import { DateInput } from '@/components/ui/date-input';
import type { Role } from '@/lib/auth/roles';

export const metadata: Metadata = { title: 'Audit log' };

/** An entry whose outcome or label the seal took out for this viewer (lib/qa/seal.ts). */
const isSealed = (d: unknown) => Boolean(d && typeof d === 'object' && (d as { sealed?: unknown }).sealed === true);

const OUTCOME_TONE = { success: 'ok', failure: 'reject', denied: 'warn' } as const;

export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requireRole('manager');
  const raw = await searchParams;
  const q = auditQuerySchema.parse(
    Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v || undefined])),
  );
  const [{ rows, nextBefore }, actions, actors, integrity] = await Promise.all([
    listAuditEntries(q, user.id),
    listAuditActions(),
    listAuditActors(),
    getAuditIntegrity(),
  ]);
  // A day that is not one filters nothing and says so under its field, with the text kept.
  const rawDay = (k: 'from' | 'to') => (typeof raw[k] === 'string' ? raw[k].trim() : undefined);
  const dayError = (k: 'from' | 'to') => {
    const v = rawDay(k);
    return v && !isIsoDay(v) ? dayFormatError(v) : null;
  };
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
        sinceVerified={integrity.sinceVerified}
      />
      <VerifyNow />
      <AuditExportForm
        actors={actors}
        defaults={{ from: q.from, to: q.to }}
        publicKey={{ pem: publicKeyPem(consoleSigningKey()), keyId: consoleSigningKey().keyId }}
      />
      <form
        method="get"
        className="mb-4 flex flex-wrap items-start gap-3"
        role="search"
        aria-label="Filter the audit log"
      >
        <FormField id="f-user" label="User" className="gap-1">
          {({ id }) => <ActorSelect id={id} name="user" defaultValue={q.user ?? ''} actors={actors} />}
        </FormField>
        <FormField id="f-action" label="Action" className="gap-1">
          {({ id }) => (
            <Select id={id} name="action" defaultValue={q.action ?? ''} className="w-52">
              <option value="">All actions</option>
              {actions.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <FormField id="f-from" label="From" className="gap-1">
          {({ id }) => (
            <DateInput id={id} name="from" defaultValue={rawDay('from')} hint="UTC" error={dayError('from')} />
          )}
        </FormField>
        <FormField id="f-to" label="To" className="gap-1">
          {({ id }) => <DateInput id={id} name="to" defaultValue={rawDay('to')} hint="UTC" error={dayError('to')} />}
        </FormField>
        {q.target ? <input type="hidden" name="target" value={q.target} /> : null}
        {/* Level with the fields, below their labels (the date fields' format hint makes them taller). */}
        <Button type="submit" className="mt-6">
          Apply
        </Button>
        <Button asChild variant="ghost" className="mt-6">
          <Link href="/audit">Clear</Link>
        </Button>
      </form>
      {rows.length === 0 ? (
        <EmptyState title="No audit entries match these filters">Try a wider date range or another user.</EmptyState>
      ) : (
        <Card>
          <StaticTable
            caption="Audit entries"
            rows={rows}
            rowKey={(r) => r.id}
            columns={[
              {
                header: 'When',
                headerClassName: 'whitespace-nowrap',
                className: 'whitespace-nowrap text-xs',
                cell: (r) => <LocalTime value={r.at} />,
              },
              {
                header: 'Who',
                className: 'text-xs',
                cell: (r) => r.actorEmail ?? <span className="text-muted-fg">system</span>,
              },
              { header: 'Action', className: 'font-mono text-xs', cell: (r) => r.action },
              {
                header: 'Record',
                className: 'whitespace-nowrap font-mono text-xs',
                cellProps: (r) => ({ title: r.targetId ?? undefined }),
                cell: (r) => <RecordCell type={r.targetType} id={r.targetId} role={user.role} />,
              },
              { header: 'Outcome', cell: (r) => <Badge tone={OUTCOME_TONE[r.outcome]}>{r.outcome}</Badge> },
              { header: 'IP', className: 'font-mono text-xs', cell: (r) => r.ip ?? '—' },
              {
                header: 'Details',
                className: 'min-w-64 max-w-md text-xs',
                cell: (r) => (
                  <>
                    {isSealed(r.details) ? (
                      <Badge tone="warn" title="Sealed for you until the case's QA review is decided">
                        sealed
                      </Badge>
                    ) : null}
                    <AuditDetails details={r.details} />
                  </>
                ),
              },
            ]}
          />
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

/** The entry's record, as a link to where it is shown (lib/evidence/record-link.ts). */
function RecordCell({ type, id, role }: { type: string | null; id: string | null; role: Role }) {
  if (!type) return <>—</>;
  const text = `${type}:${shortId(id ?? '')}`;
  const href = auditRecordHref(type, id, role);
  return href ? (
    <Link href={href} className="text-primary underline underline-offset-2">
      {text}
    </Link>
  ) : (
    <>{text}</>
  );
}
