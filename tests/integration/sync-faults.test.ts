import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, db, type Db } from '@/lib/db/client';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '@/lib/db/embedded';
import { runMigrations } from '@/lib/db/migrate';
import { callbacks, executions, syncRuns } from '@/lib/db/schema';
import type { IdvClient } from '@/lib/idv/client';
import { QUEUES } from '@/lib/jobs/boss';
import { DEFAULT_FAULTS, type RunningSimulator } from '@/lib/simulator';
import { enqueueRun } from '@/lib/sync/jobs';
import { openRun, type SyncRun } from '@/lib/sync/runs';
import type { SyncWorker } from '@/lib/sync/worker';
import {
  callbackServer,
  clientFor,
  dropQueueSchema,
  expectCacheMatchesService,
  journey,
  queueSchema,
  resetCache,
  startSim,
  startTestWorker,
  TEST_OPTIONS,
} from '../support/sync';
import { waitFor } from '../support/wait';

const SECRET = 'faults-callback-secret-0042';
const settings = { secret: SECRET, allowlist: null, maxBytes: 64 * 1024 };
// Each part stops its workers and servers when it ends, so that none of them writes into the next.
const cleanups: Array<() => Promise<unknown>> = [];
async function cleanUp() {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
}
afterAll(cleanUp);

async function queueIdle(database: Db, schema: string) {
  await waitFor(
    async () => {
      const r = await database.execute<{ n: number }>(
        sql.raw(
          `select count(*)::int as n from "${schema}".job where name = '${QUEUES.fetchExecution}' and state < 'completed' and start_after < now() + interval '2 seconds'`,
        ),
      );
      return r.rows[0].n === 0;
    },
    30_000,
    200,
  );
}

async function runOf(database: Db, id: number): Promise<SyncRun> {
  const [r] = await database.select().from(syncRuns).where(eq(syncRuns.id, id));
  return r;
}

