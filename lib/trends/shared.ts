/**
 * The trends page's URL state, periods and links: shared by the server (lib/trends/queries.ts),
 * the page and the chart components. Browser-safe (no server imports). Dates are UTC calendar
 * dates (YYYY-MM-DD), as on the executions list.
 */
import { z } from 'zod';
import { listHref, type ListFilters } from './list-links';

export const RANGES = ['7', '30', '90', '365', 'custom'] as const;
export type RangeKey = (typeof RANGES)[number];
export const GRANULARITIES = ['day', 'week', 'month'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** Longest custom range, so a mistyped year cannot ask for decades of daily buckets. */
export const MAX_RANGE_DAYS = 731;

const filterValue = z.string().trim().min(1).max(200).optional().catch(undefined);

/** Forgiving schema for the page's URL: a bad value falls back to its default, never an error. */
export const trendsQuerySchema = z.object({
  range: z.enum(RANGES).catch('30').default('30'),
  from: z.iso.date().optional().catch(undefined),
  to: z.iso.date().optional().catch(undefined),
  granularity: z.enum(GRANULARITIES).optional().catch(undefined),
  definitionKey: filterValue,
  country: filterValue,
  docType: filterValue,
});

export interface TrendsFilters {
  range: RangeKey;
  from: string;
  to: string;
  granularity: Granularity;
  definitionKey?: string;
  country?: string;
  docType?: string;
}

const DAY_MS = 86_400_000;
export const toDate = (s: string) => new Date(`${s}T00:00:00Z`);
export const isoDay = (d: Date) => d.toISOString().slice(0, 10);
export const addDays = (s: string, n: number) => isoDay(new Date(toDate(s).getTime() + n * DAY_MS));
export const daysBetween = (from: string, to: string) =>
  Math.round((toDate(to).getTime() - toDate(from).getTime()) / DAY_MS) + 1;

export function defaultGranularity(days: number): Granularity {
  return days <= 45 ? 'day' : days <= 200 ? 'week' : 'month';
}

/** The URL's query resolved against today (UTC): the range ends today for the preset ranges. */
export function resolveTrendsFilters(
  raw: Record<string, string | string[] | undefined>,
  today = isoDay(new Date()),
): TrendsFilters {
  const q = trendsQuerySchema.parse(
    Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v || undefined])),
  );
  let range: RangeKey = q.range;
  let from: string;
  let to: string;
  if (range === 'custom' && (q.from || q.to)) {
    from = q.from ?? addDays(q.to!, -29);
    to = q.to ?? today;
    if (from > to) [from, to] = [to, from];
    if (daysBetween(from, to) > MAX_RANGE_DAYS) from = addDays(to, -(MAX_RANGE_DAYS - 1));
  } else {
    if (range === 'custom') range = '30';
    to = today;
    from = addDays(today, -(Number(range) - 1));
  }
  return {
    range,
    from,
    to,
    granularity: q.granularity ?? defaultGranularity(daysBetween(from, to)),
    definitionKey: q.definitionKey,
    country: q.country,
    docType: q.docType,
  };
}

/** The page's URL for these filters (what the controls push). */
export function trendsHref(f: Partial<TrendsFilters>): string {
  const p = new URLSearchParams();
  if (f.range) p.set('range', f.range);
  if (f.range === 'custom') {
    if (f.from) p.set('from', f.from);
    if (f.to) p.set('to', f.to);
  }
  if (f.granularity) p.set('granularity', f.granularity);
  if (f.definitionKey) p.set('definitionKey', f.definitionKey);
  if (f.country) p.set('country', f.country);
  if (f.docType) p.set('docType', f.docType);
  const qs = p.toString();
  return qs ? `/trends?${qs}` : '/trends';
}

/** The period of the same length right before the range, for the KPI comparison. */
export function previousPeriod(f: Pick<TrendsFilters, 'from' | 'to'>): { from: string; to: string } {
  const days = daysBetween(f.from, f.to);
  return { from: addDays(f.from, -days), to: addDays(f.from, -1) };
}

export interface Bucket {
  /** Start of the calendar period (Monday for weeks, the 1st for months), as SQL's date_trunc. */
  key: string;
  /** The part of the period inside the range: what a click on it lists. */
  from: string;
  to: string;
  /**
   * The period has not ended (it holds today, UTC): its figures are so far, not a whole period's,
   * and the page says so rather than drawing a fall to zero as if it were real.
   */
  partial?: true;
}

function truncate(day: string, g: Granularity): string {
  if (g === 'day') return day;
  if (g === 'month') return `${day.slice(0, 7)}-01`;
  const dow = toDate(day).getUTCDay(); // ISO weeks start on Monday, as date_trunc('week', …)
  return addDays(day, -((dow + 6) % 7));
}

