import 'server-only';
import { type AnyColumn, and, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { executions } from '@/lib/db/schema';
import { plannedRows } from './total';
import type { Walk } from './where';

/**
 * A combination walks an ordered index, and a search by newest first its rarest token's postings
 * (lib/executions/where.ts `walkOf`), when the planner expects its page near the start: the
 * page's n-th match lies about n × (rows walked) ÷ (rows matching) down the walk, and that must
 * be at most WALK_DEPTH rows. A search with fewer than WALK_MIN_MATCHES matches is cheap to gather
 * from the GIN index and sort at any size (a name's postings are short), so it never walks.
 *
 * A combination's GIN scan is not cheap for few matches: it reads the posting lists of all its
 * values, which grow with the table, while its walk reads about the same rows at any size. So a
 * combination also walks when its expected depth is under 1 / GIN_ROWS_PER_WALKED of its ways'
 * values' rows together, what the GIN scan reads at least. Measured at 10,000,000 (EXPLAIN
 * ANALYZE, warm): VISA + REJECTED + Italy's GIN scan took 22.3 ms for 1,517,777 postings (15 ns
 * each), the walk of VISA's (document type, created) index 1.37 ms for 620 rows (2.2 µs each):
 * a walked row costs about 150 postings. 250 walks only where the walk is expected well ahead, as
 * the depth's estimate assumes the values independent.
 *
 * The estimate assumes the values independent of one another and of the sort; where they are not
 * (a country whose warnings all sit low in the risk range), the page lies further down. So a walk
 * reads at most WALK_SLACK times its expected depth (between WALK_MIN_ROWS and WALK_ROWS) and then
 * gives up to the WHERE's own plan: a wrong guess costs a few times what a right one would, not
 * a fixed 20,000 rows. (Gathering every match from the GIN index and sorting them, as a fallback,
 * was measured at 10,000,000 and was no faster than the planner's own plan: 150 to 380 ms for
 * 8,000 to 27,000 matches whose heap pages were not in memory.)
 */
const WALK_MIN_MATCHES = 1_000;
const GIN_ROWS_PER_WALKED = 250;
const WALK_DEPTH = 4_000;
const WALK_SLACK = 4;
const WALK_MIN_ROWS = 2_000;
const WALK_ROWS = 20_000;

/** How far a walk goes before it gives up. */
export interface WalkPlan {
  /** Rows of the walked value read at most. */
  rows: number;
  /** A search's walk: the token whose postings it reads (its first when not said). */
  token?: string;
  /** A combination's: the index of the way it walks (`Walk.ways`; the first when not said). */
  way?: number;
}

/**
 * The walk for a page of `n` rows, or null when it is not expected to meet them soon enough. A
 * search walks the postings of its rarest token, by the planner's estimate of each.
 */
export async function planWalk(d: Db, walk: Walk, n: number): Promise<WalkPlan | null> {
  const tokens = walk.postings?.tokens ?? [];
  const [matching, ...counts] = await Promise.all([
    plannedRows(d, walk.matching),
    ...(tokens.length
      ? tokens.map((t) => plannedRows(d, sql`${executions.searchTokens} @> array[${t}]::text[]`))
      : walk.ways.map((w) => plannedRows(d, w.value))),
  ]);
  const walked = Math.min(...counts);
  const rarest = counts.indexOf(walked);
  const depth = (n * walked) / Math.max(1, matching);
  const worth = matching >= WALK_MIN_MATCHES && depth <= WALK_DEPTH;
  const cheaperThanGin = !tokens.length && depth <= counts.reduce((a, b) => a + b, 0) / GIN_ROWS_PER_WALKED;
  if (!worth && !cheaperThanGin) return null;
  const rows = Math.min(WALK_ROWS, Math.max(WALK_MIN_ROWS, Math.ceil(WALK_SLACK * depth)));
  return tokens.length ? { rows, token: tokens[rarest] } : { rows, way: rarest };
}

/** The page's part a walk reads (lib/executions/list.ts `readRange`): its conditions and order. */
export interface WalkPage {
  /** The whole WHERE and the part's range: what a walked row must pass. */
  test: SQL | undefined;
  /** The part's range on executions' own columns (its cursor, empty values or not). */
  range: SQL[];
  /** The part's ORDER BY, and its direction alone ("desc nulls last" or "asc nulls first"). */
  order: SQL;
  direction: SQL;
  /** The part's cursor condition on another source's sort value and id. */
  after: (value: SQL | AnyColumn, id: SQL | AnyColumn) => SQL[];
}

/**
 * The ids of the page's first `n` rows as the walk finds them, for `executions.id in (...)`. Only
 * ids leave the subquery, so the page then reads n rows by their key.
 */
export function walkedIds(walk: Walk, plan: WalkPlan, n: number, page: WalkPage): SQL {
  if (!walk.postings) {
    const way = walk.ways[plan.way ?? 0];
    return sql`${executions.id} in (select id from (select ${executions.id}, (${page.test}) as ok from ${executions} where ${and(...way.along, ...page.range)} order by ${page.order} limit ${plan.rows}) w where w.ok limit ${n})`;
  }
  // A search (by created only): the token's postings in display order, and the rows found by a
  // reference's start but not by that token, merged in the same order; each is tested against
  // the whole WHERE on its own row, by key, until n pass.
  const ps = walk.postings;
  const token = plan.token ?? ps.tokens[0];
  const at = sql.raw('sp.created_at');
  const created = (value: SQL | AnyColumn) => [
    ...(ps.from ? [sql`${value} >= ${ps.from.toISOString()}::timestamptz`] : []),
    ...(ps.before ? [sql`${value} < ${ps.before.toISOString()}::timestamptz`] : []),
  ];
  const own = sql`select sp.execution_id as id, sp.created_at as at from execution_search_postings sp where ${and(sql`sp.token = ${token}`, ...created(at), ...page.after(at, sql.raw('sp.execution_id')))}`;
  const byRef = ps.ref
    ? sql` union all select ${executions.id}, ${executions.createdAt} from ${executions} where ${and(ps.ref, sql`not (${executions.searchTokens} @> array[${token}]::text[])`, ...created(executions.createdAt), ...page.range)}`
    : sql``;
  return sql`${executions.id} in (select id from (select u.id, (select ${page.test} from ${executions} where ${executions.id} = u.id) as ok from (${own}${byRef}) u order by u.at ${page.direction}, u.id ${page.direction} limit ${plan.rows}) w where w.ok limit ${n})`;
}

/**
 * The ids of the page's first `n` rows when the sort's index holds everything `test` reads
 * (lib/executions/where.ts `coveredBySortIndex`): an index-only scan, in whichever order the
 * planner finds cheaper (down the sort's index, or a created range's rows sorted), whose ids then
 * read n rows by key.
 */
export const sortIndexIds = (test: SQL | undefined, order: SQL, n: number): SQL =>
  sql`${executions.id} in (select ${executions.id} from ${executions} where ${test} order by ${order} limit ${n})`;