describe('faults injected through the simulator', () => {
  afterAll(cleanUp);
  const schema = queueSchema();
  let sim: RunningSimulator;
  let idv: IdvClient;
  let worker: SyncWorker;

  beforeAll(async () => {
    await resetCache(db());
    sim = await startSim({ executions: 20 });
    idv = clientFor(sim);
    worker = await startTestWorker({
      db: db(),
      idv,
      queueSchema: schema,
    });
    const server = await callbackServer({ db: db(), settings });
    cleanups.push(
      () => worker.stop(),
      () => server.close(),
      () => sim.close(),
      () => dropQueueSchema(db(), schema),
    );
    (globalThis as { __cbUrl?: string }).__cbUrl = server.url(SECRET);
  });

  it('after 5xx, 429 bursts, expiring tokens and dropped and duplicated callbacks, the cache matches the service exactly', async () => {
    const callbackUrl = (globalThis as { __cbUrl?: string }).__cbUrl!;

    Object.assign(sim.faults, { errorRate: 0.05, dropCallbacks: 0.5, duplicateCallbacks: true });
    await Promise.all(Array.from({ length: 5 }, (_, i) => journey(idv, { callbackUrl, variant: i })));
    // The simulator drops each callback at random: with five, all (or none) of them are dropped
    // about one run in thirty. One more journey then makes sure both faults happened.
    await waitFor(async () => sim.stats().callbacksPending === 0, 20_000);
    // Each missing fault gets a journey of its own, and the wait is for that fault's own evidence
    // (a delivered callback's duplicate is posted only after the first post is answered).
    let variant = 5;
    for (const [fault, dropRate] of [
      ['dropped', 1],
      ['duplicate', 0],
    ] as const) {
      if (sim.callbackAttempts().some((a) => a[fault])) continue;
      sim.faults.dropCallbacks = dropRate;
      await journey(idv, { callbackUrl, variant: variant++ });
      await waitFor(async () => sim.callbackAttempts().some((a) => a[fault]), 20_000);
    }
    sim.faults.dropCallbacks = 0.5;
    // Tokens that expire after two seconds (the client holds them longer, so the service refuses
    // them) and a burst of 429s, while the backfill and the callbacks' fetches run. (Not before:
    // the short lifetime applies to the journeys' upload tokens too.)
    Object.assign(sim.faults, { tokenLifetimeSec: 2, errorRate: 0.1 });
    idv.tokens.invalidate();
    const tokensBefore = idv.tokens.tokenRequests;
    await idv.getToken(); // a short-lived token, which the client keeps past its expiry...
    await new Promise((r) => setTimeout(r, 2100)); // ...so the next request is refused (401)
    // One request right away, so the refusal does not depend on how soon a loaded machine's
    // worker picks up the backfill (by then the client may already have refreshed on its own).
    // Random 503s are off for it: the 401 is what it is for; the client fetches a token and retries.
    sim.faults.errorRate = 0;
    await idv.listExecutions({ page: 1, size: 1 });
    expect(sim.stats().byStatus['401'], 'the expired token was refused').toBeGreaterThan(0);
    sim.faults.burst429 = 8;
    // The 503s come at random (5 % of the journeys' requests, 10 % of the backfill's, about a
    // hundred in all): about one run in a thousand would see none. Until one has come (at once if
    // the journeys had one), every request past the 429s gets one; then 10 % again.
    sim.faults.errorRate = 1;
    const { run } = await openRun(db(), 'backfill', {
      overlapMs: TEST_OPTIONS.overlapMs,
      pageSize: TEST_OPTIONS.pageSize,
    });
    await enqueueRun(worker.boss, run.id);
    await waitFor(async () => (sim.stats().byStatus['503'] ?? 0) > 0, 30_000, 5);
    sim.faults.errorRate = 0.1;
    await waitFor(async () => (await runOf(db(), run.id)).state === 'completed', 30_000, 200);

    // Recovery: the service behaves again; what callbacks missed, the poll brings.
    Object.assign(sim.faults, DEFAULT_FAULTS);
    await waitFor(async () => sim.stats().callbacksPending === 0, 20_000);
    await queueIdle(db(), schema);
    await worker.pollNow();
    await queueIdle(db(), schema);

    const stats = sim.stats().byStatus;
    expect(stats['503'], '5xx injected').toBeGreaterThan(0);
    expect(stats['429'], '429 injected').toBeGreaterThan(0);
    expect(stats['401'], 'expired tokens refused').toBeGreaterThan(0);
    expect(idv.tokens.tokenRequests - tokensBefore, 'new tokens fetched after expiry').toBeGreaterThan(1);
    const attempts = sim.callbackAttempts();
    expect(
      attempts.some((a) => a.dropped),
      'callbacks dropped',
    ).toBe(true);
    expect(
      attempts.some((a) => a.duplicate),
      'callbacks duplicated',
    ).toBe(true);
    const [{ n: received }] = await db().select({ n: count() }).from(callbacks);
    expect(received).toBeGreaterThan(0);

    // 20 generated and 5 or 6 journeys (a journey step the test's customer sent again may have made one more).
    expect((await expectCacheMatchesService(db(), idv)).service).toBeGreaterThanOrEqual(25);
  }, 90_000);
});

