import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import type { SessionUser } from '@/lib/auth/guards';
import { db } from '@/lib/db/client';
import { settings } from '@/lib/db/schema';
import type { DbOrTx } from '@/lib/db/client';

export const FOUR_EYES_KEY = 'feedback.four_eyes';

/** Four-eyes: FRAUD and NOT_FRAUD from an analyst wait for a manager's approval. Off unless an admin turns it on. */
export async function getFourEyes(
  dbOrTx: DbOrTx = db(),
): Promise<{ enabled: boolean; updatedAt: Date | null; updatedBy: string | null }> {
  const [row] = await dbOrTx
    .select({ value: settings.value, updatedAt: settings.updatedAt, updatedBy: settings.updatedBy })
    .from(settings)
    .where(eq(settings.key, FOUR_EYES_KEY))
    .limit(1);
  return { enabled: row?.value === true, updatedAt: row?.updatedAt ?? null, updatedBy: row?.updatedBy ?? null };
}

export async function setFourEyes(
  actor: Pick<SessionUser, 'id' | 'email'>,
  enabled: boolean,
): Promise<{ changed: boolean }> {
  return db().transaction(async (tx) => {
    const before = await getFourEyes(tx);
    if (before.enabled === enabled && before.updatedAt) return { changed: false };
    await tx
      .insert(settings)
      .values({ key: FOUR_EYES_KEY, value: enabled, updatedBy: actor.id })
      .onConflictDoUpdate({
        target: settings.key,
        set: { value: sql`excluded.value`, updatedAt: sql`now()`, updatedBy: actor.id },
      });
    await audit(
      {
        action: 'settings.change',
        actor,
        targetType: 'setting',
        targetId: FOUR_EYES_KEY,
        details: { before: before.enabled, after: enabled },
      },
      tx,
    );
    return { changed: true };
  });
}
