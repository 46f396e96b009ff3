'use client';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { newIdempotencyKey } from '@/components/feedback/label-fields';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldError, Label, Select, Textarea } from '@/components/ui/input';
import { reopenCaseAction, resolveCaseAction } from '@/lib/actions/cases';
import { COMMENT_MAX_CHARS, COMMENT_REQUIRED, OUTCOME_LABELS, type CaseOutcome } from '@/lib/cases/schema';
import type { CaseView, ReasonView } from '@/lib/data/cases';
import { FEEDBACK_REASONS, REASON_LABELS } from '@/lib/feedback/schema';
import { formatDateTime } from '@/lib/format';
import { useKey } from './use-key';

const OUTCOMES: CaseOutcome[] = ['approve', 'decline', 'escalate'];

/**
 * Resolving a case (`r` moves here): an outcome, a reason from the short list, a comment
 * (required to decline or escalate) and, in the same step, optional FRAUD / NOT_FRAUD feedback
 * through the feedback pipeline. The form carries the case's version and the feedback's, so a
 * case or label changed since the page opened is refused with nothing written.
 */
export function ResolvePanel({
  view,
  reasons,
  feedbackVersion,
  manages,
}: {
  view: CaseView;
  reasons: ReasonView[];
  feedbackVersion: string;
  manages: boolean;
}) {
  const router = useRouter();
  const [pending, start] = React.useTransition();
  const [outcome, setOutcome] = React.useState<CaseOutcome | ''>('');
  const [feedback, setFeedback] = React.useState<'' | 'FRAUD' | 'NOT_FRAUD'>('');
  const [errors, setErrors] = React.useState<Record<string, string[]>>({});
  const [message, setMessage] = React.useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const [key] = React.useState(newIdempotencyKey);
  const first = React.useRef<HTMLInputElement>(null);
  useKey('r', view.state !== 'resolved' ? () => first.current?.focus() : null);

  if (view.state === 'resolved')
    return (
      <div className="flex flex-col gap-3 text-sm" data-testid="case-resolution">
        <p>
          <span className="font-medium">{view.outcome ? OUTCOME_LABELS[view.outcome] : 'Resolved'}</span>
          {view.resolvedBy ? ` by ${view.resolvedBy.name}` : ''} · {formatDateTime(view.resolvedAt)}
        </p>
        <p className="text-muted-fg">
          {reasons.find((r) => r.code === view.reason)?.label ?? view.reason}
          {view.comment ? ` — ${view.comment}` : ''}
        </p>
        {manages ? <ReopenForm view={view} /> : null}
      </div>
    );

  const applicable = reasons.filter((r) => outcome && r.outcomes.includes(outcome));
  const needsComment = outcome !== '' && COMMENT_REQUIRED.includes(outcome);
  return (
    <form
      aria-label="Resolve the case"
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        const fd = new FormData(e.currentTarget);
        fd.set('caseId', view.id);
        fd.set('version', String(view.version));
        fd.set('feedbackVersion', feedbackVersion);
        fd.set('idempotencyKey', key);
        start(async () => {
          const r = await resolveCaseAction(fd);
          if (r.ok) {
            setErrors({});
            setMessage({ tone: 'success', text: r.message ?? 'Resolved.' });
            router.refresh();
          } else {
            setErrors(r.fieldErrors ?? {});
            setMessage({ tone: 'error', text: r.error });
          }
        });
      }}
    >
      <fieldset>
        <legend className="mb-1 text-sm font-medium">
          Outcome <kbd className="font-mono text-[10px] text-muted-fg">r</kbd>
        </legend>
        <div className="flex flex-wrap gap-2">
          {OUTCOMES.map((o, i) => (
            <label key={o} className="flex items-center gap-1.5 rounded-md border border-border px-2 py-1 text-sm">
              <input
                ref={i === 0 ? first : undefined}
                type="radio"
                name="outcome"
                value={o}
                checked={outcome === o}
                onChange={() => setOutcome(o)}
                className="accent-[var(--primary)]"
                disabled={o === 'escalate' && view.queue.kind === 'escalation'}
              />
              {OUTCOME_LABELS[o]}
            </label>
          ))}
        </div>
        <FieldError messages={errors.outcome} />
      </fieldset>
      <div className="flex flex-col gap-1">
        <Label htmlFor="resolve-reason">Reason</Label>
        <Select id="resolve-reason" name="reason" defaultValue="" key={outcome} disabled={!outcome}>
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
        <Label htmlFor="resolve-comment">Comment{needsComment ? ' (required)' : ' (optional)'}</Label>
        <Textarea
          id="resolve-comment"
          name="comment"
          maxLength={COMMENT_MAX_CHARS}
          required={needsComment}
          aria-invalid={Boolean(errors.comment)}
        />
        <FieldError messages={errors.comment} />
      </div>
      <div className="grid grid-cols-2 gap-2">
        <div className="flex flex-col gap-1">
          <Label htmlFor="resolve-feedback">Also send feedback</Label>
          <Select
            id="resolve-feedback"
            name="feedbackStatus"
            value={feedback}
            onChange={(e) => setFeedback(e.target.value as '' | 'FRAUD' | 'NOT_FRAUD')}
          >
            <option value="">No feedback</option>
            <option value="FRAUD">Fraud</option>
            <option value="NOT_FRAUD">Not fraud</option>
          </Select>
          <FieldError messages={errors.feedbackStatus} />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="resolve-feedback-reason">Service reason</Label>
          <Select id="resolve-feedback-reason" name="feedbackReason" defaultValue="" disabled={!feedback}>
            <option value="">{feedback === 'FRAUD' ? 'Choose…' : 'None'}</option>
            {FEEDBACK_REASONS.filter((r) => r !== 'NA').map((r) => (
              <option key={r} value={r}>
                {REASON_LABELS[r]}
              </option>
            ))}
          </Select>
          <FieldError messages={errors.feedbackReason} />
        </div>
      </div>
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <Button type="submit" disabled={pending || !outcome}>
        {pending ? 'Saving…' : outcome === 'escalate' ? 'Escalate' : 'Resolve'}
      </Button>
    </form>
  );
}

function ReopenForm({ view }: { view: CaseView }) {
  const router = useRouter();
  const [pending, start] = React.useTransition();
  const [error, setError] = React.useState<string | null>(null);
  return (
    <form
      aria-label="Reopen the case"
      className="flex flex-col gap-1 border-t border-border pt-3"
      onSubmit={(e) => {
        e.preventDefault();
        const fd = new FormData(e.currentTarget);
        fd.set('caseId', view.id);
        fd.set('version', String(view.version));
        start(async () => {
          const r = await reopenCaseAction(fd);
          setError(r.ok ? null : r.error);
          if (r.ok) router.refresh();
        });
      }}
    >
      <Label htmlFor="reopen-reason">Reopen with a reason</Label>
      <Textarea id="reopen-reason" name="reason" required minLength={3} maxLength={COMMENT_MAX_CHARS} />
      {error ? (
        <p role="alert" className="text-xs text-danger">
          {error}
        </p>
      ) : null}
      <Button type="submit" variant="secondary" size="sm" disabled={pending} className="self-start">
        Reopen
      </Button>
    </form>
  );
}
