/** The one date formatter of the app: UTC, so every analyst sees the same time for a record. */
const dateTime = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric',
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZone: 'UTC',
  hour12: false,
});
const dateOnly = new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'short', day: '2-digit', timeZone: 'UTC' });
const number = new Intl.NumberFormat('en-US');

export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return '—';
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? String(value) : `${dateTime.format(d)} UTC`;
}

export function formatDate(value: Date | string | null | undefined): string {
  if (!value) return '—';
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? String(value) : dateOnly.format(d);
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

const compact = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric',
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
  hour12: false,
});

/** "01 Nov 2026, 10:00" (UTC, without seconds): for dense tables whose header says UTC. */
export function formatDateTimeCompact(value: Date | string | null | undefined): string {
  if (!value) return '—';
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? String(value) : compact.format(d);
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
