import { Badge } from '@/components/ui/badge';
import { riskBandOf } from '@/lib/executions/risk';
import { cn } from '@/lib/utils';

type Tone = 'ok' | 'warn' | 'reject' | 'neutral' | 'info';

const DECISION_TONE: Record<string, Tone> = {
  PASSED: 'ok',
  WARNING: 'warn',
  REJECTED: 'reject',
  NOT_EXECUTED: 'neutral',
};

/** Tone of a decision type; an unknown type from the service is shown in the "info" tone. */
export function decisionTone(type: string | null | undefined): Tone {
  return type ? (DECISION_TONE[type] ?? 'info') : 'neutral';
}

/** A decision type, with its label when the label says more than the type. */
export function DecisionBadge({
  type,
  label,
  className,
}: {
  type: string | null | undefined;
  label?: string | null;
  className?: string;
}) {
  if (!type) return <span className="text-xs text-muted-fg">No decision yet</span>;
  return (
    <span className={cn('inline-flex flex-wrap items-center gap-1', className)}>
      <Badge tone={decisionTone(type)}>{type}</Badge>
      {label && label !== type ? <span className="font-mono text-[11px] text-muted-fg">{label}</span> : null}
    </span>
  );
}

const STATUS_TONE: Record<string, Tone> = {
  PROCESSED: 'neutral',
  INITIATED: 'info',
  ACQUIRED: 'info',
  SESSION_EXPIRED: 'warn',
  TOKEN_EXPIRED: 'warn',
};

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONE[status] ?? 'info'}>{status}</Badge>;
}

/** The risk score coloured by the default band it falls in; -1 means "not scored". */
export function RiskScore({ score, className }: { score: number | null | undefined; className?: string }) {
  if (score === null || score === undefined) return <span className="text-xs text-muted-fg">—</span>;
  const band = riskBandOf(score);
  const tone = decisionTone(band);
  const color = {
    ok: 'text-ok',
    warn: 'text-warn',
    reject: 'text-reject',
    neutral: 'text-muted-fg',
    info: 'text-primary',
  }[tone];
  return (
    <span
      className={cn('inline-flex items-center gap-1.5 tabular-nums', className)}
      title={score < 0 ? 'Not scored (-1): the execution was not carried out' : `Band ${band}`}
    >
      <span
        aria-hidden
        className={cn(
          'inline-block h-2 w-2 rounded-full',
          { ok: 'bg-ok', warn: 'bg-warn', reject: 'bg-reject', neutral: 'bg-neutral', info: 'bg-primary' }[tone],
        )}
      />
      <span className={cn('font-semibold', color)}>{score}</span>
      {score < 0 ? <span className="sr-only">(not scored)</span> : null}
    </span>
  );
}

const FEEDBACK_TONE: Record<string, Tone> = { FRAUD: 'reject', NOT_FRAUD: 'ok', NA: 'neutral' };
const DELIVERY_TEXT: Record<string, string> = {
  pending: 'sending',
  failed: 'delivery failed',
  awaiting_approval: 'awaiting approval',
  delivered: 'delivered',
};

/**
 * Feedback status with its local delivery state (feedback is stored first, delivered later).
 * `label` is Verdict's own label while it is not at the service yet; it wins over the service's older status.
 */
export function FeedbackBadge({
  status: serviceStatus,
  delivery,
  label,
}: {
  status: string | null | undefined;
  delivery?: string | null;
  label?: string | null;
}) {
  const status = label && delivery && delivery !== 'delivered' ? label : serviceStatus;
  // Beside the decision and status badges a bare "None" said nothing: it is the feedback that is missing.
  if (!status || (status === 'NA' && !delivery)) return <span className="text-xs text-muted-fg">No feedback</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Badge tone={FEEDBACK_TONE[status] ?? 'info'}>{status === 'NOT_FRAUD' ? 'NOT FRAUD' : status}</Badge>
      {delivery && delivery !== 'delivered' ? (
        <span className={cn('text-[11px]', delivery === 'failed' ? 'text-danger' : 'text-muted-fg')}>
          {DELIVERY_TEXT[delivery] ?? delivery}
        </span>
      ) : null}
    </span>
  );
}

export const LABEL_SEALED = 'Sealed until the QA review is decided';

/**
 * In place of a label that a pending QA review seals for the viewer (lib/qa/seal.ts): neutral, the
 * same for every label and for none, so it tells nothing but the seal. `short` in lists.
 */
export function SealedLabel({ short }: { short?: boolean }) {
  return short ? (
    <span className="text-xs text-muted-fg" title={LABEL_SEALED} data-testid="label-sealed">
      Sealed
    </span>
  ) : (
    <span className="rounded bg-muted px-1.5 py-0.5 text-xs text-muted-fg" data-testid="label-sealed">
      {LABEL_SEALED}
    </span>
  );
}
