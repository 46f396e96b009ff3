import { Badge } from '@/components/ui/badge';
import { OUTCOME_LABELS } from '@/lib/cases/form-rules';
import type { ReasonView } from '@/lib/cases/queries';
import type { Verdict } from '@/lib/qa/quality';
import { QA_STATE_LABELS, type QaState } from '@/lib/db/qa-states';
import { LocalTime } from '@/components/time/local-time';

const TONE: Record<QaState, 'neutral' | 'info' | 'ok' | 'warn' | 'reject'> = {
  open: 'neutral',
  in_review: 'info',
  agreed: 'ok',
  disputed: 'warn',
  settled: 'info',
};

export function QaStateBadge({ state, overturned }: { state: QaState; overturned?: boolean }) {
  return (
    <Badge tone={overturned ? 'reject' : TONE[state]} data-testid="qa-state">
      {state === 'settled' ? (overturned ? 'Settled: overturned' : 'Settled: upheld') : QA_STATE_LABELS[state]}
    </Badge>
  );
}

/** One outcome with its reason in plain words and its comment. */
export function VerdictLine({
  title,
  verdict,
  reasons,
  testId,
}: {
  title: string;
  verdict: Verdict;
  reasons: Pick<ReasonView, 'code' | 'label'>[];
  testId: string;
}) {
  return (
    <div className="flex flex-col gap-0.5" data-testid={testId}>
      <dt className="text-xs text-muted-fg">
        {title}
        {verdict.by ? ` · ${verdict.by.name}` : ''} · <LocalTime value={verdict.at} />
      </dt>
      <dd className="text-sm">
        <span className="font-medium">{OUTCOME_LABELS[verdict.outcome]}</span> ·{' '}
        {reasons.find((r) => r.code === verdict.reason)?.label ?? verdict.reason}
        {verdict.comment ? <span className="text-muted-fg"> — {verdict.comment}</span> : null}
      </dd>
    </div>
  );
}
