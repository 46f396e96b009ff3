import { randomUUID } from 'node:crypto';
import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db/client';
import {
  callbacks,
  capabilityEntries,
  credentials,
  executions,
  ruleResults,
  steps,
  syncFailures,
} from '@/lib/db/schema';
import type { IdvClient } from '@/lib/idv/client';
import type { RunningSimulator } from '@/lib/simulator';
import { enqueueFetch } from '@/lib/sync/jobs';
import { refreshExecution } from '@/lib/sync/refresh';
import type { SyncWorker } from '@/lib/sync/worker';
import {
  callbackServer,
  clientFor,
  dropQueueSchema,
  journey,
  queueSchema,
  resetCache,
  serviceDetails,
  startSim,
  startTestWorker,
  TEST_OPTIONS,
} from '../support/sync';
import { waitFor } from '../support/wait';

const SECRET = 'journey-callback-secret-42';
const schema = queueSchema();
const options = { ...TEST_OPTIONS, retryScheduleSec: [0.2, 0.2, 0.3, 0.3] };
let sim: RunningSimulator;
let idv: IdvClient;
let worker: SyncWorker;
let server: Awaited<ReturnType<typeof callbackServer>>;

beforeAll(async () => {
  await resetCache(db());
  sim = await startSim({ executions: 10 });
  idv = clientFor(sim);
  worker = await startTestWorker({
    db: db(),
    idv,
    options,
    queueSchema: schema,
  });
  server = await callbackServer({
    db: db(),
    settings: { secret: SECRET, allowlist: null, maxBytes: 64 * 1024 },
  });
});
afterAll(async () => {
  await worker?.stop();
  await server?.close();
  await sim?.close();
  await dropQueueSchema(db(), schema);
});

/** The cached row of the execution once the cache has it with `status`. */
const cachedWith = async (executionId: string, status: string) =>
  (
    await db()
      .select()
      .from(executions)
      .where(and(eq(executions.id, executionId), eq(executions.status, status)))
  )[0];

async function cachedCounts(id: string) {
  const n = async (table: typeof capabilityEntries | typeof steps | typeof ruleResults | typeof credentials) =>
    (await db().select({ n: count() }).from(table).where(eq(table.executionId, id)))[0].n;
  return {
    entries: await n(capabilityEntries),
    steps: await n(steps),
    rules: await n(ruleResults),
    credentials: await n(credentials),
  };
}

describe('callbacks through the worker', () => {
  it('a journey completed through the API is cached within seconds of its callback, with every capability entry, step and rule', async () => {
    const { accountId, executionId } = await journey(idv, { callbackUrl: server.url(SECRET) });
    const row = await waitFor(async () => {
      const r = await cachedWith(executionId, 'PROCESSED');
      return r?.rawSteps && r?.rawRules ? r : undefined;
    }, 10_000);
    const [cb] = await db().select().from(callbacks).where(eq(callbacks.executionId, executionId));
    expect(cb.processedAt).toBeTruthy();
    expect(cb.error).toBeNull();
    expect(row.updatedAt.getTime() - cb.receivedAt.getTime()).toBeLessThan(3000);

    const service = await serviceDetails(idv, accountId, executionId);
    expect(service.entries).toBeGreaterThan(5);
    expect(await cachedCounts(executionId)).toEqual({
      entries: service.entries,
      steps: service.steps,
      rules: service.rules,
      credentials: service.result.credentials!.length,
    });
    expect(row).toMatchObject({
      decisionType: service.result.decision?.type,
      riskScore: service.result.decision?.risk?.score,
      accountId,
      staleSince: null,
    });
  });

  it('a result not ready when its callback comes is fetched again on the schedule until it is', async () => {
    sim.faults.stallProcessing = true;
    const { accountId, executionId } = await journey(idv);
    // A callback that comes too early: the service still says ACQUIRED.
    const res = await fetch(server.url(SECRET), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflowExecution: { id: executionId, status: 'PROCESSED' }, account: { id: accountId } }),
    });
    expect(res.status).toBe(200);
    await waitFor(() => cachedWith(executionId, 'ACQUIRED'));
    sim.faults.stallProcessing = false;
    const row = await waitFor(async () => {
      const r = await cachedWith(executionId, 'PROCESSED');
      return r?.rawSteps ? r : undefined;
    }, 10_000);
    expect(row.decisionType).toBeTruthy();
    expect((await cachedCounts(executionId)).steps).toBeGreaterThan(0);
  });

  it('a 404 right after a callback is tried again on the schedule, then recorded as a failure', async () => {
    const executionId = randomUUID();
    const before = sim.stats().byStatus['404'] ?? 0;
    await enqueueFetch(worker.boss, { executionId, accountId: randomUUID(), reason: 'callback', attempt: 0 });
    const failure = await waitFor(
      async () =>
        (
          await db()
            .select()
            .from(syncFailures)
            .where(and(eq(syncFailures.executionId, executionId), isNull(syncFailures.resolvedAt)))
        )[0],
      15_000,
    );
    expect(failure).toMatchObject({ state: 'failed', error: expect.stringMatching(/does not know/) });
    // The first try and one per step of the schedule.
    expect((sim.stats().byStatus['404'] ?? 0) - before).toBe(options.retryScheduleSec.length + 1);
    const [cached] = await db().select().from(executions).where(eq(executions.id, executionId));
    expect(cached).toBeUndefined();
  });

  it('refresh now fetches one execution at once; a deletion at the service keeps its decision and drops personal data', async () => {
    const { accountId, executionId } = await journey(idv, { callbackUrl: server.url(SECRET) });
    await waitFor(() => cachedWith(executionId, 'PROCESSED'), 10_000);
    await idv.setFeedback(accountId, executionId, { status: 'NOT_FRAUD', reason: 'NA' });
    const refreshed = await refreshExecution(worker.deps, executionId);
    expect(refreshed).toMatchObject({ kind: 'refreshed', status: 'PROCESSED', complete: true, changed: true });
    const [row] = await db().select().from(executions).where(eq(executions.id, executionId));
    expect(row.feedbackStatus).toBe('NOT_FRAUD');
    expect(await refreshExecution(worker.deps, executionId)).toMatchObject({ kind: 'refreshed', changed: false });

    await idv.deleteAccount(accountId);
    expect(await refreshExecution(worker.deps, executionId)).toMatchObject({ kind: 'refreshed' });
    const [wiped] = await db().select().from(executions).where(eq(executions.id, executionId));
    expect(wiped).toMatchObject({
      decisionType: row.decisionType,
      riskScore: row.riskScore,
      hasPersonalData: false,
      firstName: null,
      documentNumber: null,
    });
    expect(wiped.wipedOutAt).toBeTruthy();
    expect(await refreshExecution(worker.deps, randomUUID())).toEqual({ kind: 'not-cached' });
  });
});
