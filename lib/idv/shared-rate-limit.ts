/**
 * The service's rate limits are per customer, not per process (service-facts: retrieval 15/s,
 * account 1/s with short bursts, token 10/s). Every console and worker reserves its requests'
 * send times from one row per limit in Postgres (`service_rate_limits`), so N processes together
 * keep to the rate instead of living on 429s.
 *
 * The row holds the limit's theoretical arrival time (GCRA, the token bucket as a time): one
 * upsert moves it on by one emission interval and returns how long the caller waits before
 * sending. Postgres's clock decides for all processes, the row lock orders concurrent callers,
 * and a reservation is never handed out twice. A process reserves one request at a time per
 * limit (RateLimiter's FIFO), so no process books far ahead of the others and a request the
 * caller gives up on wastes one slot at most.
 */
import { createHash } from 'node:crypto';

/** What a shared limit needs from Postgres: one parameterised statement. */
export interface Queryable {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface SlotStore {
  /**
   * Reserves the next send time of `key` at one request per `intervalMs`, allowing a burst that
   * reaches `toleranceMs` back; resolves to the milliseconds to wait before sending (0: now).
   */
  reserve(key: string, intervalMs: number, toleranceMs: number): Promise<number>;
}

const RESERVE_SQL = `
insert into service_rate_limits as r (key, tat)
values ($1, clock_timestamp() + $2::float8 * interval '1 millisecond')
on conflict (key) do update set tat = greatest(r.tat, clock_timestamp()) + $2::float8 * interval '1 millisecond'
returning greatest(0, extract(epoch from (r.tat - clock_timestamp())) * 1000 - $2::float8 - $3::float8)::float8 as wait_ms`;

/** The store on Postgres; `pool` is resolved at the first reservation (the process's pool). */
export function postgresSlotStore(pool: () => Queryable): SlotStore {
  return {
    async reserve(key, intervalMs, toleranceMs) {
      const r = await pool().query(RESERVE_SQL, [key, intervalMs, toleranceMs]);
      return Number((r.rows[0] as { wait_ms: number | string }).wait_ms);
    },
  };
}

/** The key of one concern's limit for one customer (client id), without spelling the id out. */
export function sharedLimitKey(concern: string, clientId: string): string {
  return `idv:${concern}:${createHash('sha256').update(clientId).digest('hex').slice(0, 16)}`;
}
