/**
 * The state of the executions list, as it lives in the URL, defined once: `LIST_PARAMS` below
 * is the one table of parameters, and the type (`ListParams`), the forgiving parse, the
 * serialization, the count of active filters, every filter's chip and "Clear all filters" are
 * all derived from it. Adding a parameter is adding one entry. Browser-safe and dependency-free
 * (the chips run in the browser; the parse runs on the server).
 *
 * The parse is forgiving: every parameter is checked on its own and a bad one falls back to its
 * default (no filter), so a mangled or outdated link still opens a list.
 *
 * No personal data ever goes into these parameters: a free-text search travels as a server-side
 * token (`st`), and only an execution or account id (a UUID) may appear as `q`.
 */

import { countryLabel, resolveCountry } from '@/lib/countries';
import { isIsoDay } from '@/lib/utils';

/** `due`: the case's due time (the SLA left, earliest first ascending); executions without an unresolved case last. */
export const SORT_KEYS = ['created', 'completed', 'risk', 'due'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export const SORT_LABELS: Record<SortKey, string> = {
  created: 'Created',
  completed: 'Completed',
  risk: 'Risk score',
  due: 'Due',
};

/**
 * A case view: the list narrowed to case work (an assignee, "My cases", or queues). Its column set
 * leads with the case, its queue, the due time and the assignee, so they fit without a scroll.
 */
export function isCaseView(p: Pick<ListParams, 'assignee' | 'queue'>): boolean {
  return Boolean(p.assignee) || p.queue.length > 0;
}

export const PAGE_SIZES = [25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/**
 * Feedback filter values: none given (no feedback, or the service's NA), FRAUD, NOT_FRAUD, or a
 * local delivery state (pending = not yet delivered: sending, refused or awaiting approval).
 */
export const FEEDBACK_FILTERS = ['none', 'FRAUD', 'NOT_FRAUD', 'pending', 'failed', 'awaiting_approval'] as const;
export type FeedbackFilter = (typeof FEEDBACK_FILTERS)[number];
export const FEEDBACK_FILTER_LABELS: Record<FeedbackFilter, string> = {
  none: 'No feedback',
  FRAUD: 'Fraud',
  NOT_FRAUD: 'Not fraud',
  pending: 'Not yet delivered',
  failed: 'Refused by the service',
  awaiting_approval: 'Awaiting approval',
};

/** Case work filters (lib/cases): the case's state ("none" = no case), its assignee and due time. */
export const CASE_STATE_FILTERS = ['none', 'open', 'in_review', 'resolved'] as const;
export type CaseStateFilter = (typeof CASE_STATE_FILTERS)[number];
export const CASE_STATE_LABELS: Record<CaseStateFilter, string> = {
  none: 'No case',
  open: 'Open',
  in_review: 'In review',
  resolved: 'Resolved',
};
/** Resolution outcomes a list can be filtered by (escalated cases are open in an escalation queue). */
export const OUTCOME_FILTERS = ['approve', 'decline'] as const;
export const DUE_FILTERS = ['overdue', 'today'] as const;
export type DueFilter = (typeof DUE_FILTERS)[number];
export const DUE_FILTER_LABELS: Record<DueFilter, string> = { overdue: 'Overdue', today: 'Due within 24 hours' };
/** Outcomes against the service's decision when they were given (the queues page's figures). */
export const AGAINST_FILTERS = ['approved_rejected', 'declined_passed'] as const;
export type AgainstFilter = (typeof AGAINST_FILTERS)[number];
export const AGAINST_FILTER_LABELS: Record<AgainstFilter, string> = {
  approved_rejected: 'Approved a REJECTED',
  declined_passed: 'Declined a PASSED',
};
/** Resolved within a recent window (the queues page's throughput per day is over 7 days). */
export const RESOLVED_WITHIN_FILTERS = ['7d'] as const;

/**
 * Display names a chip may need (a queue's or a person's name for an id), given by the page;
 * without one the chip shows the start of the id.
 */
export type ChipNames = Record<string, string | undefined>;

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---------------------------------------------------------------------------------------------
// Readers of one raw value: the value, or undefined when it is not acceptable.
// ---------------------------------------------------------------------------------------------

type Read<T> = (raw: string) => T | undefined;
const matching =
  (re: RegExp, max: number): Read<string> =>
  (raw) => {
    const s = raw.trim();
    return s.length >= 1 && s.length <= max && re.test(s) ? s : undefined;
  };
const upper =
  (read: Read<string>): Read<string> =>
  (raw) =>
    read(raw)?.toUpperCase();
const lower =
  (read: Read<string>): Read<string> =>
  (raw) =>
    read(raw)?.toLowerCase();
const oneOf =
  <T extends string>(values: readonly T[]): Read<T> =>
  (raw) =>
    (values as readonly string[]).includes(raw) ? (raw as T) : undefined;

/** A value from the service (status, decision type, key...): kept as text, unknown ones included. */
const token = matching(/^[\w.:\-/ ]+$/, 80);
const text = (max: number) => matching(/^[\s\S]+$/, max);
const uuid = lower(matching(UUID_RE, 36));
const isoDay: Read<string> = (raw) => (isIsoDay(raw) ? raw : undefined);
const risk: Read<number> = (raw) => {
  if (!/^-?\d{1,3}$/.test(raw.trim())) return undefined;
  const n = Number(raw);
  return n >= -1 && n <= 100 ? n : undefined;
};
/** A country as typed ("Germany", "de", "DEU"), as the alpha-3 code the service reports. */
const country: Read<string> = (raw) => (raw.length <= 80 ? resolveCountry(raw) : undefined);
const cursor = matching(/^[^~]*~[0-9a-f-]{36}$/i, 120);
const capTag = matching(/^[A-Za-z0-9_]+:(label:)?[\w\-.]+$/, 120);
const pageSize: Read<PageSize> = (raw) =>
  (PAGE_SIZES as readonly number[]).find((s) => String(s) === raw) as PageSize | undefined;

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

/**
 * What a parameter does: `filter` selects rows (counted in "Filters (N)", shown as a chip,
 * cleared by "Clear all filters"); `search` comes from the search box (`q` is shown as a chip);
 * `view` is sort and page size; `cursor` is the keyset position.
 */
type Role = 'filter' | 'search' | 'view' | 'cursor';

interface Param<T, Many extends boolean, Default> {
  many: Many;
  read: Read<T>;
  role: Role;
  /** Values kept of a repeated parameter. */
  max?: number;
  /** A view parameter's value when absent; left out of URLs. */
  default?: Default;
  /** The chip of one value, for filters and searches. */
  chip?: (value: T, names?: ChipNames) => string;
  /** A case-work filter: about the review of an execution, so never part of a queue's definition. */
  caseWork?: true;
  /** The start of a range: one chip (and one filter in the count) for it and its `end`. */
  range?: { end: string; chip: (from: T | undefined, to: T | undefined) => string };
  /** The end of a range: shown and counted with its start. */
  rangeEnd?: true;
}

const many = <T>(read: Read<T>, chip: (v: T, names?: ChipNames) => string, max = 10): Param<T, true, never> => ({
  many: true,
  read,
  role: 'filter',
  max,
  chip,
});
const one = <T>(
  read: Read<T>,
  chip: (v: T, names?: ChipNames) => string,
  role: Role = 'filter',
): Param<T, false, undefined> => ({
  many: false,
  read,
  role,
  chip,
});
const view = <T>(read: Read<T>, value: T): Param<T, false, T> => ({ many: false, read, role: 'view', default: value });
const position = (): Param<string, false, undefined> => ({ many: false, read: cursor, role: 'cursor' });
const rangeStart = <T>(
  read: Read<T>,
  end: string,
  chip: (from: T | undefined, to: T | undefined) => string,
): Param<T, false, undefined> => ({
  many: false,
  read,
  role: 'filter',
  range: { end, chip },
});
const rangeEnd = <T>(read: Read<T>): Param<T, false, undefined> => ({
  many: false,
  read,
  role: 'filter',
  rangeEnd: true,
});

const caseWork = <P>(p: P): P & { caseWork: true } => ({ ...p, caseWork: true });
/** An assignee: `me` (the viewer), `none` (unassigned) or a user id. */
const assignee: Read<string> = (raw) => (raw === 'me' || raw === 'none' ? raw : uuid(raw));
const named = (v: string, names?: ChipNames) => names?.[v] ?? `${v.slice(0, 8)}…`;

const capChip = (v: string) => {
  const [cap, a, b] = v.split(':');
  return `${cap}: ${a === 'label' ? `label ${b}` : a}`;
};

/** Every parameter of the list's URL, in URL order. */
export const LIST_PARAMS = {
  decision: many(upper(token), (v) => `Decision: ${v}`),
  status: many(upper(token), (v) => `Status: ${v}`),
  riskMin: rangeStart(risk, 'riskMax', (a, b) => `Risk ${a ?? -1}–${b ?? 100}`),
  riskMax: rangeEnd(risk),
  createdFrom: rangeStart(isoDay, 'createdTo', (a, b) => `Created ${a ?? '…'} – ${b ?? '…'}`),
  createdTo: rangeEnd(isoDay),
  completedFrom: rangeStart(isoDay, 'completedTo', (a, b) => `Completed ${a ?? '…'} – ${b ?? '…'}`),
  completedTo: rangeEnd(isoDay),
  definition: one(token, (v) => `Workflow: ${v}`),
  /** Capability tags: `liveness:REJECTED` or `liveness:label:DIGITAL_COPY` (all must match). */
  cap: many(capTag, capChip, 5),
  /** An issuing country: a code or a name in the URL, kept as the service's alpha-3 code. */
  country: one(country, (v) => `Country: ${countryLabel(v)}`),
  docType: one(upper(token), (v) => `Document: ${v}`),
  feedback: many(oneOf(FEEDBACK_FILTERS), (v) => `Feedback: ${FEEDBACK_FILTER_LABELS[v]}`),
  criteria: one(text(255), (v) => `Criteria: ${v}`),
  /** The service's feedback reason (trends link to it). */
  feedbackReason: one(upper(token), (v) => `Fraud reason: ${v}`),
  /** A rule id that matched (trends link to it). */
  rule: one(text(200), (v) => `Matched rule: ${v}`),
  account: one(uuid, (v) => `Account ${v.slice(0, 8)}…`),
  caseState: caseWork(many(oneOf(CASE_STATE_FILTERS), (v) => `Case: ${CASE_STATE_LABELS[v]}`)),
  queue: caseWork(many(uuid, (v, names) => `Queue: ${named(v, names)}`)),
  assignee: caseWork(
    one(assignee, (v, names) =>
      v === 'me' ? 'Assigned to me' : v === 'none' ? 'Unassigned' : `Assignee: ${named(v, names)}`,
    ),
  ),
  due: caseWork(one(oneOf(DUE_FILTERS), (v) => DUE_FILTER_LABELS[v])),
  outcome: caseWork(many(oneOf(OUTCOME_FILTERS), (v) => (v === 'approve' ? 'Approved' : 'Declined'))),
  resolver: caseWork(one(uuid, (v, names) => `Resolved by ${named(v, names)}`)),
  resolvedWithin: caseWork(one(oneOf(RESOLVED_WITHIN_FILTERS), () => 'Resolved in the last 7 days')),
  escalatedBy: caseWork(one(uuid, (v, names) => `Escalated by ${named(v, names)}`)),
  against: caseWork(one(oneOf(AGAINST_FILTERS), (v) => AGAINST_FILTER_LABELS[v])),
  /** A UUID typed into the search box (execution or account id). */
  q: one(uuid, (v) => `Id ${v.slice(0, 8)}…`, 'search'),
  /** Token of a free-text search stored on the server (shown in the search box, not as a chip). */
  st: { many: false, read: matching(/^[A-Za-z0-9_-]{8,40}$/, 40), role: 'search' } as Param<string, false, undefined>,
  sort: view(oneOf(SORT_KEYS), 'created' as SortKey),
  dir: view(oneOf(['asc', 'desc'] as const), 'desc' as 'asc' | 'desc'),
  size: view(pageSize, 25 as PageSize),
  /** Keyset cursors: rows strictly after / strictly before / from (inclusive) this position. */
  after: position(),
  before: position(),
  at: position(),
};

type Table = typeof LIST_PARAMS;
export type ListParamKey = keyof Table;
/* eslint-disable @typescript-eslint/no-explicit-any -- type-level matching over the table */
type ValueOf<P> = P extends Param<infer T, true, any> ? T[] : P extends Param<infer T, false, any> ? T : never;
/** Repeated parameters and view parameters (which have a default) are always present. */
type RequiredKeys = { [K in ListParamKey]: Table[K] extends Param<any, false, undefined> ? never : K }[ListParamKey];
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The list's state: repeated parameters as arrays, view parameters always set, the rest optional. */
export type ListParams = { [K in RequiredKeys]: ValueOf<Table[K]> } & {
  [K in Exclude<ListParamKey, RequiredKeys>]?: ValueOf<Table[K]>;
};

const KEYS = Object.keys(LIST_PARAMS) as ListParamKey[];
const keysWith = (role: Role) => KEYS.filter((k) => LIST_PARAMS[k].role === role);

/** Parameters that select rows (everything but search, sort, size and position). */
export const FILTER_KEYS = keysWith('filter');

/** The state of a list with nothing chosen. */
export const DEFAULT_LIST_PARAMS: ListParams = Object.fromEntries(
  KEYS.flatMap((k) => {
    const p = LIST_PARAMS[k] as Param<unknown, boolean, unknown>;
    return p.many ? [[k, []]] : p.role === 'view' ? [[k, p.default]] : [];
  }),
) as ListParams;

export type RawSearchParams = Record<string, string | string[] | undefined>;

/** The forgiving reading of a list URL (see the file comment). */
export function parseListParams(raw: RawSearchParams | URLSearchParams): ListParams {
  const values = (k: string): string[] => {
    if (raw instanceof URLSearchParams) return raw.getAll(k);
    const v = raw[k];
    return v === undefined ? [] : Array.isArray(v) ? v : [v];
  };
  const out: Record<string, unknown> = { ...DEFAULT_LIST_PARAMS };
  for (const k of KEYS) {
    const p = LIST_PARAMS[k] as Param<unknown, boolean, unknown>;
    if (p.many) {
      const kept: unknown[] = [];
      for (const v of values(k)) {
        const r = p.read(v);
        if (r !== undefined && !kept.includes(r)) kept.push(r);
        if (kept.length >= (p.max ?? 10)) break;
      }
      out[k] = kept;
    } else {
      const first = values(k)[0];
      const r = first === undefined || first === '' ? undefined : p.read(first);
      if (r !== undefined) out[k] = r;
    }
  }
  const p = out as ListParams;
  // A range typed backwards is meant the other way round.
  if (p.riskMin !== undefined && p.riskMax !== undefined && p.riskMin > p.riskMax)
    [p.riskMin, p.riskMax] = [p.riskMax, p.riskMin];
  return p;
}

/** The URL query of a list state; defaults are left out so URLs stay short. */
export function toSearchParams(p: Partial<ListParams>, opts: { withCursor?: boolean } = {}): URLSearchParams {
  const out = new URLSearchParams();
  for (const k of KEYS) {
    const def = LIST_PARAMS[k] as Param<unknown, boolean, unknown>;
    if (def.role === 'cursor' && opts.withCursor === false) continue;
    const v = p[k] as unknown;
    const list = Array.isArray(v) ? v : [v];
    for (const x of list) {
      if (x === undefined || x === null || x === '' || (def.role === 'view' && x === def.default)) continue;
      out.append(k, String(x));
    }
  }
  return out;
}

export function listHref(p: Partial<ListParams>, opts?: { withCursor?: boolean }): string {
  const qs = toSearchParams(p, opts).toString();
  return qs ? `/executions?${qs}` : '/executions';
}

/** The detail page of an execution, carrying the list's filters and sort so "next" walks the same list. */
export function detailHref(id: string, p: Partial<ListParams>): string {
  const qs = toSearchParams(p, { withCursor: false }).toString();
  return `/executions/${id}${qs ? `?${qs}` : ''}`;
}

const isSet = (v: unknown) => (Array.isArray(v) ? v.length > 0 : v !== undefined && v !== '');

/** How many filters are active (for the "Filters (3)" badge): a range counts once. */
export function activeFilterCount(p: ListParams): number {
  return FILTER_KEYS.filter((k) => {
    const def = LIST_PARAMS[k] as Param<unknown, boolean, unknown>;
    if (def.rangeEnd) return false;
    return isSet(p[k]) || (def.range !== undefined && isSet(p[def.range.end as ListParamKey]));
  }).length;
}

export interface FilterChip {
  key: string;
  label: string;
  /** The change to the list's state that removes this chip's filter. */
  remove: Partial<ListParams>;
}

/** A chip for every value of every active filter (and an id search). */
export function filterChips(p: ListParams, names?: ChipNames): FilterChip[] {
  const out: FilterChip[] = [];
  for (const k of KEYS) {
    const def = LIST_PARAMS[k] as Param<unknown, boolean, unknown>;
    if (def.range) {
      const end = def.range.end as ListParamKey;
      if (isSet(p[k]) || isSet(p[end]))
        out.push({ key: k, label: def.range.chip(p[k], p[end]), remove: { [k]: undefined, [end]: undefined } });
      continue;
    }
    if (!def.chip) continue;
    const v = p[k] as unknown;
    if (Array.isArray(v))
      for (const x of v)
        out.push({ key: `${k}-${String(x)}`, label: def.chip(x, names), remove: { [k]: v.filter((y) => y !== x) } });
    else if (isSet(v)) out.push({ key: k, label: def.chip(v, names), remove: { [k]: undefined } });
  }
  return out;
}

/** The change to the list's state that clears every filter (the search stays). */
export function clearedFilters(): Partial<ListParams> {
  return Object.fromEntries(FILTER_KEYS.map((k) => [k, LIST_PARAMS[k].many ? [] : undefined])) as Partial<ListParams>;
}

/** Filters a queue may be defined by: every list filter except the case-work ones. */
export const QUEUE_DEFINITION_KEYS = FILTER_KEYS.filter((k) => !(LIST_PARAMS[k] as { caseWork?: true }).caseWork);

/** A queue's definition from the list's state: its execution filters as a URL query. */
export function queueDefinitionOf(p: Partial<ListParams>): string {
  const kept = Object.fromEntries(QUEUE_DEFINITION_KEYS.map((k) => [k, p[k]])) as Partial<ListParams>;
  return toSearchParams(kept, { withCursor: false }).toString();
}

/** The list's state that a queue's definition selects (its case-work filters never apply). */
export function parseQueueDefinition(definition: string): ListParams {
  const p = parseListParams(new URLSearchParams(definition));
  return { ...p, ...clearedCaseWork(), q: undefined, st: undefined };
}

function clearedCaseWork(): Partial<ListParams> {
  return Object.fromEntries(
    FILTER_KEYS.filter((k) => !QUEUE_DEFINITION_KEYS.includes(k)).map((k) => [k, LIST_PARAMS[k].many ? [] : undefined]),
  ) as Partial<ListParams>;
}

/** Hard limit of one CSV export of the list: the route stops there and the button says so. */
export const EXPORT_MAX_ROWS = 100_000;
