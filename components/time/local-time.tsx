'use client';
import * as React from 'react';
import { formatDate, formatDateTime, formatDateTimeCompact, formatRelative } from '@/lib/format';

const TimeZoneContext = React.createContext<string>('UTC');

/** The signed-in user's time zone (their preference, UTC when unset), for every time below it. */
export function TimeZoneProvider({ zone, children }: { zone: string; children: React.ReactNode }) {
  return <TimeZoneContext.Provider value={zone}>{children}</TimeZoneContext.Provider>;
}

/** The reader's zone, for a field that takes a time as they read it. */
export const useTimeZone = () => React.useContext(TimeZoneContext);

/**
 * How a moment reads: `full` with seconds (a record), `compact` without (a dense table), `date`
 * (the day only), `relative` ("3 hours ago", the moment itself in the title).
 */
type Shape = 'full' | 'compact' | 'date' | 'relative';

/**
 * A moment in the reader's time zone, with UTC on hover: the one way the console shows a time, in
 * server and client components alike (the zone comes from TimeZoneProvider in the console's layout,
 * read once per request). The audit log, exports and colleagues in other zones speak UTC, so the
 * exact instant is always one hover away.
 */
export function LocalTime({
  value,
  shape = 'full',
  now,
  className,
}: {
  value: Date | string | null | undefined;
  shape?: Shape;
  /** The moment `relative` counts from (the page's own clock, so a page agrees with itself). */
  now?: number;
  className?: string;
}) {
  const zone = React.useContext(TimeZoneContext);
  if (!value) return <>{shape === 'relative' ? 'never' : '—'}</>;
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return <>{String(value)}</>;
  const utc = formatDateTime(d);
  const text =
    shape === 'compact'
      ? formatDateTimeCompact(d, zone)
      : shape === 'date'
        ? formatDate(d, zone)
        : shape === 'relative'
          ? formatRelative(d, now)
          : formatDateTime(d, zone);
  // A relative time names the moment in the reader's zone too; UTC is always in the title.
  const title = shape === 'relative' && zone !== 'UTC' ? `${formatDateTime(d, zone)} (${utc})` : utc;
  return (
    <time dateTime={d.toISOString()} title={title} className={className} suppressHydrationWarning>
      {text}
    </time>
  );
}

/**
 * A column header over compact times: "Created (UTC)" for a reader in UTC, whose times carry no
 * zone name; in any other zone every time names its zone itself, so the header is the label alone.
 */
export function ZoneHeading({ label }: { label: string }) {
  const zone = React.useContext(TimeZoneContext);
  return <>{zone === 'UTC' ? `${label} (UTC)` : label}</>;
}
