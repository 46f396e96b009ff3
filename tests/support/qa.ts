import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { resolveCase } from '@/lib/cases/resolve';
import type { ResolveCaseInput } from '@/lib/cases/schema';
import { db } from '@/lib/db/client';
import { caseQueues, cases } from '@/lib/db/schema';
import { runQaSampling, startQaSampling } from '@/lib/qa/sample';
import { createUser } from './feedback';

/**
 * Keeps these executions' resolutions inside `week` (a Monday, YYYY-MM-DD): a test reads its week
 * before resolving, and should Monday 00:00 UTC pass in between, the draw of that week would find
 * none of them. A no-op on any other day.
 */
export async function keepResolvedInWeek(executionIds: string[], week: string) {
  const weekEnd = sql`(${week}::date + 7)::timestamp at time zone 'UTC'`;
  await db()
    .update(cases)
    .set({ resolvedAt: sql`${weekEnd} - interval '1 millisecond'` })
    .where(and(inArray(cases.executionId, executionIds), sql`${cases.resolvedAt} >= ${weekEnd}`));
}

/**
 * The real weekly draw of `week`, run to its end: at least 3 of each person's resolutions that
 * week (so every one of a test's first analyst's few), as `actor` (a manager).
 */
export async function sampleWeek(boss: PgBoss, week: string, actor: { id: string; email: string }) {
  const { runId } = await db().transaction((tx) =>
    startQaSampling(tx, boss, {
      week,
      settings: { ratePercent: 0.1, minPerAnalyst: 3, enabled: true },
      trigger: 'manual',
      actor,
    }),
  );
  await runQaSampling(db(), runId);
}

/**
 * Resolves the case of `executionId` as `who`, the first analyst whose decision a QA review looks
 * at again, with `label` sent along if given. A comment either way: approving the service's
 * WARNING needs one too.
 */
export async function resolveAsFirstAnalyst(
  who: Parameters<typeof resolveCase>[0],
  executionId: string,
  outcome: 'approve' | 'decline',
  label: Pick<ResolveCaseInput, 'feedbackStatus' | 'feedbackReason'> = {},
) {
  const [k] = await db().select().from(cases).where(eq(cases.executionId, executionId));
  const r = await resolveCase(who, {
    caseId: k.id,
    version: k.version,
    outcome,
    reason: outcome === 'decline' ? 'DOCUMENT_FORGED' : 'DOCUMENT_GENUINE',
    comment: outcome === 'decline' ? 'First analyst: the font is wrong.' : 'First analyst: genuine despite the flag.',
    ...label,
    feedbackVersion: 'none',
    idempotencyKey: `first-analyst-${randomUUID()}`,
  });
  if (!r.ok) throw new Error(JSON.stringify(r));
}

/**
 * The people of a QA test: the first analyst whose decisions are sampled, a second analyst to
 * review them, another analyst, and a manager; and the test's own queue of the executions
 * reported under `tag`.
 */
export async function startQaCast(tag: string) {
  const cast = {
    first: await createUser('analyst', 'first'),
    second: await createUser('analyst', 'second'),
    other: await createUser('analyst', 'other'),
    manager: await createUser('manager'),
  };
  await db()
    .insert(caseQueues)
    .values({ name: `QA ${tag}`, priority: 0, slaHours: 4, definition: `criteria=${tag}` });
  return cast;
}
