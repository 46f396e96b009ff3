'use client';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { newIdempotencyKey } from '@/components/feedback/label-fields';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Label, Textarea } from '@/components/ui/input';
import { reopenCaseAction, resolveCaseAction } from '@/lib/actions/cases';
import { COMMENT_MAX_CHARS, COMMENT_REQUIRED, OUTCOME_LABELS, type CaseOutcome } from '@/lib/cases/schema';
import type { CaseView, ReasonView } from '@/lib/data/cases';
import { formatDateTime } from '@/lib/format';
import { FeedbackFields, type AlsoFeedback } from './feedback-fields';
import { OutcomeFields } from './outcome-fields';
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
  const [feedback, setFeedback] = React.useState<AlsoFeedback>('');
  const [errors, setErrors] = React.useState<Record<string, string[]>>({});
  const [message, setMessage] = React.useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const [key] = React.useState(newIdempotencyKey);
  const first = React.useRef<HTMLInputElement>(null);
  useKey('r', view.state !== 'resolved' ? () => first.current?.focus() : null);
  // `r` on the list opens the detail at #resolve: the panel takes the focus, as `r` here does.
  React.useEffect(() => {
    if (window.location.hash === '#resolve') first.current?.focus();
  }, []);

  if (view.state === 'resolved')
    return (
      <div className="flex flex-col gap-3 text-sm" data-testid="case-resolution">
        <p>
          <span className="font-medium">{view.outcome ? OUTCOME_LABELS[view.outcome] : 'Resolved'}</span>
          {view.resolvedBy ? ` by ${view.resolvedBy.name}` : ''} · {formatDateTime(view.resolvedAt)}
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
        {manages ? <ReopenForm view={view} /> : null}
      </div>
    );

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
      <OutcomeFields
        idPrefix="resolve"
        legend={
          <>
            Outcome <kbd className="font-mono text-[10px] text-muted-fg">r</kbd>
          </>
        }
        outcomes={OUTCOMES}
        reasons={reasons}
        outcome={outcome}
        onOutcome={setOutcome}
        commentRequired={needsComment}
        errors={errors}
        firstRef={first}
        isDisabled={(o) => o === 'escalate' && view.queue.kind === 'escalation'}
      />
      <FeedbackFields idPrefix="resolve" value={feedback} onChange={setFeedback} errors={errors} />
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