describe('a worker killed in the middle of a backfill', () => {
  afterAll(cleanUp);
  it('another worker takes over at the next page once the lease runs out; nothing lost, nothing twice', async () => {
    await resetCache(db());
    const schema = queueSchema();
    const sim = await startSim({ executions: 250, faults: { latencyMs: 10 } });
    cleanups.push(
      () => sim.close(),
      () => dropQueueSchema(db(), schema),
    );
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-worker-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    // `npm run worker` as its own process, killed without warning.
    // Node itself with tsx's loader (not the tsx command, which would leave its child running).
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=react-server', 'scripts/worker.ts'], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        JOB_SCHEMA: schema,
        IDV_BASE_URL: sim.url,
        IDV_CLIENT_ID: sim.clientId,
        IDV_CLIENT_SECRET: sim.clientSecret,
        IDV_RETRIEVAL_RATE_PER_SEC: '400',
        IDV_RETRIEVAL_BURST: '20',
        NODE_ENV: 'production',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise((r) => child.once('exit', r));
    cleanups.push(async () => {
      child.kill('SIGKILL');
      await exited;
    });

    const midway = await waitFor(
      async () => {
        const [r] = await db().select().from(syncRuns).where(eq(syncRuns.kind, 'backfill'));
        return r && r.nextPage >= 2 && !r.finishedAt ? r : undefined;
      },
      60_000,
      50,
    ).catch((err) => {
      throw new Error(`${err.message}\n--- worker output ---\n${output}`);
    });
    child.kill('SIGKILL');
    await exited;
    const killed = await runOf(db(), midway.id);
    expect(killed.state).toBe('running');
    expect(killed.owner).toMatch(/^worker:/);
    expect(killed.finishedAt).toBeNull();
    const [{ n: cachedAtKill }] = await db().select({ n: count() }).from(executions);
    expect(cachedAtKill).toBe((killed.nextPage - 1) * killed.pageSize);

    // A second worker, started after the lease ran out, resumes the same run at its next page.
    await new Promise((r) => setTimeout(r, TEST_OPTIONS.leaseMs + 200));
    const idv = clientFor(sim);
    const b = await startTestWorker({
      db: db(),
      idv,
      queueSchema: schema,
      initialSync: true,
    });
    cleanups.push(() => b.stop());
    const done = await waitFor(
      async () => {
        const r = await runOf(db(), midway.id);
        return r.state === 'completed' ? r : undefined;
      },
      60_000,
      100,
    );
    expect(done.owner).toBeNull();
    const counters = done.details?.counters as Record<string, number>;
    // Every execution written exactly once over both workers.
    expect(counters.inserted).toBe(250);
    expect(counters.updated).toBe(0);
    expect(done.serviceTotal).toBe(250);
    expect((await expectCacheMatchesService(db(), idv)).service).toBe(250);
    await b.stop();
  }, 120_000);
});

describe('the database restarted in the middle of a backfill', () => {
  it('the run goes on once the database is back, callbacks work again, and the cache matches the service', async () => {
    const kind = inject('databaseKind');
    const schema = queueSchema();
    const sim = await startSim({ executions: 100, faults: { latencyMs: 10 } });
    cleanups.push(() => sim.close());
    let database: Db;
    let url: string;
    let restart: () => Promise<void>;
    if (kind === 'pglite') {
      // Its own embedded database on disk, stopped and started again on the same folder and port.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-restart-'));
      let embedded: EmbeddedDatabase = await startEmbeddedDatabase({ dataDir: path.join(dir, 'pglite') });
      url = embedded.url;
      await runMigrations(url);
      const port = embedded.port;
      restart = async () => {
        await embedded.close();
        await new Promise((r) => setTimeout(r, 300));
        embedded = await startEmbeddedDatabase({ dataDir: path.join(dir, 'pglite'), port });
      };
      database = createDb(url, 4);
      cleanups.push(async () => {
        await database.$client.end();
        await embedded.close();
        fs.rmSync(dir, { recursive: true, force: true });
      });
    } else {
      // Postgres: every connection of the test database is cut, as a server restart does.
      url = process.env.DATABASE_URL!;
      database = db();
      await resetCache(database);
      restart = async () => {
        await database.execute(
          sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
        );
      };
      cleanups.push(() => dropQueueSchema(db(), schema));
    }
    const idv = clientFor(sim);
    const options = { ...TEST_OPTIONS, runRetryDelaysMs: [200, 500, 1000, 2000, 3000, 5000, 8000] };
    const worker = await startTestWorker({
      db: database,
      url,
      idv,
      options,
      queueSchema: schema,
    });
    cleanups.push(() => worker.stop());
    const server = await callbackServer({ db: database, settings });
    cleanups.push(() => server.close());

    const { run } = await openRun(database, 'backfill', { overlapMs: options.overlapMs, pageSize: options.pageSize });
    await enqueueRun(worker.boss, run.id);
    await waitFor(async () => (await runOf(database, run.id))?.nextPage >= 2, 30_000, 50);
    await restart();
    const done = await waitFor(
      async () => {
        const r = await runOf(database, run.id).catch(() => undefined);
        return r?.state === 'completed' ? r : undefined;
      },
      45_000,
      200,
    );
    expect(done.serviceTotal).toBe(100);

    // The queue works again: a journey's callback is fetched.
    const { executionId } = await journey(idv, { callbackUrl: server.url(SECRET) });
    await waitFor(
      async () => (await database.select().from(executions).where(eq(executions.id, executionId)))[0]?.rawSteps,
      20_000,
      200,
    );
    expect((await expectCacheMatchesService(database, idv)).service).toBe(101);
  }, 120_000);
});