function periodEnd(key: string, g: Granularity): string {
  if (g === 'day') return key;
  if (g === 'week') return addDays(key, 6);
  const d = toDate(key);
  return isoDay(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)));
}

/** Every period of the range, empty ones included; the one still running at `now` is marked partial. */
export function bucketsOf(f: Pick<TrendsFilters, 'from' | 'to' | 'granularity'>, now = new Date()): Bucket[] {
  const today = isoDay(now);
  const out: Bucket[] = [];
  for (let key = truncate(f.from, f.granularity); key <= f.to; key = addDays(periodEnd(key, f.granularity), 1)) {
    const end = periodEnd(key, f.granularity);
    const b: Bucket = { key, from: key < f.from ? f.from : key, to: end > f.to ? f.to : end };
    if (key <= today && end >= today) b.partial = true;
    out.push(b);
  }
  return out;
}

const monthFmt = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const dayFmt = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', timeZone: 'UTC' });

/** Short axis label of a period. */
export function bucketLabel(b: Bucket, g: Granularity): string {
  const label = g === 'month' ? monthFmt.format(toDate(b.key)) : dayFmt.format(toDate(g === 'week' ? b.key : b.from));
  return b.partial ? `${label} (so far)` : label;
}

/** Long label, for tables, CSV and screen readers. */
export function bucketTitle(b: Bucket, g: Granularity): string {
  const title = g === 'day' ? b.from : `${b.from} to ${b.to}`;
  return b.partial ? `${title} (partial: so far)` : title;
}

/** The executions list filtered to the page's filters, these days, and `extra`. */
export function trendsListHref(
  f: Pick<TrendsFilters, 'definitionKey' | 'country' | 'docType'>,
  days: { from: string; to: string },
  extra: ListFilters = {},
): string {
  return listHref({
    createdFrom: days.from,
    createdTo: days.to,
    definitionKey: f.definitionKey,
    country: f.country,
    docType: f.docType,
    ...extra,
  });
}

/** Known decision types in display order; unknown ones follow, kept as they came. */
export const DECISION_ORDER = ['PASSED', 'WARNING', 'REJECTED', 'NOT_EXECUTED'];

export function sortDecisions(types: Iterable<string>): string[] {
  const rank = (t: string) => (t === '' ? 1000 : DECISION_ORDER.includes(t) ? DECISION_ORDER.indexOf(t) : 100);
  return [...new Set(types)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** List filters for one top-level decision ('' means no decision yet, which the list cannot select). */
export function decisionFilter(decision: string): ListFilters | null {
  return decision === '' ? null : { decision };
}

export interface Kpi {
  executions: number;
  passed: number;
  warning: number;
  rejected: number;
  riskSum: number;
  riskCount: number;
  fraud: number;
}

export interface TrendsData {
  filters: TrendsFilters;
  previous: { from: string; to: string };
  buckets: Bucket[];
  kpis: { current: Kpi; previous: Kpi };
  decisionTypes: string[];
  /** Per bucket (aligned with `buckets`): executions by decision type. */
  decisions: Array<{ total: number; counts: Record<string, number> }>;
  /** -1 to 100, every score present (zeros included), plus scores outside that range if any. */
  riskDistribution: Array<{ score: number; n: number }>;
  /** Per bucket: scores 0..100 only (-1 is "not executed", not a score). */
  riskOverTime: Array<{ n: number; sum: number; p90: number | null }>;
  labels: Array<{ capability: string; decisionType: string; label: string; total: number; series: number[] }>;
  rules: Array<{ ruleId: string; name: string | null; total: number; series: number[] }>;
  countries: Array<{ key: string; total: number; counts: Record<string, number> }>;
  docTypes: Array<{ key: string; total: number; counts: Record<string, number> }>;
  /** Per bucket. */
  fraud: Array<{ total: number; fraud: number; notFraud: number }>;
  fraudReasons: Array<{ reason: string; total: number; series: number[] }>;
  matrix: Array<{ decision: string; feedback: string; n: number }>;
  rulePrecision: Array<{ ruleId: string; name: string | null; matched: number; fraud: number; notFraud: number }>;
  alerts: SpikeAlert[];
  options: { definitionKeys: string[]; countries: string[]; docTypes: string[] };
  asOf: string | null;
}

export interface SpikeAlert {
  day: string;
  kind: 'reject_rate' | 'label';
  capability?: string;
  decisionType?: string;
  label?: string;
  /** Executions that day with the rejection or the label, out of `total`. */
  n: number;
  total: number;
  rate: number;
  /** Mean and standard deviation of the rate over the trailing baseline days. */
  mean: number;
  sd: number;
  baselineDays: number;
}

/** How a spike is defined (shown on the page next to the alerts). */
export const SPIKE_RULE = {
  baselineDays: 28,
  sigmas: 3,
  minSdPoints: 1,
  minExecutions: 20,
  minCount: 5,
  minBaselineDays: 14,
} as const;
