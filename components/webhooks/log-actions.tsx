'use client';
import { useState, useTransition } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/input';
import type { ActionResult } from '@/lib/auth/guards';
import { replayWebhookDeliveryAction, replayWebhookRangeAction, sendWebhookTestAction } from '@/lib/actions/webhooks';
import { DateInput } from '@/components/ui/date-input';
import { useTimeZone } from '@/components/time/local-time';
import { formatWallTime, parseWallTime } from '@/lib/format';

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

export function ReplayRangeForm({ endpointId }: { endpointId: string }) {
  const [result, setResult] = useState<Result>(null);
  const [pending, start] = useTransition();
  // The range is typed in the reader's zone, as the log's times read, and sent as UTC moments.
  const zone = useTimeZone();
  const [defaults] = useState(() => ({
    from: formatWallTime(new Date(Date.now() - 24 * 3_600_000), zone),
    to: formatWallTime(new Date(Date.now() + 60_000), zone),
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
        // Text in another shape goes as typed: the action refuses it with its message under the field.
        const at = (k: string) => {
          const v = String(data.get(k) ?? '').trim();
          return v ? (parseWallTime(v, zone)?.toISOString() ?? v) : '';
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
          <DateInput
            id="replay-from"
            name="from"
            withTime
            defaultValue={defaults.from}
            hint={zone}
            error={fe.from?.join(' ')}
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="replay-to">to</Label>
          <DateInput
            id="replay-to"
            name="to"
            withTime
            defaultValue={defaults.to}
            hint={zone}
            error={fe.to?.join(' ')}
          />
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
