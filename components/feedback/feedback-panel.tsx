'use client';
import { RotateCw } from 'lucide-react';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { getFeedbackPanelAction, retryFeedbackAction, submitFeedbackAction } from '@/lib/actions/feedback';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import type { ActionResult } from '@/lib/auth/guards';
import type { FeedbackPanelData, SubmissionView } from '@/lib/feedback/queries';
import { NOTE_MAX, type FeedbackStatus } from '@/lib/feedback/schema';
import { BlastRadiusView } from './blast-radius';
import { DeliveryStateBadge } from './delivery-badge';
import { FeedbackHistory, labelText, ServiceError } from './history';
import { newIdempotencyKey, NoteField, ReasonSelect, StatusRadios } from './label-fields';
import { LocalTime } from '@/components/time/local-time';

/**
 * Feedback on the execution detail page: the latest label and its delivery (polled while it is
 * on its way), the form with the blast radius of a Fraud label, retry of a refused delivery, and
 * the full history. Everything is stored first and delivered by the worker; this component only
 * shows where it is.
 */
export function FeedbackPanel({
  initial,
  role,
}: {
  initial: FeedbackPanelData;
  role: 'analyst' | 'manager' | 'admin';
}) {
  const router = useRouter();
  const [data, setData] = React.useState(initial);
  const [status, setStatus] = React.useState<FeedbackStatus | ''>('');
  const [reason, setReason] = React.useState('');
  const [note, setNote] = React.useState('');
  const [key, setKey] = React.useState(newIdempotencyKey);
  const [result, setResult] = React.useState<ActionResult<unknown> | null>(null);
  const [submitting, startSubmit] = React.useTransition();
  const [retrying, startRetry] = React.useTransition();
  const fe = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  const latest = data.latest;
  const approvalNeeded = data.fourEyes && role === 'analyst' && (status === 'FRAUD' || status === 'NOT_FRAUD');

  // Server data (a page refresh) wins over what this component fetched earlier.
  const [seen, setSeen] = React.useState(initial);
  if (seen !== initial) {
    setSeen(initial);
    setData(initial);
  }

  const reload = React.useCallback(async () => {
    const r = await getFeedbackPanelAction({ executionId: data.executionId });
    if (r.ok) setData(r.data);
    return r;
  }, [data.executionId]);

  // While a label is on its way, follow it; once it settles, refresh the page (the service's own record).
  const moving = isMoving(latest);
  const wasMoving = React.useRef(moving);
  React.useEffect(() => {
    if (wasMoving.current && !moving) router.refresh();
    wasMoving.current = moving;
    if (!moving) return;
    const wait = latest?.nextAttemptAt && Date.parse(latest.nextAttemptAt) - Date.now() > 5000 ? 5000 : 1200;
    const t = setTimeout(() => void reload(), wait);
    return () => clearTimeout(t);
  }, [data, moving, latest, reload, router]);

  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData();
    form.set('executionId', data.executionId);
    form.set('status', status);
    form.set('reason', reason);
    form.set('note', note);
    form.set('version', data.version);
    form.set('idempotencyKey', key);
    startSubmit(async () => {
      const r = await submitFeedbackAction(form);
      setResult(r);
      if (!r.ok) return;
      if (r.data.panel) setData(r.data.panel);
      setStatus('');
      setReason('');
      setNote('');
      setKey(newIdempotencyKey());
    });
  }

  function retry(id: string) {
    startRetry(async () => {
      const r = await retryFeedbackAction({ submissionId: id });
      setResult(r.ok ? { ok: true, data: null, message: r.message } : r);
      await reload();
    });
  }

  // Sealed for this viewer by a pending QA review: nothing to show and nothing to send (the
  // review's decision has its own form). The hooks above still run, with nothing moving.
  if (data.sealed)
    return (
      <p className="text-sm text-muted-fg" data-testid="feedback-panel-sealed">
        No feedback can be given until the QA review is decided; the review has its own decision form in the Case
        section.
      </p>
    );

  return (
    <div className="flex flex-col gap-4" data-testid="feedback-panel">
      <CurrentLabel latest={latest} onRetry={retry} retrying={retrying} />

      <form
        noValidate
        onSubmit={submit}
        className="flex flex-col gap-3 border-t border-border pt-3"
        aria-label="Give feedback"
      >
        <h3 className="text-sm font-semibold">{latest ? 'Change the label' : 'Label this execution'}</h3>
        {data.executionStatus !== 'PROCESSED' ? (
          <Alert tone="warn">
            The service accepts feedback only on PROCESSED executions; this one is {data.executionStatus}. It will
            likely be refused.
          </Alert>
        ) : null}
        <StatusRadios idPrefix="fb" value={status} onChange={setStatus} errors={fe.status} disabled={submitting} />
        <ReasonSelect
          idPrefix="fb"
          status={status}
          value={reason}
          onChange={setReason}
          errors={fe.reason}
          disabled={submitting}
        />
        <NoteField idPrefix="fb" value={note} onChange={setNote} errors={fe.note} disabled={submitting} />
        <BlastRadiusView blast={data.blast} emphasis={status === 'FRAUD'} />
        {approvalNeeded ? (
          <p className="text-xs text-warn">Four-eyes is on: a manager approves this label before it is sent.</p>
        ) : null}
        {result && !result.ok && result.code !== 'INVALID' ? (
          <Alert tone="error">
            <p>{result.error}</p>
            {result.code === 'CONFLICT' ? (
              <Button
                size="sm"
                variant="secondary"
                className="mt-2"
                onClick={() => startSubmit(async () => void (await reload()))}
              >
                Show the latest
              </Button>
            ) : null}
          </Alert>
        ) : null}
        {result &&
        !result.ok &&
        result.code === 'INVALID' &&
        (fe.executionId || fe.version || fe.idempotencyKey || fe._) ? (
          <Alert tone="error">{result.error}</Alert>
        ) : null}
        {/* "Stored…" only while it is on its way; the state above says the rest. A duplicate's message stays. */}
        {result?.ok &&
        result.message &&
        (moving ||
          latest?.state === 'awaiting_approval' ||
          (result.data as { duplicate?: boolean } | null)?.duplicate) ? (
          <Alert tone="success">{result.message}</Alert>
        ) : null}
        <Button
          type="submit"
          disabled={submitting || !status || note.length > NOTE_MAX}
          variant={status === 'FRAUD' ? 'danger' : 'primary'}
        >
          {submitting ? 'Storing…' : status ? `Submit ${labelText(status, null)}` : 'Submit feedback'}
        </Button>
      </form>

      <FeedbackHistory history={data.history} />
    </div>
  );
}

