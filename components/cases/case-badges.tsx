import { Badge } from '@/components/ui/badge';
import type { CaseState } from '@/lib/db/case-states';
import { LocalTime } from '@/components/time/local-time';

const STATE: Record<CaseState, { label: string; tone: 'info' | 'warn' | 'neutral' | 'ok' }> = {
  open: { label: 'Open', tone: 'info' },
  in_review: { label: 'In review', tone: 'warn' },
  resolved: { label: 'Resolved', tone: 'ok' },
};

export function CaseStateBadge({ state }: { state: CaseState }) {
  const s = STATE[state];
  return <Badge tone={s.tone}>{s.label}</Badge>;
}

/** The due time; past it (and not resolved) it is marked overdue in words and colour. */
export function DueText({ dueAt, overdue }: { dueAt: string; overdue: boolean }) {
  if (overdue)
    return (
      <span data-overdue className="inline-flex items-center gap-1 whitespace-nowrap text-xs font-medium text-danger">
        <Badge tone="reject">Overdue</Badge>
        <LocalTime value={dueAt} shape="compact" />
      </span>
    );
  return (
    <span className="whitespace-nowrap text-xs">
      <LocalTime value={dueAt} shape="compact" />
    </span>
  );
}
