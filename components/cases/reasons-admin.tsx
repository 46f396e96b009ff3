'use client';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FieldError, Label } from '@/components/ui/input';
import { TD, TR } from '@/components/ui/table';
import {
  createCaseReasonAction,
  reorderCaseReasonsAction,
  setCaseReasonActiveAction,
  updateCaseReasonAction,
} from '@/lib/actions/cases';
import { OUTCOME_LABELS, REASON_LABEL_MAX } from '@/lib/cases/form-rules';
import { CASE_OUTCOMES, type CaseOutcome } from '@/lib/db/case-states';
import type { AdminReasonView } from '@/lib/cases/queries';
import { formatNumber } from '@/lib/format';
import { MoveButtons } from './move-buttons';
import { LimitedInput, LimitedTextarea } from '@/components/ui/limited-field';

type Errors = Record<string, string[] | undefined>;

/** The outcomes a reason explains: one checkbox each. */
function OutcomeBoxes({
  idPrefix,
  value,
  onChange,
}: {
  idPrefix: string;
  value: CaseOutcome[];
  onChange(v: CaseOutcome[]): void;
}) {
  return (
    <fieldset className="flex flex-wrap gap-3">
      <legend className="sr-only">Outcomes it explains</legend>
      {CASE_OUTCOMES.map((o) => (
        <label key={o} htmlFor={`${idPrefix}-${o}`} className="flex items-center gap-1 text-sm">
          <input
            id={`${idPrefix}-${o}`}
            type="checkbox"
            checked={value.includes(o)}
            onChange={(e) => onChange(e.target.checked ? [...value, o] : value.filter((x) => x !== o))}
          />
          {OUTCOME_LABELS[o]}
        </label>
      ))}
    </fieldset>
  );
}

/** One reason: rename and outcomes (saved together), retire or restore, move up or down. */
export function ReasonRow({ reason, order }: { reason: AdminReasonView; order: string[] }) {
  const router = useRouter();
  const [pending, start] = React.useTransition();
  const [label, setLabel] = React.useState(reason.label);
  const [outcomes, setOutcomes] = React.useState<CaseOutcome[]>(reason.outcomes);
  const [errors, setErrors] = React.useState<Errors>({});
  const [message, setMessage] = React.useState<{ ok: boolean; text: string } | null>(null);
  const changed = label !== reason.label || outcomes.join() !== reason.outcomes.join();
  const done = (r: { ok: boolean; error?: string; message?: string; fieldErrors?: Errors }) => {
    setErrors(r.ok ? {} : (r.fieldErrors ?? {}));
    setMessage(
      r.ok ? (r.message ? { ok: true, text: r.message } : null) : { ok: false, text: r.error ?? 'Not saved.' },
    );
    if (r.ok) router.refresh();
  };
  const move = (next: string[]) => start(async () => done(await reorderCaseReasonsAction({ codes: next })));
  return (
    <TR data-reason={reason.code} className={reason.active ? undefined : 'opacity-70'}>
      <TD className="min-w-64 align-top">
        <Label htmlFor={`reason-${reason.code}`} className="sr-only">
          Label of {reason.label}
        </Label>
        {/* One line that wraps and grows with its text: a one-line input cut the longer labels off. */}
        <LimitedTextarea
          id={`reason-${reason.code}`}
          limit={REASON_LABEL_MAX}
          value={label}
          rows={1}
          onChange={(e) => setLabel(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') e.preventDefault();
          }}
          aria-invalid={Boolean(errors.label)}
          className="min-h-0 resize-none [field-sizing:content]"
        />
        <FieldError messages={errors.label} />
        <p className="mt-1 font-mono text-[11px] text-muted-fg">{reason.code}</p>
      </TD>
      <TD className="align-top">
        <OutcomeBoxes idPrefix={`reason-${reason.code}`} value={outcomes} onChange={setOutcomes} />
        <FieldError messages={errors.outcomes} />
      </TD>
      <TD className="text-right align-top tabular-nums">{formatNumber(reason.uses)}</TD>
      <TD className="align-top">{reason.active ? <Badge tone="ok">In use</Badge> : <Badge>Retired</Badge>}</TD>
      <TD className="align-top">
        <div className="flex items-center justify-end gap-1">
          <MoveButtons name={reason.label} id={reason.code} order={order} disabled={pending} onMove={move} />
          <Button
            size="sm"
            variant="secondary"
            disabled={pending || !changed}
            onClick={() =>
              start(async () => done(await updateCaseReasonAction({ code: reason.code, label, outcomes })))
            }
          >
            Save
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={pending}
            onClick={() =>
              start(async () => done(await setCaseReasonActiveAction({ code: reason.code, active: !reason.active })))
            }
          >
            {reason.active ? 'Retire' : 'Restore'}
          </Button>
        </div>
        {message ? (
          <p
            role={message.ok ? 'status' : 'alert'}
            className={message.ok ? 'text-xs text-muted-fg' : 'text-xs text-danger'}
          >
            {message.text}
          </p>
        ) : null}
      </TD>
    </TR>
  );
}

/** Adds a reason at the end of the list. */
export function AddReasonForm() {
  const router = useRouter();
  const [pending, start] = React.useTransition();
  const [label, setLabel] = React.useState('');
  const [outcomes, setOutcomes] = React.useState<CaseOutcome[]>([]);
  const [errors, setErrors] = React.useState<Errors>({});
  const [message, setMessage] = React.useState<string | null>(null);
  return (
    <form
      noValidate
      aria-label="Add a reason"
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const r = await createCaseReasonAction({ label, outcomes });
          if (r.ok) {
            setLabel('');
            setOutcomes([]);
            setErrors({});
            setMessage(null);
            router.refresh();
          } else {
            setErrors(r.fieldErrors ?? {});
            setMessage(r.error);
          }
        });
      }}
    >
      <div className="flex flex-col gap-1">
        <Label htmlFor="new-reason-label">Label</Label>
        <LimitedInput
          id="new-reason-label"
          limit={REASON_LABEL_MAX}
          value={label}
          required
          onChange={(e) => setLabel(e.target.value)}
          aria-invalid={Boolean(errors.label)}
        />
        <FieldError messages={errors.label} />
      </div>
      <div className="flex flex-col gap-1">
        <span className="text-sm font-medium">Explains</span>
        <OutcomeBoxes idPrefix="new-reason" value={outcomes} onChange={setOutcomes} />
        <FieldError messages={errors.outcomes} />
      </div>
      {message && !errors.label && !errors.outcomes ? <Alert tone="error">{message}</Alert> : null}
      <Button type="submit" disabled={pending} className="self-start">
        {pending ? 'Adding…' : 'Add reason'}
      </Button>
    </form>
  );
}