function isMoving(s: SubmissionView | null): boolean {
  if (!s) return false;
  if (s.state === 'pending' || s.state === 'delivering') return true;
  // Just delivered: the worker refreshes the execution from the service right after.
  return (
    s.state === 'delivered' &&
    !s.events.some((e) => e.kind === 'refreshed' || e.kind === 'refresh_failed') &&
    Date.now() - Date.parse(s.deliveredAt ?? s.submittedAt) < 30_000
  );
}

function CurrentLabel({
  latest,
  onRetry,
  retrying,
}: {
  latest: SubmissionView | null;
  onRetry(id: string): void;
  retrying: boolean;
}) {
  if (!latest) return <p className="text-sm text-muted-fg">No feedback from Verdict yet.</p>;
  return (
    <div className="flex flex-col gap-2" aria-live="polite" role="status" data-testid="feedback-current">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-medium">{labelText(latest.status, latest.reason)}</span>
        <DeliveryStateBadge state={latest.state} />
      </div>
      <p className="text-xs text-muted-fg">
        Submitted by {latest.submittedByEmail} · <LocalTime value={latest.submittedAt} />
        {latest.decidedByEmail && latest.state !== 'rejected' ? <> · approved by {latest.decidedByEmail}</> : null}
      </p>
      {latest.state === 'delivered' ? (
        <p className="text-xs text-ok">
          Delivered <LocalTime value={latest.deliveredAt} />
          {latest.attempts > 1 ? ` after ${latest.attempts} attempts` : ''}.
        </p>
      ) : null}
      {latest.state === 'awaiting_approval' ? (
        <p className="text-xs text-warn">Waiting for a manager to approve or reject it. Nothing is sent until then.</p>
      ) : null}
      {latest.state === 'rejected' ? (
        <p className="text-xs">
          Rejected by {latest.decidedByEmail} <LocalTime value={latest.decidedAt} shape="relative" />:{' '}
          <q className="italic">{latest.approvalComment}</q>
        </p>
      ) : null}
      {(latest.state === 'pending' || latest.state === 'delivering') && latest.lastError ? (
        <p className="text-xs text-warn">
          Attempt {latest.attempts} did not get through (<ServiceError error={latest.lastError} />)
          {latest.nextAttemptAt ? (
            <>
              ; next try <LocalTime value={latest.nextAttemptAt} shape="relative" />
            </>
          ) : null}
          . It stays stored and is retried until the service takes it.
        </p>
      ) : null}
      {(latest.state === 'pending' || latest.state === 'delivering') && !latest.lastError ? (
        <p className="text-xs text-muted-fg">
          {latest.state === 'delivering'
            ? 'Stored; being sent to the service now…'
            : 'Stored; waiting to be sent to the service…'}
        </p>
      ) : null}
      {latest.state === 'failed' ? (
        <Alert tone="error">
          <p className="font-medium">The service refused this label.</p>
          <p className="mt-1 text-xs">
            {latest.lastError ? <ServiceError error={latest.lastError} /> : 'No detail was given.'}
          </p>
          <Button size="sm" variant="secondary" className="mt-2" disabled={retrying} onClick={() => onRetry(latest.id)}>
            <RotateCw aria-hidden className={retrying ? 'h-3.5 w-3.5 animate-spin' : 'h-3.5 w-3.5'} />{' '}
            {retrying ? 'Retrying…' : 'Retry delivery'}
          </Button>
        </Alert>
      ) : null}
      {latest.note ? (
        <p className="rounded bg-muted px-2 py-1 text-xs">
          <span className="text-muted-fg">Note: </span>
          {latest.note}
        </p>
      ) : null}
    </div>
  );
}
