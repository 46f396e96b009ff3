import type { Metadata } from 'next';
import Link from 'next/link';
import { RingFiltersForm } from '@/components/rings/ring-filters';
import { RingKinds, RingStatusBadge } from '@/components/rings/ring-badges';
import { RingTrendsCard } from '@/components/rings/ring-trends-card';
import { PageHeader } from '@/components/shell/page-header';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import { requireRole } from '@/lib/auth/guards';
import { formatNumber, formatPercent } from '@/lib/format';
import { parseRingFilters } from '@/lib/rings/params';
import { listRings, RINGS_PAGE_SIZE } from '@/lib/rings/queries';
import { getRingTrends } from '@/lib/rings/trends';
import { LocalTime } from '@/components/time/local-time';

export const metadata: Metadata = { title: 'Rings' };

export default async function RingsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireRole('analyst');
  const filters = parseRingFilters(await searchParams);
  const [{ rows, total }, trends] = await Promise.all([listRings(filters), getRingTrends()]);
  const pages = Math.max(1, Math.ceil(total / RINGS_PAGE_SIZE));
  const pageHref = (page: number) => {
    const q = new URLSearchParams();
    if (filters.minSize !== 2) q.set('minSize', String(filters.minSize));
    if (filters.kind) q.set('kind', filters.kind);
    if (filters.growth) q.set('growth', filters.growth);
    if (filters.status !== 'open') q.set('status', filters.status);
    if (page > 1) q.set('page', String(page));
    return `/rings${q.size ? `?${q}` : ''}`;
  };
  return (
    <>
      <PageHeader
        title="Rings"
        description="Executions joined by a shared document, face, device, IP address, e-mail, phone or address, ranked by score. Values shared by very many executions are weak links: shown, never joined."
      />
      <RingTrendsCard trends={trends} />
      <RingFiltersForm filters={filters} />
      {rows.length ? (
        <Card>
          <Table>
            <caption className="sr-only">Rings, highest score first</caption>
            <THead>
              <TR>
                <TH>Ring</TH>
                <TH className="text-right">Score</TH>
                <TH className="text-right">Members</TH>
                <TH>Joined by</TH>
                <TH className="text-right">Rejected</TH>
                <TH className="text-right">FRAUD</TH>
                <TH className="text-right">New 24 h / 7 d</TH>
                <TH>Last seen</TH>
                <TH>Status</TH>
              </TR>
            </THead>
            <TBody>
              {rows.map((r) => (
                <TR key={r.id}>
                  <TD>
                    <Link href={`/rings/${r.id}`} className="font-mono text-xs text-primary hover:underline">
                      Ring {r.id}
                    </Link>
                  </TD>
                  <TD className="text-right tabular-nums">{r.score.toFixed(1)}</TD>
                  <TD className="text-right tabular-nums">{formatNumber(r.size)}</TD>
                  <TD>
                    <RingKinds kinds={r.linkKinds} />
                  </TD>
                  <TD className="text-right tabular-nums">{formatPercent(r.rejected / r.size)}</TD>
                  <TD className="text-right tabular-nums">{formatPercent(r.fraud / r.size)}</TD>
                  <TD className="text-right tabular-nums">
                    {formatNumber(r.growth24h)} / {formatNumber(r.growth7d)}
                  </TD>
                  <TD className="whitespace-nowrap text-xs">
                    <LocalTime value={r.lastSeen} shape="relative" />
                  </TD>
                  <TD>
                    <RingStatusBadge status={r.status} />
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
          <nav
            aria-label="Pages"
            className="flex items-center justify-between border-t border-border px-3 py-2 text-sm"
          >
            <span className="text-muted-fg">
              {formatNumber(total)} ring{total === 1 ? '' : 's'} · page {filters.page} of {pages}
            </span>
            <span className="flex gap-3">
              {filters.page > 1 ? <Link href={pageHref(filters.page - 1)}>Previous</Link> : null}
              {filters.page < pages ? <Link href={pageHref(filters.page + 1)}>Next</Link> : null}
            </span>
          </nav>
        </Card>
      ) : (
        <EmptyState title="No rings match">
          Rings form when executions share a document, face, device, IP address, e-mail, phone or address. Try a smaller
          minimum size or another status.
        </EmptyState>
      )}
    </>
  );
}
