import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import { db, type DbOrTx, type Tx } from '@/lib/db/client';
import { settings } from '@/lib/db/schema';

/**
 * The settings table's one read and one write. A setting is one JSON value under a key; every
 * change is recorded as `settings.change` with the value before and after, in the transaction
 * that writes it. Each feature keeps its own key, value schema and defaults (lib/feedback,
 * lib/qa).
 */

export interface StoredSetting {
  value: unknown;
  updatedAt: Date | null;
  updatedBy: string | null;
}

export async function readSetting(key: string, d: DbOrTx = db()): Promise<StoredSetting> {
  const [row] = await d
    .select({ value: settings.value, updatedAt: settings.updatedAt, updatedBy: settings.updatedBy })
    .from(settings)
    .where(eq(settings.key, key))
    .limit(1);
  return { value: row?.value, updatedAt: row?.updatedAt ?? null, updatedBy: row?.updatedBy ?? null };
}

/**
 * Changes a setting in one transaction: `decide` reads the value as it stands (under the key's
 * lock, so two managers saving at once are recorded one after the other) and returns the new
 * value with what the audit entry shows before and after, or null to leave it as it is.
 */
export async function changeSetting(
  key: string,
  actor: { id: string; email: string },
  decide: (tx: Tx) => Promise<{ value: unknown; before: unknown; after: unknown } | null>,
): Promise<{ changed: boolean }> {
  return db().transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
    const next = await decide(tx);
    if (!next) return { changed: false };
    await tx
      .insert(settings)
      .values({ key, value: next.value, updatedBy: actor.id })
      .onConflictDoUpdate({
        target: settings.key,
        set: { value: sql`excluded.value`, updatedAt: sql`now()`, updatedBy: actor.id },
      });
    await audit(
      {
        action: 'settings.change',
        actor,
        targetType: 'setting',
        targetId: key,
        details: { before: next.before, after: next.after },
      },
      tx,
    );
    return { changed: true };
  });
}
