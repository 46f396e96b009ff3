import 'server-only';
import { sql, type AnyColumn } from 'drizzle-orm';
import { db } from '@/lib/db/client';

const maxFailures = () => Number(process.env.LOGIN_MAX_FAILURES ?? 5);
const lockMinutes = () => Number(process.env.LOGIN_LOCK_MINUTES ?? 15);
/** Failures older than this no longer count. */
const WINDOW_SECONDS = 15 * 60;
/** The longest wait an account's failures impose on its next attempt. */
const MAX_ACCOUNT_DELAY_MS = 5_000;

/**
 * The keys one sign-in attempt counts against (rows of `login_throttle`):
 *
 * - `pair`, the account from this address: LOGIN_MAX_FAILURES locks that pair for LOGIN_LOCK_MINUTES;
 * - `ip`, the address over every account: four times the allowance (an office shares one), then
 *   locked, so one address cannot try many accounts;
 * - `account`, the account from everywhere: never locked, but each attempt waits longer as its
 *   failures grow (up to 5 s), so a guesser with many addresses is slowed down.
 *
 * Locking per account *and* address means that nobody can lock a colleague out from elsewhere:
 * five wrong passwords from one address stop that address, and the owner still signs in from
 * theirs (issue 19, item 7; the account-wide lock it replaces could be renewed forever by anyone).
 */
export function throttleKeys(email: string, ip: string | null) {
  const account = email.toLowerCase();
  return { pair: `pair:${account}|${ip ?? 'unknown'}`, ip: ip ? `ip:${ip}` : null, account: `acct:${account}` };
}
export type ThrottleKeys = ReturnType<typeof throttleKeys>;

const limitOf = (key: string): number | null =>
  key.startsWith('acct:') ? null : key.startsWith('ip:') ? maxFailures() * 4 : maxFailures();

export interface Reservation {
  /** False when the pair or the address is locked: the password must not be checked at all. */
  allowed: boolean;
  /** This attempt reached the pair's or the address's limit: if it fails, it is locked. */
  reachedLimit: boolean;
  /** Minutes left on the longest lock, for the message. */
  lockedMinutes: number;
  /** How long this attempt waits before its password is checked: grows with the account's failures. */
  delayMs: number;
}

/**
 * Counts a sign-in attempt against each key before the password is checked, in one upsert per
 * key that increments and returns the count and lock. Checking the lock first and counting after
 * bcrypt let 15 concurrent guesses through a limit of 5; now the sixth concurrent attempt already
 * sees a count above the limit. A success gives the attempt back (`attemptSucceeded`). The rows
 * live in Postgres, so the limits hold across consoles.
 */
export async function reserveAttempt(keys: ThrottleKeys): Promise<Reservation> {
  let allowed = true;
  let reachedLimit = false;
  let lockedUntil = 0;
  let accountFailures = 0;
  for (const key of [keys.pair, keys.ip, keys.account]) {
    if (!key) continue;
    const limit = limitOf(key);
    const lock = limit === null ? sql`null::timestamptz` : sql`now() + ${lockMinutes()} * interval '1 minute'`;
    const max = limit ?? 2_147_483_647;
    // A lapsed lock, or a window without failures, starts the count again.
    const fresh = sql`(t.locked_until is not null and t.locked_until <= now()) or (t.locked_until is null and t.first_failure_at < now() - ${WINDOW_SECONDS} * interval '1 second')`;
    const { rows } = await db().execute<{ failures: number; locked_until: Date | string | null }>(sql`
      insert into login_throttle as t (key, failures, first_failure_at, locked_until)
      values (${key}, 1, now(), case when 1 >= ${max}::int then ${lock} end)
      on conflict (key) do update set
        failures = case when ${fresh} then 1 else t.failures + 1 end,
        first_failure_at = case when ${fresh} then now() else t.first_failure_at end,
        locked_until = case
          when t.locked_until > now() then t.locked_until
          when (case when ${fresh} then 1 else t.failures + 1 end) >= ${max}::int then ${lock}
          else null end
      returning failures, locked_until`);
    const row = rows[0];
    if (limit === null) {
      accountFailures = row.failures;
      continue;
    }
    const until = row.locked_until ? new Date(row.locked_until).getTime() : 0;
    if (row.failures > limit) {
      allowed = false;
      lockedUntil = Math.max(lockedUntil, until);
    } else if (row.failures === limit) {
      reachedLimit = true;
      lockedUntil = Math.max(lockedUntil, until);
    }
  }
  return {
    allowed,
    reachedLimit,
    lockedMinutes: lockedUntil > Date.now() ? Math.ceil((lockedUntil - Date.now()) / 60_000) : 0,
    delayMs: accountFailures < 2 ? 0 : Math.min(250 * 2 ** (accountFailures - 2), MAX_ACCOUNT_DELAY_MS),
  };
}

/** A right password: the account's counts are cleared (from everywhere), and the address gets this attempt back. */
export async function attemptSucceeded(keys: ThrottleKeys): Promise<void> {
  await db().execute(sql`delete from login_throttle where key in (${keys.pair}, ${keys.account})`);
  if (keys.ip)
    await db().execute(sql`
      update login_throttle set failures = greatest(failures - 1, 0),
        locked_until = case when failures - 1 < ${limitOf(keys.ip)}::int then null else locked_until end
      where key = ${keys.ip}`);
}

/** Minutes left on the longest lock among the keys, or 0. */
export async function lockedMinutes(keys: string[]): Promise<number> {
  const { rows } = await db().execute<{ until: string | null }>(
    sql`select max(locked_until)::text as until from login_throttle where key in ${keys}`,
  );
  const until = rows[0]?.until ? new Date(rows[0].until).getTime() : 0;
  return until > Date.now() ? Math.ceil((until - Date.now()) / 60_000) : 0;
}

/** The start of every pair key of an account, in SQL (`email`: a column or a value). */
const pairPrefixSql = (email: AnyColumn | string) => sql`'pair:' || lower(${email}) || '|'`;

/** How many addresses an account's sign-in is locked from now (for the Users page). */
export const lockedAddressesSql = (email: AnyColumn | string) =>
  sql<number>`(select count(*)::int from login_throttle t
    where left(t.key, length(${pairPrefixSql(email)})) = ${pairPrefixSql(email)} and t.locked_until > now())`;

/** An admin's unlock: the account's locks from every address, and its account-wide count. Returns the addresses unlocked. */
export async function unlockSignIn(email: string): Promise<number> {
  const { rows } = await db().execute<{ locked: boolean }>(sql`
    delete from login_throttle
     where left(key, length(${pairPrefixSql(email)})) = ${pairPrefixSql(email)} or key = ${throttleKeys(email, null).account}
    returning coalesce(locked_until > now(), false) as locked`);
  return rows.filter((r) => r.locked).length;
}
