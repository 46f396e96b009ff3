import { eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { settings } from '@/lib/db/schema';
import { purgePersonalData } from './purge';

/** settings key of the retention in days (an admin setting); RETENTION_DAYS is the default. */
export const RETENTION_KEY = 'retention.days';

export async function retentionDays(db: Db, fallback: number): Promise<number> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, RETENTION_KEY));
  const v = typeof row?.value === 'number' ? row.value : typeof row?.value === 'string' ? Number(row.value) : NaN;
  return Number.isInteger(v) && v >= 0 ? v : fallback;
}

/**
 * Purges personal data and images of executions older than the retention; decision metadata
 * stays for trends. 0 days = keep everything. Returns how many executions were purged.
 */
export async function runRetention(db: Db, days: number, now = new Date()): Promise<number> {
  if (days <= 0) return 0;
  return purgePersonalData(db, { olderThan: new Date(now.getTime() - days * 86_400_000) }, { reason: 'retention' });
}
