import { StaticTable } from '@/components/data-table/static-table';
import Link from 'next/link';
import { DecisionBadge, FeedbackBadge, RiskScore } from '@/components/executions/badges';
import { shortId } from '@/lib/format';
import type { RingAttribute, RingMember } from '@/lib/rings/queries';
import { LINK_KIND_LABELS } from '@/lib/rings/kinds';
import { LocalTime } from '@/components/time/local-time';

/** The ring's members as a table: the keyboard and screen-reader view of the graph, same members. */
export function RingMembersTable({ members, attributes }: { members: RingMember[]; attributes: RingAttribute[] }) {
  const via = new Map<string, Set<string>>();
  for (const a of attributes)
    if (!a.weak) for (const id of a.memberIds) via.set(id, (via.get(id) ?? new Set()).add(LINK_KIND_LABELS[a.kind]));
  return (
    <StaticTable
      data-testid="ring-members"
      caption="Members of the ring, newest first"
      rows={members}
      rowKey={(m) => m.id}
      rowProps={(m) => ({ 'data-member-id': m.id })}
      columns={[
        {
          header: 'Execution',
          cell: (m) => (
            <Link href={`/executions/${m.id}`} className="font-mono text-xs text-primary hover:underline">
              {shortId(m.id)}
            </Link>
          ),
        },
        { header: 'Created', className: 'whitespace-nowrap text-xs', cell: (m) => <LocalTime value={m.createdAt} /> },
        { header: 'Name', className: 'text-sm', cell: (m) => m.name ?? <span className="text-muted-fg">—</span> },
        {
          header: 'Document',
          className: 'text-xs',
          cell: (m) => [m.issuingCountry, m.documentType].filter(Boolean).join(' · ') || '—',
        },
        { header: 'Decision', cell: (m) => <DecisionBadge type={m.decisionType} label={m.decisionLabel} /> },
        {
          header: 'Risk',
          headerClassName: 'text-right',
          className: 'text-right',
          cell: (m) => <RiskScore score={m.riskScore} />,
        },
        { header: 'Label', cell: (m) => <FeedbackBadge status={m.feedbackStatus} /> },
        { header: 'Shares', className: 'text-xs', cell: (m) => [...(via.get(m.id) ?? [])].sort().join(', ') || '—' },
      ]}
    />
  );
}
