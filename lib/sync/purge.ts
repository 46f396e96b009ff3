import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { inTx } from '@/lib/db/tx';
import { capabilityEntries, credentials, executions, partImages } from '@/lib/db/schema';
import { replaceLinkKeys } from '@/lib/rings/upkeep';
import { stripPersonalData } from './personal-data';

/**
 * Removes personal data from cached executions while keeping decision metadata: used when
 * the service answers 404 for an execution (deleted there), for wipes, and for retention.
 * Returns how many executions were purged.
 */
export async function purgePersonalData(
  dbOrTx: DbOrTx,
  target: string[] | { olderThan: Date },
  opts: { reason?: 'retention' | 'gone'; batch?: number } = {},
): Promise<number> {
  const batch = opts.batch ?? 500;
  let total = 0;
  for (;;) {
    const n = await inTx(dbOrTx, async (tx) => {
      const where = Array.isArray(target)
        ? and(
            inArray(
              executions.id,
              target.map((t) => t.toLowerCase()),
            ),
            eq(executions.hasPersonalData, true),
          )
        : and(lt(executions.createdAt, target.olderThan), eq(executions.hasPersonalData, true));
      const rows = await tx
        .select({ id: executions.id, result: executions.result })
        .from(executions)
        .where(where)
        .limit(batch)
        .for('update');
      if (!rows.length) return 0;
      const ids = rows.map((r) => r.id);
      for (const r of rows) {
        await tx
          .update(executions)
          .set({
            result: r.result ? stripPersonalData(r.result) : null,
            firstName: null,
            lastName: null,
            dateOfBirth: null,
            documentNumber: null,
            documentKey: null,
            searchTokens: [],
            hasPersonalData: false,
            personalDataPurgedAt: opts.reason === 'retention' ? new Date() : sql`${executions.personalDataPurgedAt}`,
            contentHash: null,
            updatedAt: new Date(),
          })
          .where(eq(executions.id, r.id));
      }
      await tx
        .update(capabilityEntries)
        .set({
          data: null,
          raw: sql`jsonb_build_object('id', ${capabilityEntries.raw}->'id', 'credentials', ${capabilityEntries.raw}->'credentials', 'decision', ${capabilityEntries.raw}->'decision')`,
        })
        .where(inArray(capabilityEntries.executionId, ids));
      await tx
        .update(credentials)
        .set({
          clientIp: null,
          raw: sql`jsonb_build_object('id', ${credentials.raw}->'id', 'category', ${credentials.raw}->'category', 'label', ${credentials.raw}->'label')`,
        })
        .where(inArray(credentials.executionId, ids));
      await tx.delete(partImages).where(inArray(partImages.executionId, ids));
      // The hashed values go with the personal data: a purged execution leaves its ring.
      await replaceLinkKeys(tx, ids, []);
      return ids.length;
    });
    total += n;
    if (n < batch || Array.isArray(target)) return total;
  }
}

/** The service answered 404 for an execution we hold: keep the record and its metadata, drop personal data. */
export async function markGoneAtService(dbOrTx: DbOrTx, executionId: string, at: Date): Promise<void> {
  await inTx(dbOrTx, async (tx) => {
    await tx
      .update(executions)
      .set({ goneAt: at, staleSince: null, updatedAt: new Date() })
      .where(and(eq(executions.id, executionId.toLowerCase())));
    await purgePersonalData(tx, [executionId], { reason: 'gone' });
  });
}
