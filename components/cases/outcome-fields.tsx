'use client';
import * as React from 'react';
import { FieldError, Label, Select, Textarea } from '@/components/ui/input';
import { COMMENT_MAX_CHARS, OUTCOME_LABELS } from '@/lib/cases/schema';
import type { ReasonView } from '@/lib/data/cases';
import type { CaseOutcome } from '@/lib/cases/states';

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
}) {
  const applicable = reasons.filter((r) => outcome && r.outcomes.includes(outcome));
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
        <Select id={`${idPrefix}-reason`} name="reason" defaultValue="" key={outcome} disabled={!outcome}>
          <option value="">{outcome ? 'Choose…' : 'Choose an outcome first'}</option>
          {applicable.map((r) => (
            <option key={r.code} value={r.code}>
              {r.label}
            </option>
          ))}
        </Select>
        <FieldError messages={errors.reason} />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${idPrefix}-comment`}>Comment{commentRequired ? ' (required)' : ' (optional)'}</Label>
        <Textarea
          id={`${idPrefix}-comment`}
          name="comment"
          maxLength={COMMENT_MAX_CHARS}
          required={commentRequired}
          aria-invalid={Boolean(errors.comment)}
        />
        <FieldError messages={errors.comment} />
      </div>
    </>
  );
}
