import 'server-only';
import type { Db } from '@/lib/db/client';
import { plannedRows } from './total';
import type { Walk } from './where';

/**
 * A combination or a search walks an ordered index (lib/executions/where.ts `walkOf`) when the
 * planner expects its page near the start: the page's n-th match lies about n × (rows walked) ÷
 * (rows matching) down the walk, and that must be at most WALK_DEPTH rows. Fewer than
 * WALK_MIN_MATCHES matches are cheap to gather from the GIN index and sort at any size, so those
 * never walk.
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
const WALK_DEPTH = 4_000;
const WALK_SLACK = 4;
const WALK_MIN_ROWS = 2_000;
const WALK_ROWS = 20_000;

/** How far a walk goes before it gives up. */
export interface WalkPlan {
  /** Rows of the walked value read at most. */
  rows: number;
}

/** The walk for a page of `n` rows, or null when it is not expected to meet them soon enough. */
export async function planWalk(d: Db, walk: Walk, n: number): Promise<WalkPlan | null> {
  const [walked, matching] = await Promise.all([plannedRows(d, walk.value), plannedRows(d, walk.matching)]);
  if (matching < WALK_MIN_MATCHES) return null;
  const depth = (n * walked) / matching;
  if (depth > WALK_DEPTH) return null;
  return { rows: Math.min(WALK_ROWS, Math.max(WALK_MIN_ROWS, Math.ceil(WALK_SLACK * depth))) };
}
