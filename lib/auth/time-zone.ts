import 'server-only';
import { eq } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { isTimeZone } from '@/lib/format';

/** The zone a user reads times in; UTC when unset or no longer known to this runtime. */
export async function getTimeZone(userId: string): Promise<string> {
  const [row] = await db().select({ timeZone: users.timeZone }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.timeZone && isTimeZone(row.timeZone) ? row.timeZone : 'UTC';
}

/** Keeps the user's zone with their other preferences; null goes back to UTC. */
export async function saveTimeZone(userId: string, timeZone: string | null): Promise<void> {
  await db().update(users).set({ timeZone, updatedAt: new Date() }).where(eq(users.id, userId));
}
