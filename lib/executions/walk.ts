import 'server-only';
import type { Db } from '@/lib/db/client';
import { plannedRows } from './total';
import type { Walk } from './where';

/**
 * A combination or a search walks an ordered index (lib/executions/where.ts `walkOf`) when the
 * planner expects its page near the start: the page's n-th match lies about n × (rows walked) ÷
 * (rows matching) down the walk, and that must be at most WALK_DEPTH rows. Fewer than
 * WALK_MIN_MATCHES matches are cheap to gather from the GIN index and sort at any size, so those
 * never walk. A walk reads at most WALK_ROWS rows before the WHERE's own plan takes over, so a
 * combination whose rows lie further down than expected (the estimate assumes independent values)
 * costs a bounded walk more, not a table's worth.
 */
const WALK_MIN_MATCHES = 1_000;
const WALK_DEPTH = 4_000;
export const WALK_ROWS = 20_000;

/** Whether the walk is expected to meet its page's `n` rows within WALK_DEPTH rows. */
export async function worthWalking(d: Db, walk: Walk, n: number): Promise<boolean> {
  const [walked, matching] = await Promise.all([plannedRows(d, walk.value), plannedRows(d, walk.matching)]);
  return matching >= WALK_MIN_MATCHES && (n * walked) / matching <= WALK_DEPTH;
}
