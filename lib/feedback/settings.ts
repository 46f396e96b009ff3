import 'server-only';
import type { SessionUser } from '@/lib/auth/guards';
import { db, type DbOrTx } from '@/lib/db/client';
import { changeSetting, readSetting } from '@/lib/settings/store';

export const FOUR_EYES_KEY = 'feedback.four_eyes';

/** Four-eyes: FRAUD and NOT_FRAUD from an analyst wait for a manager's approval. Off unless an admin turns it on. */
export async function getFourEyes(
  dbOrTx: DbOrTx = db(),
): Promise<{ enabled: boolean; updatedAt: Date | null; updatedBy: string | null }> {
  const row = await readSetting(FOUR_EYES_KEY, dbOrTx);
  return { enabled: row.value === true, updatedAt: row.updatedAt, updatedBy: row.updatedBy };
}

export function setFourEyes(actor: Pick<SessionUser, 'id' | 'email'>, enabled: boolean): Promise<{ changed: boolean }> {
  return changeSetting(FOUR_EYES_KEY, actor, async (tx) => {
    const before = await getFourEyes(tx);
    if (before.enabled === enabled && before.updatedAt) return null;
    return { value: enabled, before: before.enabled, after: enabled };
  });
}
