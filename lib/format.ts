/**
 * The one date-time formatter of the app. UTC unless the reader chose a time zone (their
 * preference, shown through components/time/local-time.tsx), and then the zone's name is part of
 * the text, so a time is never read in the wrong zone. What leaves the console (CSV and JSON
 * exports, the PDF report, the API) keeps the UTC default: a file is read by people in any zone.
 */
type Shape = 'full' | 'compact' | 'date';
const SHAPES: Record<Shape, Intl.DateTimeFormatOptions> = {
  full: { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' },
  compact: { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit' },
  date: { year: 'numeric', month: 'short', day: '2-digit' },
};
const formats = new Map<string, Intl.DateTimeFormat>();
function formatIn(shape: Shape, timeZone: string): Intl.DateTimeFormat {
  const key = `${shape} ${timeZone}`;
  let f = formats.get(key);
  if (!f) {
    // The zone's short name ("CET", "GMT+9") on every time of a chosen zone; UTC says so itself.
    const named = shape !== 'date' && timeZone !== 'UTC' ? { timeZoneName: 'short' as const } : {};
    f = new Intl.DateTimeFormat('en-GB', { ...SHAPES[shape], timeZone, hour12: false, ...named });
    formats.set(key, f);
  }
  return f;
}

/** An IANA time-zone name this runtime knows ("Europe/Berlin"); anything else is refused. */
export function isTimeZone(zone: string): boolean {
  try {
    formatIn('full', zone);
    return true;
  } catch {
    return false;
  }
}

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));
// An unknown zone (a preference saved by a newer runtime) reads as UTC, never as an error.
const knownZone = (timeZone: string) => (timeZone !== 'UTC' && isTimeZone(timeZone) ? timeZone : 'UTC');

/** "27 Nov 2026, 09:22:05 UTC", or in a chosen zone "27 Nov 2026, 10:22:05 CET". */
export function formatDateTime(value: Date | string | null | undefined, timeZone = 'UTC'): string {
  if (!value) return '—';
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return String(value);
  const zone = knownZone(timeZone);
  return zone === 'UTC' ? `${formatIn('full', 'UTC').format(d)} UTC` : formatIn('full', zone).format(d);
}

const number = new Intl.NumberFormat('en-US');

/**
 * "27 Nov 2026": the day of a moment in a zone. A calendar date ("1988-04-17", a day of the trends)
 * is not a moment and keeps the UTC default, so it reads as the same day everywhere.
 */
export function formatDate(value: Date | string | null | undefined, timeZone = 'UTC'): string {
  if (!value) return '—';
  const d = toDate(value);
  return Number.isNaN(d.getTime()) ? String(value) : formatIn('date', knownZone(timeZone)).format(d);
}

export function formatNumber(n: number | null | undefined): string {
  return n == null ? '—' : number.format(n);
}

export function formatRelative(value: Date | string | null | undefined, now = Date.now()): string {
  if (!value) return 'never';
  const d = value instanceof Date ? value : new Date(value);
  const s = Math.round((now - d.getTime()) / 1000);
  if (Math.abs(s) < 45) return 'just now';
  const units: [number, string][] = [
    [60, 'minute'],
    [3600, 'hour'],
    [86400, 'day'],
  ];
  let label = `${Math.round(s / 60)} minutes`;
  for (const [sec, name] of units) {
    const v = Math.round(Math.abs(s) / sec);
    if (Math.abs(s) >= sec) label = `${v} ${name}${v === 1 ? '' : 's'}`;
  }
  return s >= 0 ? `${label} ago` : `in ${label}`;
}

/**
 * "01 Nov 2026, 10:00" (without seconds) for dense tables: UTC, whose header says so, or the
 * reader's zone with its name ("01 Nov 2026, 11:00 CET").
 */
export function formatDateTimeCompact(value: Date | string | null | undefined, timeZone = 'UTC'): string {
  if (!value) return '—';
  const d = toDate(value);
  return Number.isNaN(d.getTime()) ? String(value) : formatIn('compact', knownZone(timeZone)).format(d);
}

/** "about 120,000": two significant digits, for estimated totals. */
export function formatApproximate(n: number): string {
  if (n < 100) return `about ${n}`;
  const digits = Math.floor(Math.log10(n)) + 1;
  const unit = 10 ** Math.max(0, digits - 2);
  return `about ${number.format(Math.round(n / unit) * unit)}`;
}

const percent1 = new Intl.NumberFormat('en-US', {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** A ratio (0.123) as a percentage ("12.3%"); "—" when there is nothing to divide. */
export function formatPercent(ratio: number | null | undefined): string {
  return ratio == null || !Number.isFinite(ratio) ? '—' : percent1.format(ratio);
}

/** A length of time in the largest sensible units: "45 s", "12 min", "3 h 20 min", "2 d 4 h". */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/**
 * An id short enough for a list that still tells ids apart: its first 8 and last 4 characters. The
 * first part alone is not enough, because the simulator's ids share it (they encode an index at the end).
 */
export function shortId(id: string): string {
  return id.length > 16 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
}

/** The wall-clock fields of a moment in `timeZone`, to the minute. */
function wallParts(d: Date, timeZone: string) {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    })
      .formatToParts(d)
      .map((x) => [x.type, Number(x.value)]),
  );
  return p as Record<'year' | 'month' | 'day' | 'hour' | 'minute', number>;
}

/** A moment as "2026-03-31 14:05" in `timeZone`: what `parseWallTime` reads back. */
export function formatWallTime(d: Date, timeZone = 'UTC'): string {
  const p = wallParts(d, knownZone(timeZone));
  const two = (n: number) => String(n).padStart(2, '0');
  return `${p.year}-${two(p.month)}-${two(p.day)} ${two(p.hour)}:${two(p.minute)}`;
}

/**
 * "2026-03-31 14:05" read as a wall-clock time in `timeZone` (the reader's, as every time on
 * screen), to the moment it names; null for text in any other shape or a time that does not exist.
 */
export function parseWallTime(raw: string, timeZone = 'UTC'): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})$/.exec(raw.trim());
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  const back = new Date(wall);
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59) return null;
  const zone = knownZone(timeZone);
  // The zone's offset at that moment, found from the wall time and checked once more across a change of offset.
  const offsetAt = (t: number) => {
    const p = wallParts(new Date(t), zone);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - t;
  };
  let t = wall - offsetAt(wall);
  t = wall - offsetAt(t);
  return new Date(t);
}
