'use client';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { FeedbackFields, type AlsoFeedback } from '@/components/cases/feedback-fields';
import { newIdempotencyKey } from '@/components/feedback/label-fields';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/input';
import { decideQaReviewAction, settleQaReviewAction, takeQaReviewAction } from '@/lib/actions/qa';
import type { ReasonView } from '@/lib/cases/queries';
import type { QaView } from '@/lib/qa/quality';
import { QA_OUTCOMES, type QaOutcome } from '@/lib/db/qa-states';
import { QaStateBadge, VerdictLine } from './qa-verdicts';
import { OutcomeFields } from '@/components/cases/outcome-fields';
import { useActionForm } from './use-action-form';
import { submitWith } from '@/components/ui/submit-with';

/**
 * The QA review of an execution's case, on its detail page. Before the decision the reviewer
 * sees neither the first outcome nor its reason or comment (the server never sends them:
 * lib/qa/quality.ts); after it, both side by side, and a manager who took no part settles a
 * disagreement here.
 */
export function QaPanel({
  view,
  reasons,
  userId,
  manages,
  feedbackVersion,
}: {
  view: QaView;
  reasons: ReasonView[];
  userId: string;
  manages: boolean;
  feedbackVersion: string;
}) {
  const router = useRouter();
  const pending = view.state === 'open' || view.state === 'in_review';
  const mine = view.assignee?.id === userId;
  const overturned = view.state === 'settled' && view.settled?.outcome !== view.first?.outcome;
  const canSettle =
    view.state === 'disputed' && manages && userId !== view.firstAnalyst.id && userId !== view.review?.by?.id;
  return (
    <section
      aria-label="QA review"
      data-testid="qa-panel"
      className="flex flex-col gap-3 rounded-md border border-border p-3"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold">QA review</h3>
        <QaStateBadge state={view.state} overturned={overturned} />
        <span className="text-xs text-muted-fg">sampled from the week of {view.week}</span>
      </div>
      {pending && view.ownCase ? (
        <p className="text-sm text-muted-fg">
          You resolved this case; a colleague re-reviews it without seeing your outcome.
        </p>
      ) : null}
      {pending && !view.ownCase ? (
        <>
          <p className="text-sm text-muted-fg" data-testid="qa-blind">
            Blind re-review: decide from the evidence. The first outcome, its reason and comment
            {view.withheldNotes
              ? `, and ${view.withheldNotes} note${view.withheldNotes === 1 ? '' : 's'} by others,`
              : ''}{' '}
            are shown once you have decided.
          </p>
          {mine ? (
            <DecideForm view={view} reasons={reasons} onDone={() => router.refresh()} />
          ) : view.assignee ? (
            <p className="text-sm">{view.assignee.name} is reviewing it.</p>
          ) : null}
          <TakeButton view={view} mine={mine} manages={manages} onDone={() => router.refresh()} />
        </>
      ) : null}
      {!pending ? (
        <dl className="flex flex-col gap-2">
          {view.first ? (
            <VerdictLine title="First outcome" verdict={view.first} reasons={reasons} testId="qa-first" />
          ) : null}
          {view.review ? (
            <VerdictLine title="QA review" verdict={view.review} reasons={reasons} testId="qa-second" />
          ) : null}
          {view.settled ? (
            <VerdictLine title="Settled" verdict={view.settled} reasons={reasons} testId="qa-settled" />
          ) : null}
        </dl>
      ) : null}
      {view.state === 'disputed' && !canSettle ? (
        <p className="text-sm text-muted-fg">The outcomes differ: a manager who took no part settles it.</p>
      ) : null}
      {canSettle ? (
        <SettleForm view={view} reasons={reasons} feedbackVersion={feedbackVersion} onDone={() => router.refresh()} />
      ) : null}
    </section>
  );
}

function TakeButton({
  view,
  mine,
  manages,
  onDone,
}: {
  view: QaView;
  mine: boolean;
  manages: boolean;
  onDone: () => void;
}) {
  const [busy, start] = React.useTransition();
  const [error, setError] = React.useState<string | null>(null);
  const take = !view.assignee;
  if (!take && !mine && !manages) return null;
  return (
    <div className="flex items-center gap-2">
      <Button
        size="sm"
        variant={take ? 'primary' : 'ghost'}
        disabled={busy}
        onClick={() =>
          start(async () => {
            const r = await takeQaReviewAction({
              reviewId: view.id,
              version: view.version,
              assignee: take ? 'me' : undefined,
            });
            setError(r.ok ? null : r.error);
            onDone();
          })
        }
      >
        {take ? 'Take this QA review' : 'Give back'}
      </Button>
      <FieldError messages={error} />
    </div>
  );
}

function DecideForm({ view, reasons, onDone }: { view: QaView; reasons: ReasonView[]; onDone: () => void }) {
  const [outcome, setOutcome] = React.useState<QaOutcome | ''>('');
  const { pending, errors, message, submit } = useActionForm(decideQaReviewAction, onDone);
  return (
    <form
      aria-label="Decide the QA review"
      className="flex flex-col gap-3"
      onSubmit={submitWith({ reviewId: view.id, version: String(view.version) }, submit)}
    >
      <OutcomeFields
        outcomes={QA_OUTCOMES}
        idPrefix="qa"
        legend="Your outcome"
        reasons={reasons}
        outcome={outcome}
        onOutcome={setOutcome}
        commentRequired={outcome === 'decline'}
        errors={errors}
      />
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <Button type="submit" disabled={pending || !outcome} className="self-start">
        {pending ? 'Saving…' : 'Submit QA review'}
      </Button>
    </form>
  );
}

function SettleForm({
  view,
  reasons,
  feedbackVersion,
  onDone,
}: {
  view: QaView;
  reasons: ReasonView[];
  feedbackVersion: string;
  onDone: () => void;
}) {
  const [outcome, setOutcome] = React.useState<QaOutcome | ''>('');
  const [feedback, setFeedback] = React.useState<AlsoFeedback>('');
  const [key] = React.useState(newIdempotencyKey);
  const { pending, errors, message, submit } = useActionForm(settleQaReviewAction, onDone);
  return (
    <form
      aria-label="Settle the disagreement"
      className="flex flex-col gap-3 border-t border-border pt-3"
      onSubmit={submitWith(
        { reviewId: view.id, version: String(view.version), feedbackVersion, idempotencyKey: key },
        submit,
      )}
    >
      <p className="text-sm">
        The final outcome is the one sent onward: when it changes the case’s outcome, the case takes it and the
        customer’s systems are told again; a label that says the opposite must be corrected here.
      </p>
      <OutcomeFields
        outcomes={QA_OUTCOMES}
        idPrefix="settle"
        legend="Final outcome"
        reasons={reasons}
        outcome={outcome}
        onOutcome={setOutcome}
        commentRequired
        errors={errors}
      />
      <FeedbackFields idPrefix="settle" value={feedback} onChange={setFeedback} errors={errors} />
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <Button type="submit" disabled={pending || !outcome} className="self-start">
        {pending ? 'Saving…' : 'Settle'}
      </Button>
    </form>
  );
}
