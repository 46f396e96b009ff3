import 'server-only';
import { eq, inArray, sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { loginThrottle } from '@/lib/db/schema';

const maxFailures = () => Number(process.env.LOGIN_MAX_FAILURES ?? 5);
const lockMinutes = () => Number(process.env.LOGIN_LOCK_MINUTES ?? 15);
/** Failures older than this no longer count. */
const WINDOW_MS = 15 * 60_000;

/** Minutes left on the longest lock among the keys (an e-mail and an IP), or 0. */
export async function lockedMinutes(keys: string[]): Promise<number> {
  const rows = await db().select().from(loginThrottle).where(inArray(loginThrottle.key, keys));
  const until = Math.max(0, ...rows.map((r) => r.lockedUntil?.getTime() ?? 0));
  return until > Date.now() ? Math.ceil((until - Date.now()) / 60_000) : 0;
}

/**
 * Records a failed sign-in for each key and returns how long to wait before answering: the
 * delay grows with each failure, and at the limit the key is locked.
 */
export async function recordFailure(keys: string[]): Promise<{ delayMs: number; locked: boolean }> {
  let worst = 0;
  let locked = false;
  for (const key of keys) {
    const [row] = await db()
      .insert(loginThrottle)
      .values({ key, failures: 1 })
      .onConflictDoUpdate({
        target: loginThrottle.key,
        set: {
          failures: sql`case when ${loginThrottle.firstFailureAt} < now() - ${`${WINDOW_MS / 1000} seconds`}::interval then 1 else ${loginThrottle.failures} + 1 end`,
          firstFailureAt: sql`case when ${loginThrottle.firstFailureAt} < now() - ${`${WINDOW_MS / 1000} seconds`}::interval then now() else ${loginThrottle.firstFailureAt} end`,
        },
      })
      .returning({ failures: loginThrottle.failures });
    worst = Math.max(worst, row.failures);
    // IPs get a larger allowance than single accounts: an office shares one address.
    const limit = key.startsWith('ip:') ? maxFailures() * 4 : maxFailures();
    if (row.failures >= limit) {
      locked = true;
      await db()
        .update(loginThrottle)
        .set({ lockedUntil: new Date(Date.now() + lockMinutes() * 60_000) })
        .where(eq(loginThrottle.key, key));
    }
  }
  // Locked only when a key reached its own limit (an IP's failures alone, under its larger
  // allowance, do not lock anybody; saying so would be a lie the next right password exposes).
  return { delayMs: worst < 2 ? 0 : Math.min(250 * 2 ** (worst - 2), 2000), locked };
}

export async function clearFailures(keys: string[]): Promise<void> {
  await db().delete(loginThrottle).where(inArray(loginThrottle.key, keys));
}
