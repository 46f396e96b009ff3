'use client';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { newIdempotencyKey } from '@/components/feedback/label-fields';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldError, Label } from '@/components/ui/input';
import { reopenCaseAction, resolveCaseAction } from '@/lib/actions/cases';
import { COMMENT_MAX_CHARS, COMMENT_REQUIRED, OUTCOME_LABELS, overrideNeedsComment } from '@/lib/cases/form-rules';
import { CASE_OUTCOMES, type CaseOutcome } from '@/lib/db/case-states';
import type { CaseView, ReasonView } from '@/lib/cases/queries';
import { FeedbackFields, type AlsoFeedback } from './feedback-fields';
import { OutcomeFields } from './outcome-fields';
import { SHORTCUTS } from '@/components/shortcuts/shortcuts';
import { useKey } from './use-key';
import { LimitedTextarea } from '@/components/ui/limited-field';
import { LocalTime } from '@/components/time/local-time';
import { submitWith } from '@/components/ui/submit-with';

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
  decision,
  userId,
}: {
  view: CaseView;
  reasons: ReasonView[];
  feedbackVersion: string;
  /** The service's decision: an outcome against it needs a comment. */
  decision: string | null;
  userId: string;
}) {
  const router = useRouter();
  const [pending, start] = React.useTransition();
  const [outcome, setOutcome] = React.useState<CaseOutcome | ''>('');
  const [feedback, setFeedback] = React.useState<AlsoFeedback>('');
  const [errors, setErrors] = React.useState<Record<string, string[]>>({});
  const [message, setMessage] = React.useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const [key] = React.useState(newIdempotencyKey);
  const first = React.useRef<HTMLInputElement>(null);
  const { resolve, escalate, reopen } = view.controls;
  const works = resolve.allowed || escalate.allowed;
  useKey('caseResolve', view.state !== 'resolved' && works ? () => first.current?.focus() : null);
  // `r` on the list opens the detail at #resolve: the panel takes the focus, as `r` here does.
  React.useEffect(() => {
    if (window.location.hash === '#resolve') first.current?.focus();
  }, []);

  if (view.state === 'resolved')
    return (
      <div className="flex flex-col gap-3 text-sm" data-testid="case-resolution">
        <p>
          <span className="font-medium">{view.outcome ? OUTCOME_LABELS[view.outcome] : 'Resolved'}</span>
          {view.resolvedBy ? ` by ${view.resolvedBy.name}` : ''} · <LocalTime value={view.resolvedAt} />
        </p>
        {view.sealed ? (
          <p className="text-muted-fg" data-testid="case-sealed">
            The outcome, reason and comment are sealed until this case’s QA review is decided.
          </p>
        ) : (
          <p className="text-muted-fg">
            {view.reasonLabel ?? view.reason}
            {view.comment ? ` — ${view.comment}` : ''}
          </p>
        )}
        {reopen.allowed ? <ReopenForm view={view} /> : null}
      </div>
    );

  // The case policy refuses this viewer both outcomes here: say why instead of offering a form it would refuse.
  if (!works)
    return (
      <p className="text-sm text-muted-fg" data-testid="case-resolve-refused">
        {!resolve.allowed ? resolve.reason : null}
      </p>
    );

  const override = overrideNeedsComment(outcome, decision);
  const claimedByOther = view.assignee && view.assignee.id !== userId ? view.assignee : null;
  const needsComment = (outcome !== '' && COMMENT_REQUIRED.includes(outcome)) || Boolean(override);
  return (
    <form
      noValidate
      aria-label="Resolve the case"
      className="flex flex-col gap-3"
      onSubmit={submitWith(
        { caseId: view.id, version: String(view.version), feedbackVersion, idempotencyKey: key },
        (fd) => {
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
        },
      )}
    >
      <OutcomeFields
        idPrefix="resolve"
        legend={
          <>
            Outcome <kbd className="font-mono text-[10px] text-muted-fg">{SHORTCUTS.caseResolve.key}</kbd>
          </>
        }
        outcomes={CASE_OUTCOMES}
        reasons={reasons}
        outcome={outcome}
        onOutcome={setOutcome}
        commentRequired={needsComment}
        errors={errors}
        firstRef={first}
        isDisabled={(o) => !(o === 'escalate' ? escalate : resolve).allowed}
        commentHint={override}
      />
      {!resolve.allowed ? (
        <p className="text-xs text-muted-fg" data-testid="case-resolve-refused">
          {resolve.reason}
        </p>
      ) : null}
      <FeedbackFields idPrefix="resolve" value={feedback} onChange={setFeedback} errors={errors} />
      {claimedByOther ? (
        <div className="flex flex-col gap-1 rounded-md border border-warn/50 bg-warn/5 px-3 py-2 text-sm">
          <p data-testid="claimed-by-other">
            {claimedByOther.name} claimed this case
            {view.claimedAt ? (
              <>
                {' '}
                at <LocalTime value={view.claimedAt} />
              </>
            ) : null}
            .
          </p>
          <label className="flex items-center gap-2">
            <input type="checkbox" name="confirmTakeover" className="accent-[var(--primary)]" />
            Resolve it in {claimedByOther.name}’s place
          </label>
          <FieldError messages={errors.confirmTakeover} />
        </div>
      ) : null}
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
      noValidate
      aria-label="Reopen the case"
      className="flex flex-col gap-1 border-t border-border pt-3"
      onSubmit={submitWith({ caseId: view.id, version: String(view.version) }, (fd) => {
        start(async () => {
          const r = await reopenCaseAction(fd);
          setError(r.ok ? null : r.error);
          if (r.ok) router.refresh();
        });
      })}
    >
      <Label htmlFor="reopen-reason">Reopen with a reason</Label>
      <LimitedTextarea id="reopen-reason" limit={COMMENT_MAX_CHARS} name="reason" required minLength={3} />
      <FieldError messages={error} />
      <Button type="submit" variant="secondary" size="sm" disabled={pending} className="self-start">
        Reopen
      </Button>
    </form>
  );
}
