'use client';
import * as React from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldError, Label, Select } from '@/components/ui/input';
import { saveTimeZoneAction } from '@/lib/actions/account';
import { formatDateTime } from '@/lib/format';

const noSubscription = () => () => {};
let zoneList: string[] | null = null;
const browserZones = () => (zoneList ??= Intl.supportedValuesOf('timeZone'));
const noZones = (): string[] => [];
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const noZone = (): string | null => null;

/**
 * The zone times are shown in across the console (UTC stays on hover). The list is the browser's
 * own IANA names; the browser's zone is offered first, since it is the likely choice.
 */
export function TimeZoneForm({ current }: { current: string }) {
  // The browser's own list and zone, read on the client only (the server's runtime may know another list).
  const zones = React.useSyncExternalStore(noSubscription, browserZones, noZones);
  const here = React.useSyncExternalStore(noSubscription, browserZone, noZone);
  const [zone, setZone] = React.useState(current);
  const [errors, setErrors] = React.useState<string[] | undefined>();
  const [message, setMessage] = React.useState<string | null>(null);
  const [pending, start] = React.useTransition();
  const options = [...new Set(['UTC', ...(here ? [here] : []), current, ...zones])];
  return (
    <form
      noValidate
      aria-label="Time zone"
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const r = await saveTimeZoneAction({ timeZone: zone });
          setErrors(r.ok ? undefined : (r.fieldErrors?.timeZone ?? [r.error]));
          setMessage(r.ok ? (r.message ?? 'Saved.') : null);
        });
      }}
    >
      <Label htmlFor="time-zone">Show times in</Label>
      <div className="flex flex-wrap items-center gap-2">
        <Select
          id="time-zone"
          name="timeZone"
          value={zone}
          onChange={(e) => setZone(e.target.value)}
          className="w-72 max-w-full"
          aria-invalid={Boolean(errors)}
        >
          {options.map((z) => (
            <option key={z} value={z}>
              {z === 'UTC' ? 'UTC (the default)' : z === here ? `${z} (this browser)` : z}
            </option>
          ))}
        </Select>
        <Button type="submit" variant="secondary" disabled={pending}>
          Save
        </Button>
      </div>
      {/* The clock moves between the server's render and hydration: the seconds may differ. */}
      <p className="text-xs text-muted-fg" suppressHydrationWarning>
        Now: {formatDateTime(new Date(), zone)}. UTC shows when you hover a time.
      </p>
      <FieldError messages={errors} />
      {message ? (
        <Alert tone="success" role="status">
          {message}
        </Alert>
      ) : null}
    </form>
  );
}
