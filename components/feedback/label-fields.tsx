'use client';
import * as React from 'react';
import { FieldError, Label, Select } from '@/components/ui/input';
import { LimitedTextarea } from '@/components/ui/limited-field';
import {
  FEEDBACK_REASONS,
  NOTE_MAX,
  REASON_LABELS,
  STATUS_HINTS,
  STATUS_LABELS,
  type FeedbackStatus,
} from '@/lib/feedback/schema';
import { cn } from '@/lib/utils';

/**
 * The fields shared by the single feedback form and the bulk dialog: status (the spec's three),
 * reason (the spec's twelve, required with Fraud) and the internal note.
 */

/** A fresh key per form: a repeated request with it returns the first submission instead of a second one. */
export function newIdempotencyKey(): string {
  // getRandomValues also works on plain-http hosts, where randomUUID is missing.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Fraud first: it is the label this form exists for; NA last. */
const STATUS_ORDER: readonly FeedbackStatus[] = ['FRAUD', 'NOT_FRAUD', 'NA'];

const STATUS_STYLE: Record<FeedbackStatus, string> = {
  FRAUD: 'peer-checked:border-reject peer-checked:bg-reject/10 peer-checked:text-reject',
  NOT_FRAUD: 'peer-checked:border-ok peer-checked:bg-ok/10 peer-checked:text-ok',
  NA: 'peer-checked:border-neutral peer-checked:bg-neutral/10 peer-checked:text-fg',
};

export function StatusRadios({
  idPrefix,
  value,
  onChange,
  errors,
  disabled,
}: {
  idPrefix: string;
  value: FeedbackStatus | '';
  onChange(v: FeedbackStatus): void;
  errors?: string[];
  disabled?: boolean;
}) {
  return (
    <fieldset
      className="flex flex-col gap-1.5"
      aria-describedby={errors?.length ? `${idPrefix}-status-error` : `${idPrefix}-status-hint`}
      disabled={disabled}
    >
      <legend className="mb-1.5 text-sm font-medium">Label</legend>
      <div className="grid grid-cols-3 gap-1.5">
        {STATUS_ORDER.map((s) => (
          <label key={s} className="relative">
            <input
              type="radio"
              name="status"
              value={s}
              checked={value === s}
              onChange={() => onChange(s)}
              className="peer sr-only"
            />
            <span
              className={cn(
                'flex h-9 cursor-pointer items-center justify-center rounded-md border border-border bg-card px-2 text-sm font-medium text-muted-fg transition-colors hover:bg-muted',
                'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-1 peer-focus-visible:outline-ring peer-disabled:cursor-not-allowed peer-disabled:opacity-50',
                STATUS_STYLE[s],
              )}
            >
              {STATUS_LABELS[s]}
            </span>
          </label>
        ))}
      </div>
      <p id={`${idPrefix}-status-hint`} className="min-h-4 text-xs text-muted-fg">
        {value ? STATUS_HINTS[value] : 'Choose Fraud, Not fraud or NA.'}
      </p>
      <FieldError id={`${idPrefix}-status-error`} messages={errors} />
    </fieldset>
  );
}

export function ReasonSelect({
  idPrefix,
  status,
  value,
  onChange,
  errors,
  disabled,
}: {
  idPrefix: string;
  status: FeedbackStatus | '';
  value: string;
  onChange(v: string): void;
  errors?: string[];
  disabled?: boolean;
}) {
  const required = status === 'FRAUD';
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={`${idPrefix}-reason`}>
        Reason{' '}
        {required ? (
          <span className="text-xs font-normal text-danger">(required for Fraud)</span>
        ) : (
          <span className="text-xs font-normal text-muted-fg">(optional)</span>
        )}
      </Label>
      <Select
        id={`${idPrefix}-reason`}
        name="reason"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        required={required}
        disabled={disabled}
        aria-invalid={Boolean(errors?.length)}
        aria-describedby={errors?.length ? `${idPrefix}-reason-error` : undefined}
      >
        <option value="">{required ? 'Choose a reason…' : 'No reason'}</option>
        {FEEDBACK_REASONS.filter((r) => !(required && r === 'NA')).map((r) => (
          <option key={r} value={r}>
            {REASON_LABELS[r]}
          </option>
        ))}
      </Select>
      <FieldError id={`${idPrefix}-reason-error`} messages={errors} />
    </div>
  );
}

export function NoteField({
  idPrefix,
  value,
  onChange,
  errors,
  disabled,
}: {
  idPrefix: string;
  value: string;
  onChange(v: string): void;
  errors?: string[];
  disabled?: boolean;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={`${idPrefix}-note`}>
        Internal note <span className="text-xs font-normal text-muted-fg">(optional)</span>
      </Label>
      <LimitedTextarea
        id={`${idPrefix}-note`}
        limit={NOTE_MAX}
        name="note"
        rows={3}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled}
        aria-invalid={Boolean(errors?.length)}
        aria-describedby={`${idPrefix}-note-hint${errors?.length ? ` ${idPrefix}-note-error` : ''}`}
      />
      <p id={`${idPrefix}-note-hint`} className="text-xs text-muted-fg">
        Stays in Verdict; never sent to the service. No personal data beyond what the case needs.
      </p>
      <FieldError id={`${idPrefix}-note-error`} messages={errors} />
    </div>
  );
}
