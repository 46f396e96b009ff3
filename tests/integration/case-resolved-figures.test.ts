/**
 * The queues page's all-time figures are kept by triggers on `cases` (drizzle/0031_case_figures.sql):
 * after every kind of change a resolved case can see (resolved, edited, moved to another queue,
 * reopened, deleted, inserted resolved), each in statements of several rows, the two tables equal
 * the same figures counted from the cases themselves, and
 * the percentiles read from the time buckets are within 2.5 % of percentile_cont over the cases.
 */
import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readResolutionPercentiles } from '@/lib/cases/resolved-figures';
import { db } from '@/lib/db/client';
import { caseQueues, cases } from '@/lib/db/schema';
import { getBoss, stopBoss } from '@/lib/jobs/boss';
import { ingestMany } from '@/lib/sync/ingest';
import { buildExecution } from '../support/fixtures/execution';
import { createUser } from '../support/feedback';

let queueA: string;
let queueB: string;
let ids: string[];
let resolver: { id: string };

/**
 * Every key's count, from the kept tables and from the cases, side by side, in one snapshot (a
 * worker of another file may still be resolving a case).
 */
async function keptAndCounted() {
  return db().transaction(
    async (tx) => {
      const q = async (text: ReturnType<typeof sql>) =>
        (await tx.execute<Record<string, unknown>>(text)).rows.map((r) => JSON.stringify(r)).sort();
      return {
        kept: {
          outcomes: await q(sql`
        select queue_id, resolved_by, outcome, decision_at_outcome, n from case_outcome_counts where n <> 0`),
          times: await q(sql`select queue_id, resolved_by, bucket, n from case_resolution_times where n <> 0`),
        },
        counted: {
          outcomes: await q(sql`
        select queue_id, resolved_by, outcome, decision_at_outcome, count(*)::int as n from cases
        where state = 'resolved' group by 1, 2, 3, 4`),
          times: await q(sql`
        select queue_id, resolved_by, case_resolution_bucket(arrived_at, resolved_at) as bucket, count(*)::int as n
        from cases where state = 'resolved' and resolved_at is not null group by 1, 2, 3`),
        },
      };
    },
    { isolationLevel: 'repeatable read' },
  );
}

async function expectKeptEqualsCounted() {
  const { kept, counted } = await keptAndCounted();
  expect(kept).toEqual(counted);
}

beforeAll(async () => {
  await getBoss();
  resolver = await createUser('analyst', `figures-${randomUUID().slice(0, 6)}`);
  const tag = `fig-${randomUUID().slice(0, 8)}`;
  [queueA, queueB] = (
    await db()
      .insert(caseQueues)
      .values([
        { name: `Figures A ${tag}`, priority: 0, slaHours: 4, definition: `criteria=${tag}` },
        { name: `Figures B ${tag}`, priority: 0, slaHours: 4, definition: `criteria=${tag}-none` },
      ])
      .returning()
  ).map((q) => q.id);
  const xs = Array.from({ length: 40 }, (_, i) => {
    const x = buildExecution({ decision: i % 3 ? 'REJECTED' : 'PASSED', score: 30 + i });
    (x.result as { workflow: { reportingCriteria: string } }).workflow.reportingCriteria = tag;
    return x;
  });
  await ingestMany(
    db(),
    xs.map((x) => ({ result: x.result, steps: x.steps, rules: x.rules, fetchedAt: new Date() })),
  );
  ids = (await db().select({ id: cases.id }).from(cases).where(eq(cases.queueId, queueA))).map((r) => r.id);
  expect(ids).toHaveLength(40);
});
afterAll(async () => {
  await stopBoss();
});

describe('the kept figures of resolved cases', () => {
  it('equal the cases after each change a resolved case can see', async () => {
    await expectKeptEqualsCounted();
    // Resolved, with times from a minute to two days apart and both outcomes.
    await db().execute(sql`
      update cases set state = 'resolved', resolved_by = ${resolver.id},
        outcome = case when (abs(hashtext(id::text)) % 3) = 0 then 'decline' else 'approve' end,
        decision_at_outcome = 'REJECTED',
        resolved_at = arrived_at + make_interval(secs => 60 + (abs(hashtext(id::text)) % 172800))
      where id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`);
    await expectKeptEqualsCounted();
    // An edit of resolved cases: their outcome, decision and resolution time.
    await db().execute(sql`
      update cases set outcome = 'approve', decision_at_outcome = 'PASSED', resolved_at = resolved_at + interval '3 hours'
      where id in (${sql.join(
        ids.slice(0, 10).map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`);
    await expectKeptEqualsCounted();
    // Moved to another queue; a resolver no longer named.
    await db()
      .update(cases)
      .set({ queueId: queueB })
      .where(inArray(cases.id, ids.slice(10, 15)));
    await db()
      .update(cases)
      .set({ resolvedBy: null })
      .where(inArray(cases.id, ids.slice(15, 18)));
    await expectKeptEqualsCounted();
    // Reopened, and deleted.
    await db()
      .update(cases)
      .set({ state: 'open', outcome: null, resolvedAt: null, resolvedBy: null })
      .where(inArray(cases.id, ids.slice(18, 24)));
    const gone = await db()
      .delete(cases)
      .where(inArray(cases.id, ids.slice(24, 28)))
      .returning();
    await expectKeptEqualsCounted();
    // Put back, resolved, in one statement: the insert's figures count every row of it.
    await db()
      .insert(cases)
      .values(
        gone.map((c, i) => ({
          ...c,
          state: 'resolved' as const,
          resolvedBy: resolver.id,
          outcome: i % 2 ? ('approve' as const) : ('decline' as const),
          decisionAtOutcome: 'REJECTED',
          resolvedAt: new Date(c.arrivedAt.getTime() + 90_000 * (i + 1)),
        })),
      );
    await expectKeptEqualsCounted();
  });

  it('give percentiles within 2.5 % of percentile_cont over the cases', async () => {
    const { byQueue, byResolver } = await readResolutionPercentiles(db());
    const exact = async (column: 'queue_id' | 'resolved_by', key: string) =>
      (
        await db().execute<{ p50: number; p95: number }>(sql`
          select percentile_cont(0.5) within group (order by extract(epoch from resolved_at - arrived_at)) as p50,
            percentile_cont(0.95) within group (order by extract(epoch from resolved_at - arrived_at)) as p95
          from cases where state = 'resolved' and ${sql.identifier(column)} = ${key}`)
      ).rows[0];
    for (const [kept, e] of [
      [byQueue.get(queueA)!, await exact('queue_id', queueA)],
      [byResolver.get(resolver.id)!, await exact('resolved_by', resolver.id)],
    ] as const) {
      expect(kept.p50Seconds).toBeGreaterThan(0);
      expect(Math.abs(kept.p50Seconds! - Number(e.p50)) / Number(e.p50)).toBeLessThanOrEqual(0.025);
      expect(Math.abs(kept.p95Seconds! - Number(e.p95)) / Number(e.p95)).toBeLessThanOrEqual(0.025);
    }
  });
});
