import 'server-only';
import { inArray, sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { loginThrottle } from '@/lib/db/schema';

const maxFailures = () => Number(process.env.LOGIN_MAX_FAILURES ?? 5);
const lockMinutes = () => Number(process.env.LOGIN_LOCK_MINUTES ?? 15);
/** Failures older than this no longer count. */
const WINDOW_SECONDS = 15 * 60;

/** IPs get a larger allowance than single accounts: an office shares one address. */
const limitOf = (key: string) => (key.startsWith('ip:') ? maxFailures() * 4 : maxFailures());

export interface Reservation {
  /** False when a key is over its limit: the password must not be checked at all. */
  allowed: boolean;
  /** This attempt reached a key's limit: if it fails, the key is locked. */
  reachedLimit: boolean;
  /** Minutes left on the longest lock, for the message. */
  lockedMinutes: number;
  /** How long to wait before answering a failure: grows with each attempt. */
  delayMs: number;
}

/**
 * Counts a sign-in attempt against each key (an e-mail and an IP) before the password is
 * checked, in one upsert per key that increments and returns the count and lock. Checking the
 * lock first and counting after bcrypt let 15 concurrent guesses through a limit of 5; now the
 * sixth concurrent attempt already sees a count above the limit. A success gives the attempt
 * back (`attemptSucceeded`). The rows live in Postgres, so the limit holds across consoles.
 */
export async function reserveAttempt(keys: string[]): Promise<Reservation> {
  let allowed = true;
  let reachedLimit = false;
  let lockedUntil = 0;
  let worst = 0;
  for (const key of keys) {
    const limit = limitOf(key);
    const lock = sql`now() + ${lockMinutes()} * interval '1 minute'`;
    // A lapsed lock, or a window without failures, starts the count again.
    const fresh = sql`(t.locked_until is not null and t.locked_until <= now()) or (t.locked_until is null and t.first_failure_at < now() - ${WINDOW_SECONDS} * interval '1 second')`;
    const { rows } = await db().execute<{ failures: number; locked_until: Date | string | null }>(sql`
      insert into login_throttle as t (key, failures, first_failure_at, locked_until)
      values (${key}, 1, now(), case when 1 >= ${limit}::int then ${lock} end)
      on conflict (key) do update set
        failures = case when ${fresh} then 1 else t.failures + 1 end,
        first_failure_at = case when ${fresh} then now() else t.first_failure_at end,
        locked_until = case
          when t.locked_until > now() then t.locked_until
          when (case when ${fresh} then 1 else t.failures + 1 end) >= ${limit}::int then ${lock}
          else null end
      returning failures, locked_until`);
    const row = rows[0];
    const until = row.locked_until ? new Date(row.locked_until).getTime() : 0;
    if (row.failures > limit) {
      allowed = false;
      lockedUntil = Math.max(lockedUntil, until);
    } else if (row.failures === limit) {
      reachedLimit = true;
      lockedUntil = Math.max(lockedUntil, until);
    }
    if (!key.startsWith('ip:')) worst = Math.max(worst, row.failures);
  }
  return {
    allowed,
    reachedLimit,
    lockedMinutes: lockedUntil > Date.now() ? Math.ceil((lockedUntil - Date.now()) / 60_000) : 0,
    delayMs: worst < 2 ? 0 : Math.min(250 * 2 ** (worst - 2), 2000),
  };
}

/** A right password: the e-mail's count is cleared, and the IP gets this attempt back. */
export async function attemptSucceeded(keys: string[]): Promise<void> {
  for (const key of keys) {
    if (!key.startsWith('ip:')) {
      await db().execute(sql`delete from login_throttle where key = ${key}`);
      continue;
    }
    await db().execute(sql`
      update login_throttle set failures = greatest(failures - 1, 0),
        locked_until = case when failures - 1 < ${limitOf(key)}::int then null else locked_until end
      where key = ${key}`);
  }
}

/** Minutes left on the longest lock among the keys, or 0. */
export async function lockedMinutes(keys: string[]): Promise<number> {
  const rows = await db().select().from(loginThrottle).where(inArray(loginThrottle.key, keys));
  const until = Math.max(0, ...rows.map((r) => r.lockedUntil?.getTime() ?? 0));
  return until > Date.now() ? Math.ceil((until - Date.now()) / 60_000) : 0;
}
