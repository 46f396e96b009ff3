'use client';
import * as React from 'react';
import { FieldError, Label, Select } from '@/components/ui/input';
import { COMMENT_MAX_CHARS, OUTCOME_LABELS } from '@/lib/cases/form-rules';
import type { ReasonView } from '@/lib/cases/queries';
import type { CaseOutcome } from '@/lib/db/case-states';
import { LimitedTextarea } from '@/components/ui/limited-field';

/**
 * An outcome, a reason that fits it and a comment: the fields of resolving a case, of a QA review
 * and of settling one (each passes the outcomes it allows).
 */
export function OutcomeFields<O extends CaseOutcome>({
  idPrefix,
  legend,
  outcomes,
  reasons,
  outcome,
  onOutcome,
  commentRequired,
  errors,
  firstRef,
  isDisabled,
  commentHint,
}: {
  idPrefix: string;
  legend: React.ReactNode;
  outcomes: readonly O[];
  reasons: ReasonView[];
  outcome: O | '';
  onOutcome: (o: O) => void;
  commentRequired: boolean;
  errors: Record<string, string[]>;
  firstRef?: React.Ref<HTMLInputElement>;
  isDisabled?: (o: O) => boolean;
  /** Why the comment is required, shown under it (an outcome against the service's decision). */
  commentHint?: string | null;
}) {
  const applicable = reasons.filter((r) => outcome && r.outcomes.includes(outcome));
  // The chosen reason's whole label, for browsers whose closed select cuts a sentence short (see
  // `.select-wrap-echo` in app/globals.css: hidden where the select itself wraps). Kept per outcome,
  // as the select starts again when the outcome changes.
  const [chosen, setChosen] = React.useState<{ outcome: string; label: string } | null>(null);
  const echo = chosen && chosen.outcome === outcome ? chosen.label : '';
  return (
    <>
      <fieldset>
        <legend className="mb-1 text-sm font-medium">{legend}</legend>
        <div className="flex flex-wrap gap-2">
          {outcomes.map((o, i) => (
            <label key={o} className="flex items-center gap-1.5 rounded-md border border-border px-2 py-1 text-sm">
              <input
                ref={i === 0 ? firstRef : undefined}
                type="radio"
                name="outcome"
                value={o}
                checked={outcome === o}
                onChange={() => onOutcome(o)}
                className="accent-[var(--primary)]"
                disabled={isDisabled?.(o)}
              />
              {OUTCOME_LABELS[o]}
            </label>
          ))}
        </div>
        <FieldError messages={errors.outcome} />
      </fieldset>
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${idPrefix}-reason`}>Reason</Label>
        <Select
          id={`${idPrefix}-reason`}
          name="reason"
          defaultValue=""
          key={outcome}
          disabled={!outcome}
          // A reason is a sentence of up to 80 characters: it wraps rather than being cut in the narrow panel.
          className="select-wrap"
          onChange={(e) => {
            const option = e.currentTarget.selectedOptions[0];
            setChosen({ outcome, label: option?.value ? option.text : '' });
          }}
        >
          <option value="">{outcome ? 'Choose…' : 'Choose an outcome first'}</option>
          {applicable.map((r) => (
            <option key={r.code} value={r.code}>
              {r.label}
            </option>
          ))}
        </Select>
        {echo ? (
          <p className="select-wrap-echo text-xs text-muted-fg" aria-hidden>
            {echo}
          </p>
        ) : null}
        <FieldError messages={errors.reason} />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${idPrefix}-comment`}>Comment{commentRequired ? ' (required)' : ' (optional)'}</Label>
        <LimitedTextarea
          id={`${idPrefix}-comment`}
          limit={COMMENT_MAX_CHARS}
          name="comment"
          aria-required={commentRequired}
          aria-invalid={Boolean(errors.comment)}
          aria-describedby={commentHint ? `${idPrefix}-comment-hint` : undefined}
        />
        {commentHint ? (
          <p id={`${idPrefix}-comment-hint`} className="text-xs text-warn" data-testid="override-hint">
            {commentHint}
          </p>
        ) : null}
        <FieldError messages={errors.comment} />
      </div>
    </>
  );
}
