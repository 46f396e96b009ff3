import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db/client';
import { executions, settings, syncRuns } from '@/lib/db/schema';
import type { RunningSimulator } from '@/lib/simulator';
import { ingestExecution } from '@/lib/sync/ingest';
import { countServiceExecutions, executeRun, openRun, SERVICE_COUNT_KEY, type SyncRun } from '@/lib/sync/runs';
import { buildExecution } from '../support/fixtures/execution';
import { until } from '../support/wait';
import { clientFor, expectCacheMatchesService, journey, resetCache, startSim, TEST_OPTIONS } from '../support/sync';

let sim: RunningSimulator;
/** The journeys made while the first backfill was interrupted. */
const journeys: Array<{ accountId: string; executionId: string }> = [];
const open = (kind: 'backfill' | 'reconcile') =>
  openRun(db(), kind, { overlapMs: TEST_OPTIONS.overlapMs, pageSize: TEST_OPTIONS.pageSize });

beforeAll(async () => {
  await resetCache(db());
  sim = await startSim({ executions: 120 });
});
afterAll(() => sim?.close());

describe('backfill and reconciliation through the list (R12)', () => {
  it('counts the executions at the service without a total, in a few tiny requests', async () => {
    const idv = clientFor(sim);
    const before = sim.stats().requests;
    expect(await countServiceExecutions({ idv })).toBe(120);
    expect(sim.stats().requests - before).toBeLessThan(2 * Math.log2(120) + 4);
  });

  it('an interrupted backfill resumes at its next page, without duplicates, while new executions shift the pages', async () => {
    const idv = clientFor(sim);
    const deps = { db: db(), idv, options: TEST_OPTIONS };
    const { run } = await open('backfill');
    const ctl = new AbortController();
    const stopped = await executeRun(deps, run.id, {
      owner: 'test-a',
      signal: ctl.signal,
      onProgress: (r) => {
        if (r.nextPage >= 3) ctl.abort();
      },
    });
    expect(stopped).toMatchObject({ state: 'interrupted', nextPage: 3, owner: null, finishedAt: null });
    expect(stopped!.totalEstimate).toBe(120);
    const [{ n }] = (await db().execute<{ n: number }>(sql`select count(*)::int as n from executions`)).rows;
    expect(n).toBe(50);

    // Executions created meanwhile land on page 1 and push the rest down a page.
    for (let i = 0; i < 3; i++) journeys.push(await journey(idv));
    const again = await open('backfill');
    expect(again).toMatchObject({ created: false, run: { id: run.id } });
    const done = await executeRun(deps, run.id, { owner: 'test-b' });
    expect(done).toMatchObject({ state: 'completed', owner: null });
    expect(done!.finishedAt).toBeTruthy();
    // What the walk saw: the service as it was when the walk started (the three new executions are
    // above its first page: callbacks and the next incremental run bring them).
    expect(done!.serviceTotal).toBe(120);
    expect(done!.cacheTotal).toBe(120);
    const [count] = await db().select().from(settings).where(eq(settings.key, SERVICE_COUNT_KEY));
    expect(count.value).toMatchObject({ count: 120, source: 'walk' });
    const dup = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from (select execution_id from capability_entries group by execution_id, capability, position having count(*) > 1) d`,
    );
    expect(dup.rows[0].n).toBe(0);
  });

  it('a later backfill stops where it meets what the cache has', async () => {
    const idv = clientFor(sim);
    const fresh = await journey(idv);
    // The walk below caches these as the service has them then, and the comparison at the end
    // reads the service again: each must have finished processing first (a fixed pause can be
    // too short on a loaded machine).
    for (const j of [...journeys, fresh])
      await until(
        () => idv.getStatus(j.accountId, j.executionId),
        (s) => s.workflowExecution.status === 'PROCESSED',
        10_000,
        `${j.executionId} processed`,
        50,
      );
    const { run, created } = await open('backfill');
    expect(created).toBe(true);
    expect(run.stopBefore).toBeTruthy();
    const done = (await executeRun({ db: db(), idv, options: TEST_OPTIONS }, run.id, { owner: 'test' })) as SyncRun;
    expect(done.state).toBe('completed');
    expect(done.nextPage).toBe(2); // one page: the newest, then the cache
    expect(done.serviceTotal).toBeNull();
    const [row] = await db()
      .select({ status: executions.status })
      .from(executions)
      .where(eq(executions.id, fresh.executionId));
    expect(row.status).toBe('PROCESSED');
    await expectCacheMatchesService(db(), idv);
  });

  it('an identical walk writes nothing; a reconciliation marks what the service no longer has', async () => {
    const idv = clientFor(sim);
    // Cached, but unknown to this service: deleted there since.
    const orphan = buildExecution();
    await ingestExecution(db(), {
      result: orphan.result,
      steps: orphan.steps,
      rules: orphan.rules,
      fetchedAt: new Date('2026-01-01'),
    });
    // Deleted at the service (R3): it stays listed, wiped.
    const listed = await idv.listExecutions({ page: 5, size: 1 });
    const victim = listed.workflowExecutions[0];
    await idv.deleteExecution(victim.account.id, victim.workflow.id);

    const { run } = await open('reconcile');
    expect(run.stopBefore).toBeNull();
    const done = (await executeRun({ db: db(), idv, options: TEST_OPTIONS }, run.id, { owner: 'test' })) as SyncRun;
    expect(done.state).toBe('completed');
    expect(done.details).toMatchObject({ reachedEnd: true, gone: 1, missingChecked: 1, counters: { updated: 1 } });
    expect((done.details as { counters: { unchanged: number } }).counters.unchanged).toBe(done.seen - 1);
    expect(done.serviceTotal).toBe(124);
    expect(done.cacheTotal).toBe(124);

    const [gone] = await db().select().from(executions).where(eq(executions.id, orphan.id));
    expect(gone.goneAt).toBeTruthy();
    expect(gone.decisionType).toBe('PASSED'); // decision metadata kept
    expect(gone.firstName).toBeNull(); // personal data dropped
    const [wiped] = await db().select().from(executions).where(eq(executions.id, victim.workflow.id.toLowerCase()));
    expect(wiped.wipedOutAt).toBeTruthy();
    expect(wiped.hasPersonalData).toBe(false);
    expect(wiped.decisionType).toBe(victim.decision?.type);
    await db().delete(executions).where(eq(executions.id, orphan.id));
    await expectCacheMatchesService(db(), idv);
    const runs = await db()
      .select({ id: syncRuns.id })
      .from(syncRuns)
      .where(sql`${syncRuns.finishedAt} is null`);
    expect(runs).toEqual([]);
  });
});
