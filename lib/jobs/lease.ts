import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';

/*
 * Claim, lease and rescue: the one mechanism behind every table that is worked as an outbox or an
 * inbox (feedback deliveries, webhook deliveries and the endpoints' one-request-at-a-time, the
 * callback inbox). Each domain describes its table once (`LeasedTable`) and keeps its own meaning
 * of "due" and "done" and its own retry schedule; the SQL of the lease is written here only.
 *
 * - A claim takes rows under a lease in one statement. A batch claim selects with FOR UPDATE SKIP
 *   LOCKED, so claimers running at once take disjoint rows instead of queueing behind each
 *   other's row locks; a claim by key re-checks the row's state in its WHERE, so of two claimers
 *   one updates the row and the other finds nothing (Postgres re-reads the row after the lock).
 * - The lease, not the row lock, marks a row as being worked on: the work (a call to the service,
 *   a receiver's answer) happens after the claim's transaction committed, where no lock survives.
 * - Rescue: a row whose lease lapsed (its process died, or lost the database mid-work) is
 *   claimable again, by the same claim. Work is therefore at least once: the domains make their
 *   repeat harmless (the same PUT, the same `webhook-id`, a singleton fetch).
 * - The lease's stamp is its token. A row is claimed again only once its lease lapsed, so a later
 *   claim always writes a later stamp; `renewLease` extends a lease only for the holder of that
 *   stamp, so a process that lost its lease cannot extend the new holder's.
 */

export interface LeasedTable {
  /** The table's name. */
  table: string;
  /** Its key column. */
  key: string;
  /** The column that stamps the lease. */
  lease: string;
  /**
   * `until`: the column holds when the lease ends (and is cleared when it ends); `since`: when
   * it was taken, the lease lasting `ms` from then (the column is kept as a record of the attempt).
   */
  holds: 'until' | 'since';
  /** How long a lease lasts. */
  ms: number;
  /** True of a row held under a lease, whether live or lapsed (e.g. `state = 'delivering'`). */
  held: SQL;
}

const col = (name: string) => sql.identifier(name);
const interval = (t: LeasedTable) => sql`make_interval(secs => ${t.ms / 1000})`;
/** The stamp as text, exact to the microsecond (a JS Date would round it to the millisecond). */
const token = (t: LeasedTable) => sql`extract(epoch from ${col(t.lease)})::text`;

/** True of a row whose lease lapsed: what rescue takes over. Unqualified columns, for any scope. */
export function leaseLapsed(t: LeasedTable): SQL {
  return t.holds === 'until'
    ? sql`(${t.held} and ${col(t.lease)} < now())`
    : sql`(${t.held} and ${col(t.lease)} < now() - ${interval(t)})`;
}

/** True of a row held under a lease that still runs. */
export function leaseLive(t: LeasedTable): SQL {
  return t.holds === 'until'
    ? sql`(${t.held} and ${col(t.lease)} >= now())`
    : sql`(${t.held} and ${col(t.lease)} >= now() - ${interval(t)})`;
}

/** The SET of a new lease (or of a renewed one). */
export function leaseStamp(t: LeasedTable): SQL {
  return t.holds === 'until' ? sql`${col(t.lease)} = now() + ${interval(t)}` : sql`${col(t.lease)} = now()`;
}

/** The SET that ends an `until` lease (a `since` lease ends with the state that `held` reads). */
export function leaseCleared(t: LeasedTable & { holds: 'until' }): SQL {
  return sql`${col(t.lease)} = null`;
}

export type Claimed<R> = R & { lease_token: string | null };

/**
 * Claims up to `limit` rows that are `due` or whose lease lapsed, in `orderBy` order, skipping
 * rows another claimer has locked, and stamps each with a lease (plus `set`). A relay that hands
 * rows on rather than working them (the webhook pump) passes `lease: false` and says in `set`
 * what the rows become.
 */
export async function claimDue<R extends Record<string, unknown>>(
  db: DbOrTx,
  t: LeasedTable,
  opts: { due: SQL; orderBy: SQL; limit: number; set?: SQL; lease?: boolean; returning: SQL },
): Promise<Claimed<R>[]> {
  const sets = [...(opts.lease === false ? [] : [leaseStamp(t)]), ...(opts.set ? [opts.set] : [])];
  const r = await db.execute(sql`
    update ${col(t.table)} set ${sql.join(sets, sql`, `)}
     where ${col(t.key)} in (
       select ${col(t.key)} from ${col(t.table)}
        where (${opts.due}) or ${leaseLapsed(t)}
        order by ${opts.orderBy}
        limit ${opts.limit}
        for update skip locked)
    returning ${opts.returning}, ${token(t)} as lease_token`);
  return r.rows as Claimed<R>[];
}

/**
 * Claims the row `key` when it is `free` or its lease lapsed, and `also` holds (a domain's own
 * condition, such as one delivery per execution at a time), stamping a lease plus `set`.
 * Undefined when it is not claimable: another holds it, or it is done.
 */
export async function claimOne<R extends Record<string, unknown>>(
  db: DbOrTx,
  t: LeasedTable,
  key: string | number,
  opts: { free: SQL; also?: SQL; set?: SQL; returning: SQL },
): Promise<Claimed<R> | undefined> {
  const r = await db.execute(sql`
    update ${col(t.table)} set ${leaseStamp(t)}${opts.set ? sql`, ${opts.set}` : sql``}
     where ${col(t.key)} = ${key} and ((${opts.free}) or ${leaseLapsed(t)})${opts.also ? sql` and (${opts.also})` : sql``}
    returning ${opts.returning}, ${token(t)} as lease_token`);
  return r.rows[0] as Claimed<R> | undefined;
}

/**
 * Extends the lease on `key` for the holder of `leaseToken` (from its claim or last renewal).
 * Returns the new token, or null when the lease is no longer this holder's (taken over after it
 * lapsed, or released): the holder then stops, as its work may be done twice.
 */
export async function renewLease(
  db: DbOrTx,
  t: LeasedTable,
  key: string | number,
  leaseToken: string,
): Promise<string | null> {
  const r = await db.execute<{ lease_token: string }>(sql`
    update ${col(t.table)} set ${leaseStamp(t)}
     where ${col(t.key)} = ${key} and ${t.held} and ${token(t)} = ${leaseToken}
    returning ${token(t)} as lease_token`);
  return r.rows[0]?.lease_token ?? null;
}
