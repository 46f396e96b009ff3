import 'server-only';
import { type AnyColumn, and, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { db as defaultDb } from '@/lib/db/client';
import { cases, executions } from '@/lib/db/schema';
import type { ListParams, SortKey } from '@/lib/executions/list-params';
import { maskField } from '@/lib/pii/mask';
import type { ListCase } from './list-cases';
import { COUNT_BUDGET_MS, countList, type ListTotal } from './total';
import { planWalk, sortIndexIds, walkedIds, type WalkPlan } from './walk';
import { coveredBySortIndex, walkOf } from './where';

/**
 * The executions list: filters, sort and keyset pagination in SQL, one page at a time.
 *
 * Keyset, not OFFSET: a page is "the next N rows after this (sort value, id)", which an index in
 * the same order answers in constant time at any depth. Nullable sort columns (completed, risk)
 * keep their empty values last in both directions, so a page is read as two index ranges:
 * rows with a value, then rows without one.
 */

/**
 * The due time of the execution's unresolved case (one case per execution, read through
 * `cases_execution_key`), null without one. Sorting by it orders by the SLA left. It is not an
 * index of executions: it suits case views (My cases, a queue: at most a few thousand rows), and
 * sorting the whole unfiltered list by it costs a sort of every row. Cut to milliseconds, the
 * precision of a cursor (due times are computed with now()'s microseconds), so a page never
 * repeats a row whose due time the cursor could not carry exactly.
 */
const dueOf = sql<Date | null>`(select date_trunc('milliseconds', ${cases.dueAt}) from ${cases} where ${cases.executionId} = ${executions.id} and ${cases.state} <> 'resolved')`;

type Column = typeof executions.createdAt | typeof executions.completedAt | typeof executions.riskScore | SQL;
const SORT_COLUMNS: Record<SortKey, { column: Column; nullable: boolean; kind: 'time' | 'int' }> = {
  created: { column: executions.createdAt, nullable: false, kind: 'time' },
  completed: { column: executions.completedAt, nullable: true, kind: 'time' },
  risk: { column: executions.riskScore, nullable: true, kind: 'int' },
  due: { column: dueOf, nullable: true, kind: 'time' },
};

export const LIST_COLUMNS = {
  id: executions.id,
  accountId: executions.accountId,
  createdAt: executions.createdAt,
  completedAt: executions.completedAt,
  status: executions.status,
  decisionType: executions.decisionType,
  decisionLabel: executions.decisionLabel,
  riskScore: executions.riskScore,
  definitionKey: executions.definitionKey,
  userReference: executions.userReference,
  customerInternalReference: executions.customerInternalReference,
  reportingCriteria: executions.reportingCriteria,
  issuingCountry: executions.issuingCountry,
  documentType: executions.documentType,
  documentNumber: executions.documentNumber,
  firstName: executions.firstName,
  lastName: executions.lastName,
  feedbackStatus: executions.feedbackStatus,
  feedbackReason: executions.feedbackReason,
  feedbackDelivery: executions.feedbackDelivery,
  wipedOutAt: executions.wipedOutAt,
  goneAt: executions.goneAt,
  hasPersonalData: executions.hasPersonalData,
};

export type ListRowRaw = {
  id: string;
  accountId: string;
  createdAt: Date;
  completedAt: Date | null;
  status: string;
  decisionType: string | null;
  decisionLabel: string | null;
  riskScore: number | null;
  definitionKey: string | null;
  userReference: string | null;
  customerInternalReference: string | null;
  reportingCriteria: string | null;
  issuingCountry: string | null;
  documentType: string | null;
  documentNumber: string | null;
  firstName: string | null;
  lastName: string | null;
  feedbackStatus: string | null;
  feedbackReason: string | null;
  feedbackDelivery: string | null;
  wipedOutAt: Date | null;
  goneAt: Date | null;
  hasPersonalData: boolean;
  /** Read only when sorting by due (the cursor's value). */
  dueAt?: Date | null;
};

/** A list row as sent to the browser: dates as ISO strings, personal data masked unless revealed. */
export type ExecutionListRow = Omit<
  ListRowRaw,
  'createdAt' | 'completedAt' | 'wipedOutAt' | 'goneAt' | 'firstName' | 'lastName' | 'dueAt'
> & {
  createdAt: string;
  completedAt: string | null;
  wipedOutAt: string | null;
  goneAt: string | null;
  name: string | null;
  revealed: boolean;
  /** The label is sealed for the viewer by a pending QA review (lib/qa/seal.ts): the feedback fields are blank. */
  sealed: boolean;
  cursor: string;
  /** Verdict's own label while it is not at the service yet (see getUndeliveredLabels). */
  feedbackLabel?: string | null;
  /** The execution's case, if it has one (lib/cases/queries.ts). */
  caseInfo?: ListCase | null;
};

// ---------------------------------------------------------------------------------------------
// Cursors
// ---------------------------------------------------------------------------------------------

export interface Cursor {
  value: Date | number | null;
  id: string;
}

export function encodeCursor(
  sort: SortKey,
  row: Pick<ListRowRaw, 'id' | 'createdAt' | 'completedAt' | 'riskScore' | 'dueAt'>,
): string {
  const v =
    sort === 'created'
      ? row.createdAt
      : sort === 'completed'
        ? row.completedAt
        : sort === 'due'
          ? (row.dueAt ?? null)
          : row.riskScore;
  const s = v === null || v === undefined ? '' : v instanceof Date ? v.toISOString() : String(v);
  return `${s}~${row.id}`;
}

export function decodeCursor(sort: SortKey, raw: string | undefined): Cursor | null {
  if (!raw) return null;
  const i = raw.lastIndexOf('~');
  if (i < 0) return null;
  const v = raw.slice(0, i);
  const id = raw.slice(i + 1).toLowerCase();
  if (!/^[0-9a-f-]{36}$/.test(id)) return null;
  const spec = SORT_COLUMNS[sort];
  if (v === '') return spec.nullable ? { value: null, id } : null;
  if (spec.kind === 'int') {
    const n = Number(v);
    return Number.isInteger(n) ? { value: n, id } : null;
  }
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : { value: d, id };
}

// ---------------------------------------------------------------------------------------------
// Pages
// ---------------------------------------------------------------------------------------------

type Direction = 'asc' | 'desc';

interface Part {
  /** Rows with a value in the sort column, or the rows without one (nullable sorts). */
  kind: 'value' | 'null';
  from: Cursor | null;
  inclusive: boolean;
}

/**
 * Up to `limit` rows in display order (sort, dir; empty values last) strictly after `from`
 * (or from it inclusive), or, with `reverse`, the rows just before `from` read backwards.
 */
async function readRange(
  d: Db,
  where: SQL | undefined,
  sort: SortKey,
  dir: Direction,
  from: Cursor | null,
  opts: { reverse?: boolean; inclusive?: boolean; limit: number; walkAs?: WalkPlan },
): Promise<ListRowRaw[]> {
  const spec = SORT_COLUMNS[sort];
  const col = spec.column;
  // The direction rows are read in: display order, or its reverse for a previous page.
  const readDir: Direction = opts.reverse ? (dir === 'asc' ? 'desc' : 'asc') : dir;
  // The indexes are (column DESC NULLS LAST, id DESC NULLS LAST): ordering must say exactly that,
  // or its backward reading (ASC NULLS FIRST), for Postgres to walk an index instead of sorting.
  // Empty values are read in their own part, so the NULLS clause never changes the result.
  const ord = sql.raw(readDir === 'desc' ? 'desc nulls last' : 'asc nulls first');
  const op = (inclusive: boolean) => sql.raw(readDir === 'desc' ? (inclusive ? '<=' : '<') : inclusive ? '>=' : '>');
  const rowValue = (c: Cursor) =>
    c.value instanceof Date
      ? sql`(${c.value.toISOString()}::timestamptz, ${c.id}::uuid)`
      : sql`(${c.value}::int, ${c.id}::uuid)`;

  // Rows after the part's cursor, by the sort column and id given (the postings' own, for a search walk).
  const after = (part: Part, value: SQL | AnyColumn, id: SQL | AnyColumn): SQL[] =>
    part.from ? [sql`(${value}, ${id}) ${op(part.inclusive)} ${rowValue(part.from)}`] : [];
  const condOf = (part: Part): SQL[] => {
    const out: SQL[] = [];
    if (part.kind === 'null') {
      out.push(sql`${col} is null`);
      if (part.from) out.push(sql`${executions.id} ${op(part.inclusive)} ${part.from.id}::uuid`);
    } else {
      if (spec.nullable) out.push(sql`${col} is not null`);
      out.push(...after(part, col, executions.id));
    }
    return out;
  };
  const orderOf = (part: Part) =>
    part.kind === 'null' ? sql`${executions.id} ${ord}` : sql`${col} ${ord}, ${executions.id} ${ord}`;
  // The due time is not a column of executions: it is read beside the row, for the cursor (as
  // text: the driver's own timestamp decoding did not reach a subquery's value).
  const columns =
    sort === 'due'
      ? {
          ...LIST_COLUMNS,
          dueAt: sql<Date | null>`to_char(${dueOf} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.mapWith(
            (v: string | null) => (v === null ? null : new Date(v)),
          ),
        }
      : LIST_COLUMNS;
  const plain = (part: Part, n: number) =>
    d
      .select(columns)
      .from(executions)
      .where(and(...(where ? [where] : []), ...condOf(part)))
      .orderBy(orderOf(part))
      .limit(n) as Promise<ListRowRaw[]>;
  // A combination or a search first walks in display order for as many rows as its plan allows
  // (lib/executions/walk.ts), testing each against the whole WHERE and stopping at the n-th that
  // passes: those are the page's first n. Fewer, and the WHERE's own plan reads the page.
  const walk = sort === 'due' ? undefined : walkOf(where);
  // The page's rows by their ids, found by a walk or in the sort's index alone (lib/executions/walk.ts).
  const byIds = (ids: SQL, part: Part, n: number) =>
    d
      .select(columns)
      .from(executions)
      .where(and(ids, ...condOf(part)))
      .orderBy(orderOf(part))
      .limit(n) as Promise<ListRowRaw[]>;
  let planned: Promise<WalkPlan | null> | undefined;
  const select = async (part: Part, n: number) => {
    if (coveredBySortIndex(where)) return byIds(sortIndexIds(and(where, ...condOf(part)), orderOf(part), n), part, n);
    const plan =
      walk && part.kind === 'value'
        ? await (planned ??= opts.walkAs ? Promise.resolve(opts.walkAs) : planWalk(d, walk, n))
        : null;
    if (!walk || !plan) return plain(part, n);
    const test = and(where, ...condOf(part));
    const walked = walkedIds(walk, plan, n, {
      test,
      range: condOf(part),
      order: orderOf(part),
      direction: ord,
      after: (value, id) => after(part, value, id),
    });
    const rows = await byIds(and(walked, where)!, part, n);
    return rows.length >= n ? rows : plain(part, n);
  };

  const parts: Part[] = [];
  if (!opts.reverse) {
    // Display order: values, then empties.
    if (!from || from.value !== null) {
      parts.push({ kind: 'value', from, inclusive: Boolean(opts.inclusive) });
      if (spec.nullable) parts.push({ kind: 'null', from: null, inclusive: false });
    } else parts.push({ kind: 'null', from, inclusive: Boolean(opts.inclusive) });
  } else if (from && from.value !== null) {
    // Reverse display order from a value: only values lie before it.
    parts.push({ kind: 'value', from, inclusive: Boolean(opts.inclusive) });
  } else {
    // Reverse display order: empties (backwards), then values (backwards).
    if (spec.nullable) parts.push({ kind: 'null', from, inclusive: Boolean(opts.inclusive) });
    parts.push({ kind: 'value', from: null, inclusive: false });
  }
  const out: ListRowRaw[] = [];
  for (const part of parts) {
    out.push(...(await select(part, opts.limit - out.length)));
    if (out.length >= opts.limit) break;
  }
  return out;
}

export interface ListPage {
  rows: ListRowRaw[];
  /** Cursor for the next page (rows after the last one), or null at the end. */
  next: string | null;
  /** Cursor for the previous page (rows before the first one), or null at the start. */
  prev: string | null;
}

/** One page of the list, per the params' sort and cursor. */
export async function readListPage(
  p: ListParams,
  where: SQL | undefined,
  limit: number = p.size,
  d: Db = defaultDb(),
  /** Tests walk a combination of a few rows, which would not be worth walking (`planWalk`), as told. */
  walkAs?: WalkPlan,
): Promise<ListPage> {
  const before = decodeCursor(p.sort, p.before);
  const after = decodeCursor(p.sort, p.after);
  const at = decodeCursor(p.sort, p.at);
  if (before) {
    const back = await readRange(d, where, p.sort, p.dir, before, { reverse: true, limit: limit + 1, walkAs });
    // Nothing before this position any more (rows were deleted): show the first page.
    if (!back.length) return readListPage({ ...p, before: undefined }, where, limit, d, walkAs);
    const hasMore = back.length > limit;
    const rows = back.slice(0, limit).reverse();
    return {
      rows,
      prev: hasMore ? encodeCursor(p.sort, rows[0]) : null,
      next: encodeCursor(p.sort, rows[rows.length - 1]),
    };
  }
  const from = after ?? at;
  const fwd = await readRange(d, where, p.sort, p.dir, from, {
    inclusive: !after && !!at,
    limit: limit + 1,
    walkAs,
  });
  const hasMore = fwd.length > limit;
  const rows = fwd.slice(0, limit);
  // A page reached through a cursor offers "previous" without checking (a previous page that
  // turns out empty falls back to the first page above): one query less per page.
  return {
    rows,
    next: hasMore ? encodeCursor(p.sort, rows[rows.length - 1]) : null,
    prev: from && rows.length ? encodeCursor(p.sort, rows[0]) : null,
  };
}

/** The rows just after and just before one execution in the list's order: "next" and "previous". */
export async function readNeighbours(
  p: ListParams,
  where: SQL | undefined,
  current: Pick<ListRowRaw, 'id' | 'createdAt' | 'completedAt' | 'riskScore' | 'dueAt'>,
  d: Db = defaultDb(),
) {
  const c = decodeCursor(p.sort, encodeCursor(p.sort, current));
  const [next, prev] = await Promise.all([
    readRange(d, where, p.sort, p.dir, c, { limit: 1 }),
    readRange(d, where, p.sort, p.dir, c, { reverse: true, limit: 1 }),
  ]);
  return { next: next[0]?.id ?? null, prev: prev[0]?.id ?? null };
}

// ---------------------------------------------------------------------------------------------
// Totals
// ---------------------------------------------------------------------------------------------

/**
 * A page and its total, as the list page shows them: the count runs beside the page (its own
 * connection) instead of after it, so the page costs the slower of the two, not their sum. When
 * everything fits on a first page the rows are the exact total and the count is not waited for.
 */
export async function readListWithTotal(
  p: ListParams,
  where: SQL | undefined,
  d: Db = defaultDb(),
  estimateParts: SQL[] = [],
): Promise<{ page: ListPage; total: ListTotal }> {
  const firstPage = !p.after && !p.before && !p.at;
  const counting = countList(where, d, COUNT_BUDGET_MS, estimateParts, [
    ...new Set(walkOf(where)?.ways.flatMap((w) => w.along)),
  ]);
  // Not awaited when the page makes it unnecessary: its failure must not go unhandled.
  counting.catch(() => undefined);
  const page = await readListPage(p, where, p.size, d);
  if (firstPage && !page.next) return { page, total: { exact: true, count: page.rows.length } };
  return { page, total: await counting };
}

// ---------------------------------------------------------------------------------------------
// Rows for the browser
// ---------------------------------------------------------------------------------------------

/**
 * A row as one viewer may see it: masked unless revealed, and without its label while a QA review
 * seals it for them (`sealed`, from sealedExecutionIds in lib/qa/seal.ts). The list and the CSV share it.
 */
export function toListRow(sort: SortKey, r: ListRowRaw, revealed: boolean, sealed: boolean): ExecutionListRow {
  const { firstName, lastName, dueAt: _dueAt, ...rest } = r;
  const name = [firstName, lastName].filter(Boolean).join(' ') || null;
  return {
    ...rest,
    ...(sealed ? { feedbackStatus: null, feedbackReason: null, feedbackDelivery: null, feedbackLabel: null } : {}),
    sealed,
    createdAt: r.createdAt.toISOString(),
    completedAt: r.completedAt?.toISOString() ?? null,
    wipedOutAt: r.wipedOutAt?.toISOString() ?? null,
    goneAt: r.goneAt?.toISOString() ?? null,
    name: revealed
      ? name
      : name && [maskField('firstName', firstName), maskField('lastName', lastName)].filter(Boolean).join(' '),
    documentNumber: revealed ? r.documentNumber : maskField('documentNumber', r.documentNumber),
    revealed,
    cursor: encodeCursor(sort, r),
  };
}
