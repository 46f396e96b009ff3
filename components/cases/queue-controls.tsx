'use client';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { FormField, Input } from '@/components/ui/input';
import {
  archiveQueueAction,
  getRematchProgressAction,
  reorderQueuesAction,
  updateQueueAction,
} from '@/lib/actions/cases';
import type { QueueStats, RematchProgress } from '@/lib/cases/queries';
import { formatNumber } from '@/lib/format';
import { MoveButtons } from './move-buttons';
import { QueueFields } from './queue-fields';
import { submitWith } from '@/components/ui/submit-with';

/** Edit, archive or restore, and move one queue up or down the page. */
export function QueueControls({ queue, order }: { queue: QueueStats; order: string[] }) {
  const router = useRouter();
  const [pending, start] = React.useTransition();
  const [error, setError] = React.useState<string | null>(null);
  const move = (next: string[]) =>
    start(async () => {
      const r = await reorderQueuesAction({ queueIds: next });
      setError(r.ok ? null : r.error);
      router.refresh();
    });
  return (
    <div className="flex items-center justify-end gap-1">
      {!queue.archived ? (
        <>
          <MoveButtons name={queue.name} id={queue.id} order={order} disabled={pending} onMove={move} />
          <EditQueue queue={queue} />
        </>
      ) : null}
      <Button
        size="sm"
        variant="ghost"
        disabled={pending}
        onClick={() =>
          start(async () => {
            const r = await archiveQueueAction({ queueId: queue.id, archived: !queue.archived });
            setError(r.ok ? null : r.error);
            router.refresh();
          })
        }
      >
        {queue.archived ? 'Restore' : 'Archive'}
      </Button>
      {error ? (
        <span role="alert" className="text-xs text-danger">
          {error}
        </span>
      ) : null}
    </div>
  );
}

function EditQueue({ queue }: { queue: QueueStats }) {
  const router = useRouter();
  const [open, setOpen] = React.useState(false);
  const [pending, start] = React.useTransition();
  const [errors, setErrors] = React.useState<Record<string, string[]>>({});
  const [message, setMessage] = React.useState<string | null>(null);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="secondary">
          Edit
        </Button>
      </DialogTrigger>
      <DialogContent title={`Edit ${queue.name}`} description="Saving matches every unresolved execution again.">
        <form
          noValidate
          className="flex flex-col gap-3"
          onSubmit={submitWith({ queueId: queue.id }, (fd) => {
            start(async () => {
              const r = await updateQueueAction(fd);
              if (r.ok) {
                setOpen(false);
                router.refresh();
              } else {
                setErrors(r.fieldErrors ?? {});
                setMessage(r.error);
              }
            });
          })}
        >
          <QueueFields
            ids={{
              name: `q-name-${queue.id}`,
              sla: `q-sla-${queue.id}`,
              priority: `q-priority-${queue.id}`,
              role: `q-role-${queue.id}`,
            }}
            values={queue}
            errors={errors}
          />
          {queue.kind === 'filter' ? (
            <FormField
              id={`q-def-${queue.id}`}
              label="Filters (the executions list's URL query)"
              errors={errors.definition}
              className="gap-1"
            >
              {({ id }) => (
                <Input id={id} name="definition" defaultValue={queue.definition} className="font-mono text-xs" />
              )}
            </FormField>
          ) : null}
          {message ? <Alert tone="error">{message}</Alert> : null}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              Save
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The latest re-match run: its progress while it runs (polled), then what it did. */
export function RematchStatus({ initial }: { initial: RematchProgress | null }) {
  const router = useRouter();
  const [run, setRun] = React.useState(initial);
  const [seen, setSeen] = React.useState(initial);
  if (seen !== initial) {
    setSeen(initial);
    setRun(initial);
  }
  const running = run && (run.state === 'queued' || run.state === 'running');
  React.useEffect(() => {
    if (!running) return;
    const t = setInterval(async () => {
      const r = await getRematchProgressAction({});
      if (!r.ok) return;
      setRun(r.data);
      if (r.data && r.data.state !== 'queued' && r.data.state !== 'running') router.refresh();
    }, 1000);
    return () => clearInterval(t);
  }, [running, router]);
  if (!run || !running) return null;
  const pct = run.total ? Math.min(100, Math.round((run.done / run.total) * 100)) : 0;
  return (
    <div role="status" className="flex items-center gap-3 rounded-md border border-border bg-card px-3 py-2 text-sm">
      <span>Matching executions to the queues again…</span>
      <progress value={run.done} max={run.total ?? undefined} className="h-2 w-48" aria-label="Re-match progress" />
      <span className="tabular-nums text-muted-fg">
        {formatNumber(run.done)}
        {run.total !== null ? ` of ${formatNumber(run.total)} (${pct} %)` : ''}
      </span>
    </div>
  );
}
