import 'server-only';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * The one paging rule of the read API's change feeds (cases, executions, feedback states).
 *
 * Every row carries the id of the transaction that last changed it (`xid8`, written by the
 * database: a column default and triggers, migration 0015), and a feed is ordered by
 * (transaction id, row key). A timestamp or a sequence alone would not do: both are taken
 * before the writing transaction commits, so a transaction that commits after a younger one
 * would appear behind a cursor that already passed it, and that reader would never see it.
 *
 * So a feed shows a row only below its horizon: the lowest transaction id still running when the
 * reading statement's snapshot was taken. Below it every transaction has ended, so no row can
 * later appear before a position already handed out, whatever the commit order. Transactions of
 * other databases on the same server never write here and are left out (`pg_stat_activity` names
 * their database), so a long one there does not stall the feeds; one the query cannot place (it
 * ended meanwhile, or the session may not see it) counts as this database's, so the feed may wait
 * for it, never skip it. A long-running writer of this database holds the feeds back until it
 * ends. `pg_stat_activity` shows 32-bit ids, hence the modulo.
 */
export const feedHorizon = sql`(
  select coalesce(
    (select x from pg_snapshot_xip(pg_current_snapshot()) x
     where (x::text::bigint % 4294967296) not in (
       select backend_xid::text::bigint from pg_stat_activity
       where backend_xid is not null and datname is distinct from current_database())
     order by x limit 1),
    pg_snapshot_xmax(pg_current_snapshot())))`;

/** A position in a feed: the transaction id and the row's key (a sequence number or a uuid), as text. */
export interface FeedPosition {
  txid: string;
  key: string;
}

/**
 * The feed's window after `after` (exclusive), below the horizon. `keyType` is the key column's
 * SQL type, so the position's text compares as what the index holds.
 */
export function feedWindow(
  txid: AnyColumn,
  key: AnyColumn,
  keyType: 'bigint' | 'uuid',
  after: FeedPosition | undefined,
): SQL[] {
  const where = [sql`${txid} < ${feedHorizon}`];
  if (after) where.push(sql`(${txid}, ${key}) > (${after.txid}::xid8, ${after.key}::${sql.raw(keyType)})`);
  return where;
}

export interface FeedPage<T> {
  items: T[];
  /** Also given after the last page: a caller keeps it and asks again later for what changed since. */
  next: FeedPosition | null;
  hasMore: boolean;
}

/**
 * A page of a feed from its rows in feed order, read with a limit one higher than the page's so
 * that `hasMore` needs no count. `key` gives a row's key as text.
 */
export function feedPage<R extends { txid: string }, T>(
  rows: R[],
  opts: { after?: FeedPosition; limit: number },
  key: (row: R) => string,
  item: (row: R) => T,
): FeedPage<T> {
  const page = rows.slice(0, opts.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(item),
    next: last ? { txid: last.txid, key: key(last) } : (opts.after ?? null),
    hasMore: rows.length > opts.limit,
  };
}
