import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { RingActions } from '@/components/rings/ring-actions';
import { RingKinds, RingStatusBadge } from '@/components/rings/ring-badges';
import { RingGraphLoader } from '@/components/rings/ring-graph-loader';
import { RingMembersTable } from '@/components/rings/ring-members-table';
import { PageHeader } from '@/components/shell/page-header';
import { Card, CardContent, CardHeader, CardTitle, TitledCard } from '@/components/ui/card';
import { audit } from '@/lib/audit';
import { requireRole } from '@/lib/auth/guards';
import { formatNumber, formatPercent, shortId } from '@/lib/format';
import { getRing } from '@/lib/rings/queries';
import { LocalTime } from '@/components/time/local-time';

export const metadata: Metadata = { title: 'Ring' };

export default async function RingPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireRole('analyst');
  const { id: raw } = await params;
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) notFound();
  const graph = await getRing(id, user.id);
  if (!graph) notFound();
  const { ring, members, attributes } = graph;
  // Who looked at which ring: its members' (masked) records were read.
  await audit({
    action: 'ring.view',
    actor: user,
    targetType: 'ring',
    targetId: String(id),
    outcome: 'success',
    details: { members: members.length, revealed: members.filter((m) => m.revealed).length },
  });
  const facts: Array<[string, React.ReactNode]> = [
    ['Members', formatNumber(ring.size)],
    ['Score', ring.score.toFixed(1)],
    ['Rejected', formatPercent(ring.rejected / ring.size)],
    ['Labelled FRAUD', formatPercent(ring.fraud / ring.size)],
    ['New in 24 h / 7 d', `${formatNumber(ring.growth24h)} / ${formatNumber(ring.growth7d)}`],
    ['First seen', <LocalTime key="first" value={ring.firstSeen} />],
    ['Last seen', <LocalTime key="last" value={ring.lastSeen} />],
  ];
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/rings" className="text-primary hover:underline">
          ← Rings
        </Link>
      </p>
      <PageHeader
        title={`Ring ${ring.id}`}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <RingStatusBadge status={ring.status} /> Joined by <RingKinds kinds={ring.linkKinds} />
            {ring.dismissedReason ? <span>Dismissed: {ring.dismissedReason}</span> : null}
          </span>
        }
        actions={
          <RingActions ringId={ring.id} memberIds={members.map((m) => m.id)} role={user.role} status={ring.status} />
        }
      />
      <dl className="mb-4 grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
        {facts.map(([k, v]) => (
          <div key={k} className="rounded-md border border-border bg-card px-3 py-2">
            <dt className="text-xs text-muted-fg">{k}</dt>
            <dd className="text-sm font-medium tabular-nums">{v}</dd>
          </div>
        ))}
      </dl>
      <TitledCard title="Graph" className="mb-4">
        <RingGraphLoader
          ringId={ring.id}
          members={members.map((m) => ({
            id: m.id,
            short: shortId(m.id),
            name: m.name,
            decisionType: m.decisionType,
            feedbackStatus: m.feedbackStatus,
          }))}
          attributes={attributes}
        />
      </TitledCard>
      <Card>
        <CardHeader>
          <CardTitle>Members</CardTitle>
          <p className="text-xs text-muted-fg">
            Names stay masked until revealed with a reason on the execution&apos;s page.
          </p>
        </CardHeader>
        <CardContent>
          <RingMembersTable members={members} attributes={attributes} />
        </CardContent>
      </Card>
    </>
  );
}
