import { Badge } from '@/components/ui/badge';
import { STATE_HINTS, STATE_LABELS, STATE_TONES, type FeedbackState } from '@/lib/feedback/states';

/** The delivery state of a feedback submission, the same everywhere (detail, approvals, sync, list). */
export function DeliveryStateBadge({ state, className }: { state: string | null | undefined; className?: string }) {
  if (!state) return null;
  const known = state in STATE_LABELS;
  return (
    <Badge
      tone={known ? STATE_TONES[state as FeedbackState] : 'neutral'}
      className={className}
      title={known ? STATE_HINTS[state as FeedbackState] : undefined}
    >
      {known ? STATE_LABELS[state as FeedbackState] : state}
    </Badge>
  );
}
