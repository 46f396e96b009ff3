'use client';
import { FieldError, Label, Select } from '@/components/ui/input';
import { FEEDBACK_REASONS, REASON_LABELS } from '@/lib/feedback/schema';

export type AlsoFeedback = '' | 'FRAUD' | 'NOT_FRAUD';

/**
 * "Also send feedback" with its service reason, for forms that label the execution in the same
 * step as a case decision (resolving, settling a QA disagreement): sent through the feedback
 * pipeline by the action, four-eyes included.
 */
export function FeedbackFields({
  idPrefix,
  value,
  onChange,
  errors,
}: {
  idPrefix: string;
  value: AlsoFeedback;
  onChange: (v: AlsoFeedback) => void;
  errors: Record<string, string[]>;
}) {
  return (
    // One field a line: side by side in the narrow case panel, the service's reasons were cut off.
    <div className="flex flex-col gap-2">
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${idPrefix}-feedback`}>Also send feedback</Label>
        <Select
          id={`${idPrefix}-feedback`}
          name="feedbackStatus"
          value={value}
          onChange={(e) => onChange(e.target.value as AlsoFeedback)}
        >
          <option value="">No feedback</option>
          <option value="FRAUD">Fraud</option>
          <option value="NOT_FRAUD">Not fraud</option>
        </Select>
        <FieldError messages={errors.feedbackStatus} />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${idPrefix}-feedback-reason`}>Service reason</Label>
        <Select id={`${idPrefix}-feedback-reason`} name="feedbackReason" defaultValue="" disabled={!value}>
          <option value="">{value === 'FRAUD' ? 'Choose…' : 'None'}</option>
          {FEEDBACK_REASONS.filter((r) => r !== 'NA').map((r) => (
            <option key={r} value={r}>
              {REASON_LABELS[r]}
            </option>
          ))}
        </Select>
        <FieldError messages={errors.feedbackReason} />
      </div>
    </div>
  );
}
