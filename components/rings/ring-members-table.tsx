import Link from 'next/link';
import { DecisionBadge, FeedbackBadge, RiskScore } from '@/components/executions/badges';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
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
    <Table data-testid="ring-members">
      <caption className="sr-only">Members of the ring, newest first</caption>
      <THead>
        <TR>
          <TH>Execution</TH>
          <TH>Created</TH>
          <TH>Name</TH>
          <TH>Document</TH>
          <TH>Decision</TH>
          <TH className="text-right">Risk</TH>
          <TH>Label</TH>
          <TH>Shares</TH>
        </TR>
      </THead>
      <TBody>
        {members.map((m) => (
          <TR key={m.id} data-member-id={m.id}>
            <TD>
              <Link href={`/executions/${m.id}`} className="font-mono text-xs text-primary hover:underline">
                {shortId(m.id)}
              </Link>
            </TD>
            <TD className="whitespace-nowrap text-xs">
              <LocalTime value={m.createdAt} />
            </TD>
            <TD className="text-sm">{m.name ?? <span className="text-muted-fg">—</span>}</TD>
            <TD className="text-xs">{[m.issuingCountry, m.documentType].filter(Boolean).join(' · ') || '—'}</TD>
            <TD>
              <DecisionBadge type={m.decisionType} label={m.decisionLabel} />
            </TD>
            <TD className="text-right">
              <RiskScore score={m.riskScore} />
            </TD>
            <TD>
              <FeedbackBadge status={m.feedbackStatus} />
            </TD>
            <TD className="text-xs">{[...(via.get(m.id) ?? [])].sort().join(', ') || '—'}</TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
