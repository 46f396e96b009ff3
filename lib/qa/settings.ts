import 'server-only';
import type { DbOrTx } from '@/lib/db/client';
import { changeSetting, readSetting } from '@/lib/settings/store';
import { qaSettingsSchema, type QaSettings } from '@/lib/qa/schema';

export const QA_SETTINGS_KEY = 'qa.sampling';
/** Until a manager sets a rate: 5 % of each person's resolved cases a week, at least 2. */
export const QA_DEFAULTS: QaSettings = { ratePercent: 5, minPerAnalyst: 2, enabled: true };

export async function getQaSettings(
  db: DbOrTx,
): Promise<QaSettings & { updatedAt: string | null; updatedBy: string | null }> {
  const row = await readSetting(QA_SETTINGS_KEY, db);
  // A stored value that no longer parses (a hand edit) falls back to the defaults, never to a crash.
  const parsed = qaSettingsSchema.safeParse(row.value ?? {});
  return {
    ...(parsed.success ? parsed.data : QA_DEFAULTS),
    updatedAt: row.updatedAt?.toISOString() ?? null,
    updatedBy: row.updatedBy,
  };
}

/** Stores the rate and records before and after in the audit log, in one transaction. */
export function saveQaSettings(actor: { id: string; email: string }, next: QaSettings): Promise<{ changed: boolean }> {
  return changeSetting(QA_SETTINGS_KEY, actor, async (tx) => {
    const before = await getQaSettings(tx);
    const same =
      before.updatedAt &&
      before.ratePercent === next.ratePercent &&
      before.minPerAnalyst === next.minPerAnalyst &&
      before.enabled === next.enabled;
    if (same) return null;
    return {
      value: next,
      before: { ratePercent: before.ratePercent, minPerAnalyst: before.minPerAnalyst, enabled: before.enabled },
      after: next,
    };
  });
}
