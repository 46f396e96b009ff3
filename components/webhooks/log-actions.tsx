'use client';
import { useState, useTransition } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldError, Input, Label } from '@/components/ui/input';
import type { ActionResult } from '@/lib/auth/guards';
import { replayWebhookDeliveryAction, replayWebhookRangeAction, sendWebhookTestAction } from '@/lib/actions/webhooks';

type Result = ActionResult<unknown> | null;

function Message({ result }: { result: Result }) {
  if (!result) return null;
  return <Alert tone={result.ok ? 'success' : 'error'}>{result.ok ? result.message : result.error}</Alert>;
}

export function SendTestButton({ endpointId, enabled }: { endpointId: string; enabled: boolean }) {
  const [result, setResult] = useState<Result>(null);
  const [pending, start] = useTransition();
  return (
    <div className="flex flex-col gap-2">
      <Button
        className="self-start"
        disabled={pending || !enabled}
        title={enabled ? undefined : 'Enable the endpoint first'}
        onClick={() => start(async () => setResult(await sendWebhookTestAction({ endpointId })))}
      >
        {pending ? 'Sending…' : 'Send a test event'}
      </Button>
      <Message result={result} />
    </div>
  );
}

export function ReplayButton({
  endpointId,
  deliveryId,
  label,
}: {
  endpointId: string;
  deliveryId: number;
  label: string;
}) {
  const [result, setResult] = useState<Result>(null);
  const [pending, start] = useTransition();
  return (
    <div className="flex flex-col items-end gap-1">
      <Button
        size="sm"
        variant="secondary"
        disabled={pending}
        aria-label={`Replay ${label}`}
        onClick={() => start(async () => setResult(await replayWebhookDeliveryAction({ endpointId, deliveryId })))}
      >
        Replay
      </Button>
      {result ? (
        <p role={result.ok ? 'status' : 'alert'} className={result.ok ? 'text-xs text-ok' : 'text-xs text-danger'}>
          {result.ok ? 'Queued' : result.error}
        </p>
      ) : null}
    </div>
  );
}

/** datetime-local wants local time without a zone: the browser's own clock decides both ends. */
const localInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

export function ReplayRangeForm({ endpointId }: { endpointId: string }) {
  const [result, setResult] = useState<Result>(null);
  const [pending, start] = useTransition();
  const [defaults] = useState(() => ({
    from: localInput(new Date(Date.now() - 24 * 3_600_000)),
    to: localInput(new Date(Date.now() + 60_000)),
  }));
  const fe = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  return (
    <form
      noValidate
      aria-label="Replay a time range"
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const at = (k: string) => {
          const v = String(data.get(k) ?? '');
          return v ? new Date(v).toISOString() : '';
        };
        start(async () =>
          setResult(
            await replayWebhookRangeAction({
              endpointId,
              from: at('from'),
              to: at('to'),
              failedOnly: data.get('failedOnly') === 'on',
            }),
          ),
        );
      }}
    >
      <Message result={result} />
      <div className="grid gap-3">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="replay-from">Events from</Label>
          <Input id="replay-from" name="from" type="datetime-local" defaultValue={defaults.from} />
          <FieldError messages={fe.from} />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="replay-to">to</Label>
          <Input id="replay-to" name="to" type="datetime-local" defaultValue={defaults.to} />
          <FieldError messages={fe.to} />
        </div>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="failedOnly" defaultChecked />
        Only those that failed or were not sent (endpoint disabled)
      </label>
      <Button type="submit" variant="secondary" className="self-start" disabled={pending}>
        {pending ? 'Queuing…' : 'Replay range'}
      </Button>
    </form>
  );
}
