/**
 * The state of the executions list, as it lives in the URL. Browser-safe and dependency-free:
 * the table's client code builds URLs with it; the server parses them with the forgiving zod
 * schema in lib/data/executions/params.ts (bad values fall back to defaults, never an error).
 *
 * No personal data ever goes into these parameters: a free-text search travels as a server-side
 * token (`st`), and only an execution or account id (a UUID) may appear as `q`.
 */

export const SORT_KEYS = ['created', 'completed', 'risk'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export const SORT_LABELS: Record<SortKey, string> = { created: 'Created', completed: 'Completed', risk: 'Risk score' };

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

export interface ListParams {
  decision: string[];
  status: string[];
  riskMin?: number;
  riskMax?: number;
  createdFrom?: string;
  createdTo?: string;
  completedFrom?: string;
  completedTo?: string;
  definition?: string;
  /** Capability tags: `liveness:REJECTED` or `liveness:label:DIGITAL_COPY` (all must match). */
  cap: string[];
  country?: string;
  docType?: string;
  feedback: FeedbackFilter[];
  criteria?: string;
  /** The service's feedback reason (trends link to it). */
  feedbackReason?: string;
  /** A rule id that matched (trends link to it). */
  rule?: string;
  account?: string;
  /** A UUID typed into the search box (execution or account id). */
  q?: string;
  /** Token of a free-text search stored on the server. */
  st?: string;
  sort: SortKey;
  dir: 'asc' | 'desc';
  size: PageSize;
  /** Keyset cursors: rows strictly after / strictly before / from (inclusive) this position. */
  after?: string;
  before?: string;
  at?: string;
}

export const DEFAULT_LIST_PARAMS: ListParams = {
  decision: [],
  status: [],
  cap: [],
  feedback: [],
  sort: 'created',
  dir: 'desc',
  size: 25,
};

/** Parameters that select rows (everything but sort, size and position). */
export const FILTER_KEYS = [
  'decision',
  'status',
  'riskMin',
  'riskMax',
  'createdFrom',
  'createdTo',
  'completedFrom',
  'completedTo',
  'definition',
  'cap',
  'country',
  'docType',
  'feedback',
  'criteria',
  'feedbackReason',
  'rule',
  'account',
  'q',
  'st',
] as const satisfies ReadonlyArray<keyof ListParams>;

export const CURSOR_KEYS = ['after', 'before', 'at'] as const;

/** The URL query of a list state; defaults are left out so URLs stay short. */
export function toSearchParams(p: Partial<ListParams>, opts: { withCursor?: boolean } = {}): URLSearchParams {
  const out = new URLSearchParams();
  const put = (k: string, v: string | number | undefined) => {
    if (v !== undefined && v !== '') out.append(k, String(v));
  };
  for (const v of p.decision ?? []) put('decision', v);
  for (const v of p.status ?? []) put('status', v);
  put('riskMin', p.riskMin);
  put('riskMax', p.riskMax);
  put('createdFrom', p.createdFrom);
  put('createdTo', p.createdTo);
  put('completedFrom', p.completedFrom);
  put('completedTo', p.completedTo);
  put('definition', p.definition);
  for (const v of p.cap ?? []) put('cap', v);
  put('country', p.country);
  put('docType', p.docType);
  for (const v of p.feedback ?? []) put('feedback', v);
  put('criteria', p.criteria);
  put('feedbackReason', p.feedbackReason);
  put('rule', p.rule);
  put('account', p.account);
  put('q', p.q);
  put('st', p.st);
  if (p.sort && p.sort !== DEFAULT_LIST_PARAMS.sort) put('sort', p.sort);
  if (p.dir && p.dir !== DEFAULT_LIST_PARAMS.dir) put('dir', p.dir);
  if (p.size && p.size !== DEFAULT_LIST_PARAMS.size) put('size', p.size);
  if (opts.withCursor !== false) {
    put('after', p.after);
    put('before', p.before);
    put('at', p.at);
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

/** How many filters are active (for the "Filters (3)" badge). */
export function activeFilterCount(p: ListParams): number {
  let n = 0;
  for (const k of FILTER_KEYS) {
    if (k === 'q' || k === 'st') continue;
    const v = p[k];
    if (Array.isArray(v) ? v.length > 0 : v !== undefined && v !== '') n++;
  }
  return n;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
