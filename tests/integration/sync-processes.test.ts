/**
 * Several sync workers as real processes (`npm run worker`, scripts/worker.ts) on one database:
 * the service's rate limits hold for all of them together, and a worker stopped with SIGTERM in
 * the middle of a backfill loses nothing and the next worker finishes it.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type PgBoss from 'pg-boss';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { db } from '@/lib/db/client';
import { syncRuns } from '@/lib/db/schema';
import { createBoss } from '@/lib/jobs/boss';
import { generateExecution, type RunningSimulator } from '@/lib/simulator';
import { enqueueFetch } from '@/lib/sync/jobs';
import { startScript, type ChildRun } from '../support/processes';
import { until } from '../support/wait';
import {
  ANCHOR,
  clientFor,
  dropQueueSchema,
  expectCacheMatchesService,
  queueSchema,
  resetCache,
  startSim,
} from '../support/sync';

let sim: RunningSimulator | undefined;
let boss: PgBoss | undefined;
let schema = '';
const children: ChildRun[] = [];

function startWorkerProcess(over: Record<string, string> = {}): ChildRun {
  const child = startScript('scripts/worker.ts', {
    DATABASE_URL: process.env.DATABASE_URL!,
    JOB_SCHEMA: schema,
    IDV_BASE_URL: sim!.url,
    IDV_CLIENT_ID: sim!.clientId,
    IDV_CLIENT_SECRET: sim!.clientSecret,
    IDV_USER_AGENT: 'Verdict tests/1.0',
    DATA_DIR: path.join(os.tmpdir(), `verdict-test-${randomUUID()}`),
    ...over,
  });
  children.push(child);
  return child;
}

async function stopWorker(w: ChildRun): Promise<{ code: number; granted: Record<string, number>; tokens: number }> {
  w.child.kill('SIGTERM');
  const code = await w.exited;
  const m = /Requests to the service: ([^;]+); token requests (\d+)/.exec(w.output());
  if (!m) throw new Error(`no summary from the worker:\n${w.output().slice(-2000)}`);
  const granted = Object.fromEntries(
    m[1].split(', ').map((p) => {
      const [k, v] = p.split(' ');
      return [k, Number(v)];
    }),
  );
  return { code, granted, tokens: Number(m[2]) };
}

const runOf = async (id: number) => (await db().select().from(syncRuns).where(eq(syncRuns.id, id)))[0];
const backfill = async () =>
  (await db().select().from(syncRuns).where(eq(syncRuns.kind, 'backfill')).orderBy(syncRuns.id))[0];
const openJobs = async (state: string) =>
  (
    await db().execute<{ n: number }>(
      sql.raw(`select count(*)::int as n from "${schema}".job where name like 'sync.%' and state ${state}`),
    )
  ).rows[0].n;

beforeEach(async () => {
  await resetCache(db());
  schema = queueSchema();
});
afterEach(async () => {
  for (const c of children.splice(0)) c.kill();
  await boss?.stop({ graceful: false }).catch(() => undefined);
  boss = undefined;
  await sim?.close();
  sim = undefined;
  await dropQueueSchema(db(), schema);
});
afterAll(() => resetCache(db()));

// Worker processes connect to the run's database over the wire, which works for the embedded
// database too (its wire-protocol server takes connections from any process); every process
// still sees one database.
describe(`sync workers as processes (${inject('databaseKind')})`, () => {
  it('two workers keep to the service rate limits together: no 429, within 15 retrievals/s', async () => {
    // The service's rate with a burst of 5, not the simulator's usual 60: two workers sending
    // 15/s each would empty it within a third of a second.
    sim = await startSim({
      executions: 100,
      rateLimits: { retrievalPerSec: 15, retrievalBurst: 5, tokenPerSec: 10, accountPerSec: 1, accountBurst: 5 },
    });
    const a = startWorkerProcess();
    const b = startWorkerProcess();
    await Promise.all([a.waitFor(/Sync worker running/), b.waitFor(/Sync worker running/)]);

    // Besides the start-up backfill (one run, one worker), fetches for both workers to share.
    boss = await createBoss({ schema, worker: false });
    for (let i = 0; i < 40; i++) {
      const e = generateExecution(sim.seed, i, { count: sim.executions, days: 90, anchor: ANCHOR });
      await enqueueFetch(boss, {
        executionId: e.result.workflow.id,
        accountId: e.result.account.id,
        reason: 'poll',
        attempt: 0,
      });
    }
    await until(
      async () => ({ run: (await backfill())?.state, open: await openJobs("< 'completed'") }),
      (v) => v.run === 'completed' && v.open === 0,
      90_000,
      'the backfill and the fetches',
      250,
    );
    const rates = sim.stats().rates;
    const stoppedA = await stopWorker(a);
    const stoppedB = await stopWorker(b);

    expect(rates.retrieval.rejected, 'retrieval 429s').toBe(0);
    expect(sim.stats().byStatus['429']).toBeUndefined();
    // Within the limit: never more in one second than the bucket admits (15 sustained + its burst of
    // 5; the simulator stamps a request when its handler runs, so its own pauses bunch a few), and
    // over the whole backfill no more than the bucket admits: 15 a second plus its burst of 5 (a
    // mean of exactly 15/s is not the bound: one request stamped a few ms late shortens the span).
    expect(rates.retrieval.peakPerSec, 'most retrievals the service saw in one second').toBeLessThanOrEqual(20);
    const span = (rates.retrieval.requests - 1) / rates.retrieval.meanPerSec!;
    expect(span, 'seconds from the first retrieval to the last').toBeGreaterThan(3);
    expect(rates.retrieval.requests - 1, 'retrievals after the first').toBeLessThanOrEqual(15 * span + 5);
    expect(rates.token.rejected).toBe(0);
    // Both workers did share the work, and each fetched its token once.
    expect(stoppedA.granted.retrieval).toBeGreaterThan(0);
    expect(stoppedB.granted.retrieval).toBeGreaterThan(0);
    expect(stoppedA.granted.retrieval + stoppedB.granted.retrieval).toBe(rates.retrieval.requests);
    expect([stoppedA.tokens, stoppedB.tokens]).toEqual([1, 1]);
    expect([stoppedA.code, stoppedB.code]).toEqual([0, 0]);
    await expectCacheMatchesService(db(), clientFor(sim));
  }, 150_000);

  it('SIGTERM mid-backfill: the worker exits 0, loses nothing, and the next worker finishes the run', async () => {
    sim = await startSim({ executions: 400, rateLimits: false });
    const fast = { IDV_RETRIEVAL_RATE_PER_SEC: '400', IDV_RETRIEVAL_BURST: '20' };
    const a = startWorkerProcess(fast);
    await a.waitFor(/Sync worker running/);
    const run = await until(backfill, (r) => r !== undefined && r.nextPage >= 2, 60_000, 'a page of the backfill', 50);
    const stopped = await stopWorker(a);
    expect(stopped.code).toBe(0);
    expect(a.output()).toMatch(/SIGTERM: stopping/);

    const cut = await runOf(run.id);
    expect(cut).toMatchObject({ state: 'interrupted', owner: null, finishedAt: null });
    expect(cut.nextPage).toBeLessThanOrEqual(4);
    // Nothing left claimed by the stopped worker: the run is queued again for whoever comes next.
    expect(await openJobs("= 'active'")).toBe(0);
    expect(await openJobs("= 'created'")).toBeGreaterThanOrEqual(1);

    const b = startWorkerProcess(fast);
    await b.waitFor(/Sync worker running/);
    const done = await until(
      () => runOf(run.id),
      (r) => r.state === 'completed',
      90_000,
      'the resumed run',
      200,
    );
    expect(done.serviceTotal).toBe(400);
    expect((await stopWorker(b)).code).toBe(0);
    expect((await expectCacheMatchesService(db(), clientFor(sim))).service).toBe(400);
  }, 180_000);
});
