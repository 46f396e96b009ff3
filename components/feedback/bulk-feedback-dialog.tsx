'use client';
import { Tags } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { getBatchProgressAction, previewBulkFeedbackAction, submitBulkFeedbackAction } from '@/lib/actions/feedback';
import { labelRingAction } from '@/lib/actions/rings';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import type { ActionResult } from '@/lib/auth/guards';
import type { BatchProgress, BulkPreview } from '@/lib/feedback/queries';
import { BULK_MAX, NOTE_MAX, type FeedbackReason, type FeedbackStatus } from '@/lib/feedback/schema';
import { formatNumber, shortId } from '@/lib/format';
import { BlastRadiusView } from './blast-radius';
import { labelText, ServiceError } from './history';
import { newIdempotencyKey, NoteField, ReasonSelect, StatusRadios } from './label-fields';

type Stage = { kind: 'form' } | { kind: 'progress'; batchId: string; message?: string; created: number };

/**
 * One label for many executions. The confirmation shows how many and the combined blast radius;
 * each execution then gets its own submission, delivered and tracked on its own, with progress
 * shown here until every one has settled.
 */
export function BulkFeedbackDialog({
  executionIds,
  role,
  onDone,
  ringId,
}: {
  executionIds: string[];
  role: 'analyst' | 'manager' | 'admin';
  onDone?(): void;
  /** A whole ring: FRAUD only, and the members are taken from the ring on the server. */
  ringId?: number;
}) {
  const router = useRouter();
  const [open, setOpen] = React.useState(false);
  const [preview, setPreview] = React.useState<ActionResult<BulkPreview> | null>(null);
  const [status, setStatus] = React.useState<FeedbackStatus | ''>(ringId ? 'FRAUD' : '');
  const [reason, setReason] = React.useState('');
  const [note, setNote] = React.useState('');
  const [key, setKey] = React.useState(newIdempotencyKey);
  const [result, setResult] = React.useState<ActionResult<unknown> | null>(null);
  const [stage, setStage] = React.useState<Stage>({ kind: 'form' });
  const [pending, start] = React.useTransition();
  const tooMany = executionIds.length > BULK_MAX;

  function openChange(next: boolean) {
    setOpen(next);
    if (next) {
      setPreview(null);
      setResult(null);
      setStage({ kind: 'form' });
      setKey(newIdempotencyKey());
      if (!tooMany) start(async () => setPreview(await previewBulkFeedbackAction({ executionIds })));
    } else if (stage.kind === 'progress') {
      onDone?.();
      router.refresh();
    }
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!preview?.ok) return;
    const ids = Object.keys(preview.data.versions);
    start(async () => {
      const common = {
        reason: reason || undefined,
        note: note || undefined,
        versions: preview.data.versions,
        idempotencyKey: key,
      };
      const r = ringId
        ? await labelRingAction({ ringId, ...common, reason: common.reason as FeedbackReason })
        : await submitBulkFeedbackAction({ executionIds: ids, status: status as FeedbackStatus, ...common });
      setResult(r);
      if (r.ok) setStage({ kind: 'progress', batchId: r.data.batchId, message: r.message, created: r.data.created });
    });
  }

  const fe = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  const p = preview?.ok ? preview.data : null;
  return (
    <Dialog open={open} onOpenChange={openChange}>
      <DialogTrigger asChild>
        <Button size="sm" variant="secondary" disabled={!executionIds.length}>
          <Tags aria-hidden className="h-4 w-4" /> {ringId ? 'Label ring FRAUD…' : 'Label selected…'}
        </Button>
      </DialogTrigger>
      <DialogContent
        title={
          stage.kind === 'progress'
            ? 'Sending labels'
            : `Label ${formatNumber(executionIds.length)} execution${executionIds.length === 1 ? '' : 's'}`
        }
        description={
          stage.kind === 'progress'
            ? 'Each label is stored and sent on its own; you can close this and follow them in the list.'
            : 'One label for every selected execution. Each is stored, then sent to the service on its own.'
        }
        className="max-h-[90vh] w-[min(94vw,36rem)] overflow-y-auto"
      >
        {stage.kind === 'progress' ? (
          <BatchProgressView batchId={stage.batchId} message={stage.message} created={stage.created} />
        ) : tooMany ? (
          <Alert tone="error">At most {BULK_MAX} executions at once; select fewer.</Alert>
        ) : !preview ? (
          <div className="flex flex-col gap-2" role="status" aria-label="Loading">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-20 w-full" />
            <Skeleton className="h-9 w-full" />
          </div>
        ) : !preview.ok ? (
          <Alert tone="error">{preview.error}</Alert>
        ) : (
          <form noValidate onSubmit={submit} className="flex flex-col gap-3" aria-label="Bulk feedback">
            <p className="text-sm">
              <strong className="tabular-nums">{formatNumber(p!.count)}</strong> execution{p!.count === 1 ? '' : 's'}{' '}
              selected
              {p!.alreadyLabelled ? (
                <>
                  ; <strong className="tabular-nums">{formatNumber(p!.alreadyLabelled)}</strong> already{' '}
                  {p!.alreadyLabelled === 1 ? 'carries a label' : 'carry labels'}, which this replaces
                </>
              ) : null}
              .
              {p!.missing.length ? (
                <span className="text-warn">
                  {' '}
                  {formatNumber(p!.missing.length)} are no longer in the cache and are left out.
                </span>
              ) : null}
              {p!.sealed.length ? (
                <span className="text-warn" data-testid="bulk-sealed">
                  {' '}
                  {formatNumber(p!.sealed.length)} {p!.sealed.length === 1 ? 'has its label' : 'have their labels'}{' '}
                  sealed until a QA review is decided and {p!.sealed.length === 1 ? 'is' : 'are'} left out.
                </span>
              ) : null}
            </p>
            {ringId ? null : (
              <StatusRadios idPrefix="bulk" value={status} onChange={setStatus} errors={fe.status} disabled={pending} />
            )}
            <ReasonSelect
              idPrefix="bulk"
              status={status}
              value={reason}
              onChange={setReason}
              errors={fe.reason}
              disabled={pending}
            />
            <NoteField idPrefix="bulk" value={note} onChange={setNote} errors={fe.note} disabled={pending} />
            <BlastRadiusView blast={p!.blast} emphasis={status === 'FRAUD'} scope="the selected executions" limit={6} />
            {p!.fourEyes && role === 'analyst' && (status === 'FRAUD' || status === 'NOT_FRAUD') ? (
              <p className="text-xs text-warn">
                Four-eyes is on: a manager approves these labels before they are sent.
              </p>
            ) : null}
            {result && !result.ok ? <Alert tone="error">{result.error}</Alert> : null}
            <div className="flex justify-end gap-2">
              <DialogClose asChild>
                <Button variant="secondary">Cancel</Button>
              </DialogClose>
              <Button
                type="submit"
                variant={status === 'FRAUD' ? 'danger' : 'primary'}
                disabled={pending || !status || !p!.count || note.length > NOTE_MAX}
              >
                {pending
                  ? 'Storing…'
                  : status
                    ? `Label ${formatNumber(p!.count)} as ${labelText(status, null)}`
                    : 'Choose a label'}
              </Button>
            </div>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

function BatchProgressView({ batchId, message, created }: { batchId: string; message?: string; created: number }) {
  const [progress, setProgress] = React.useState<BatchProgress | null>(null);
  const [error, setError] = React.useState<string | null>(null);
  const done = progress ? progress.settled >= progress.total : created === 0;
  React.useEffect(() => {
    if (done) return;
    let cancelled = false;
    const t = setTimeout(
      async () => {
        const r = await getBatchProgressAction({ batchId });
        if (cancelled) return;
        if (r.ok) setProgress(r.data);
        else setError(r.error);
      },
      progress ? 1200 : 0,
    );
    return () => {
      cancelled = true;
      clearTimeout(t);
    };
  }, [batchId, progress, done]);

  const total = progress?.total ?? created;
  const by = progress?.byState ?? {};
  const delivered = by.delivered ?? 0;
  const rows: Array<[string, number | undefined, string]> = [
    ['Delivered', by.delivered, 'text-ok'],
    ['Sending', (by.pending ?? 0) + (by.delivering ?? 0) || undefined, 'text-primary'],
    ['Awaiting approval', by.awaiting_approval, 'text-warn'],
    ['Refused', by.failed, 'text-danger'],
    ['Replaced by a newer label', by.superseded, 'text-muted-fg'],
  ];
  return (
    <div className="flex flex-col gap-3">
      {message ? <Alert tone="success">{message}</Alert> : null}
      {total > 0 ? (
        <>
          <div>
            <div className="mb-1 flex justify-between text-xs">
              <span>{done ? 'Settled' : 'In progress…'}</span>
              <span className="tabular-nums">
                {formatNumber(progress?.settled ?? 0)} / {formatNumber(total)}
              </span>
            </div>
            <div
              role="progressbar"
              aria-label="Labels settled"
              aria-valuemin={0}
              aria-valuemax={total}
              aria-valuenow={progress?.settled ?? 0}
              className="h-2 overflow-hidden rounded bg-muted"
            >
              <div
                className="h-full bg-ok transition-all"
                style={{ width: `${total ? Math.round(((progress?.settled ?? 0) / total) * 100) : 0}%` }}
              />
            </div>
          </div>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm" aria-live="polite">
            {rows
              .filter(([, n]) => n)
              .map(([label, n, cls]) => (
                <div key={label} className="flex justify-between gap-2">
                  <dt className="text-muted-fg">{label}</dt>
                  <dd className={`tabular-nums font-medium ${cls}`}>{formatNumber(n)}</dd>
                </div>
              ))}
          </dl>
          {progress?.failures.length ? (
            <div className="text-xs">
              <p className="font-medium">Refused by the service (open one to retry):</p>
              <ul className="mt-1 flex flex-col gap-0.5">
                {progress.failures.map((f) => (
                  <li key={f.submissionId}>
                    <Link className="font-mono text-primary hover:underline" href={`/executions/${f.executionId}`}>
                      {shortId(f.executionId)}
                    </Link>{' '}
                    {f.error ? <ServiceError error={f.error} /> : null}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {done && delivered === total ? <p className="text-sm text-ok">All {formatNumber(total)} delivered.</p> : null}
        </>
      ) : (
        <p className="text-sm text-muted-fg">Nothing new to send.</p>
      )}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="flex justify-end">
        <DialogClose asChild>
          <Button variant={done ? 'primary' : 'secondary'}>{done ? 'Done' : 'Close (they keep going)'}</Button>
        </DialogClose>
      </div>
    </div>
  );
}
