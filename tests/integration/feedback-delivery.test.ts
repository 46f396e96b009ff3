/**
 * Delivery of stored feedback to a real simulator over HTTP: outages (5xx and a stopped
 * service), worker restarts, permanent 4xx with the service's detail and a retry, duplicate
 * jobs and a crashed worker's claim. "Not sent twice" is checked by counting the simulator's
 * accepted R11 writes.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db/client';
import { auditLog, executions, feedbackEvents, feedbackSubmissions } from '@/lib/db/schema';
import { deliverFeedback, rescueStuckFeedback } from '@/lib/feedback/deliver';
import { retryDelayMs } from '@/lib/jobs/backoff';
import { retryFeedback } from '@/lib/feedback/decide';
import { submitFeedback } from '@/lib/feedback/submit';
import type { FeedbackWorkerOptions } from '@/lib/feedback/worker';
import { IdvHttpError } from '@/lib/idv';
import { getIdvClient } from '@/lib/server/idv-client';
import { getBoss, QUEUES, stopBoss } from '@/lib/jobs/boss';
import {
  createUser,
  firstLabel,
  ingestFromSim,
  newKey,
  serviceFeedback,
  startFeedbackWorkers,
  startSim,
  startWithUnlabelled,
  stateOf,
  stopQueueAndSim,
  until,
  untilDelivered,
  type CachedExecution,
  type Sim,
  type TestUser,
} from '../support/feedback';

let s: Sim;
let ex: CachedExecution[];
let analyst: TestUser;

// Short retry delays, so a failed attempt is retried within a test's wait.
const startWorkers = (opts: Partial<FeedbackWorkerOptions> = {}) =>
  startFeedbackWorkers({ retryBaseMs: 300, retryMaxMs: 1_000, ...opts });

async function submit(
  e: CachedExecution,
  status: 'FRAUD' | 'NOT_FRAUD' | 'NA' = 'FRAUD',
  reason: 'IDENTITY_FRAUD' | undefined = 'IDENTITY_FRAUD',
) {
  const r = await submitFeedback(analyst, firstLabel(e.id, status, status === 'FRAUD' ? reason : undefined));
  expect(r.ok, JSON.stringify(r)).toBe(true);
  return r.ok ? r.data.submissionId : '';
}

const eventKinds = async (submissionId: string) =>
  (
    await db()
      .select({ kind: feedbackEvents.kind })
      .from(feedbackEvents)
      .where(eq(feedbackEvents.submissionId, submissionId))
      .orderBy(feedbackEvents.id)
  ).map((e) => e.kind);

beforeAll(async () => {
  ({ s, ex } = await startWithUnlabelled('feedback-delivery', 10));
  analyst = await createUser('analyst');
});
afterAll(() => stopQueueAndSim(s));

describe('retries', () => {
  it('backs off exponentially with jitter, capped, and honours a longer Retry-After', () => {
    expect(retryDelayMs(1, 5000, 600_000, undefined, () => 0.5)).toBe(5000);
    expect(retryDelayMs(4, 5000, 600_000, undefined, () => 0.5)).toBe(40_000);
    expect(retryDelayMs(30, 5000, 600_000, undefined, () => 1)).toBe(600_000);
    expect(retryDelayMs(1, 5000, 600_000, 30_000, () => 0)).toBe(30_000);
  });

  it('with the service answering 503, feedback stays pending; after recovery and a worker restart it is delivered exactly once', async () => {
    const e = ex[0];
    s.sim.faults.errorRate = 1;
    const id = await submit(e);
    const stop = await startWorkers();
    const waiting = await until(
      () => stateOf(id),
      (x) => x.attempts >= 2 && x.state === 'pending',
      20_000,
      'two failed attempts',
    );
    expect(waiting.lastError).toMatchObject({ status: 503, permanent: false });
    expect(waiting.nextAttemptAt).toBeTruthy();
    const [row] = await db().select({ d: executions.feedbackDelivery }).from(executions).where(eq(executions.id, e.id));
    expect(row.d).toBe('pending');

    // The worker goes away (graceful stop of the whole queue), the service recovers meanwhile.
    await stop();
    await stopBoss();
    s.sim.faults.errorRate = 0;
    expect((await stateOf(id)).state).toBe('pending');
    expect(s.writes.get(e.id)).toBeUndefined();

    const stop2 = await startWorkers();
    try {
      const done = await untilDelivered(id, 'delivery after recovery');
      expect(done.lastError).toBeNull();
      expect(await serviceFeedback(e)).toMatchObject({ status: 'FRAUD', reason: 'IDENTITY_FRAUD' });
      // Let any stray job run out before counting.
      await new Promise((r) => setTimeout(r, 1500));
      expect(s.writes.get(e.id)).toBe(1);
      const kinds = await eventKinds(id);
      expect(kinds.filter((k) => k === 'attempt_failed').length).toBeGreaterThanOrEqual(2);
      expect(kinds.filter((k) => k === 'delivered')).toHaveLength(1);
    } finally {
      await stop2();
    }
  });

  it('with the service down (connection refused), feedback stays pending and is delivered once it is back on the same address', async () => {
    const e = ex[1];
    const port = s.options.port;
    await s.sim.close();
    const id = await submit(e, 'NOT_FRAUD');
    const stop = await startWorkers();
    try {
      const waiting = await until(
        () => stateOf(id),
        (x) => x.attempts >= 2 && x.state === 'pending',
        20_000,
        'failed attempts while down',
      );
      expect(waiting.lastError?.title).toBe('Service unreachable');
      await startSim({ port }, s);
      const done = await untilDelivered(id, 'delivery after restart');
      expect(done.attempts).toBeGreaterThanOrEqual(3);
      expect(await serviceFeedback(e)).toMatchObject({ status: 'NOT_FRAUD' });
      await new Promise((r) => setTimeout(r, 1000));
      expect(s.writes.get(e.id)).toBe(1);
    } finally {
      await stop();
    }
  });
});

describe('permanent refusals', () => {
  it('a 4xx marks it failed with the service detail; retry sends it again and it is delivered once the cause is gone', async () => {
    const e = ex[2];
    // The first call is refused as the service refuses feedback on an execution it cannot label; then the real client.
    let refuse = true;
    const idv = () => {
      const real = getIdvClient();
      return new Proxy(real, {
        get(target, prop, receiver) {
          if (prop === 'setFeedback' && refuse) {
            return async () => {
              refuse = false;
              throw new IdvHttpError({
                operation: 'R11 setFeedback',
                method: 'PUT',
                url: 'x',
                status: 400,
                body: {
                  title: 'Bad Request',
                  status: 400,
                  detail: 'Feedback can be set only on a PROCESSED workflow execution; it is ACQUIRED',
                },
                attempts: 1,
              });
            };
          }
          return Reflect.get(target, prop, receiver);
        },
      });
    };
    const id = await submit(e);
    expect(await deliverFeedback(db(), id, { idv, log: () => undefined })).toBe('failed');
    const failed = await stateOf(id);
    expect(failed).toMatchObject({ state: 'failed', attempts: 1 });
    expect(failed.lastError).toMatchObject({
      status: 400,
      title: 'Bad Request',
      detail: 'Feedback can be set only on a PROCESSED workflow execution; it is ACQUIRED',
      permanent: true,
    });
    const [row] = await db().select({ d: executions.feedbackDelivery }).from(executions).where(eq(executions.id, e.id));
    expect(row.d).toBe('failed');
    const [denied] = await db()
      .select()
      .from(auditLog)
      .where(sql`${auditLog.action} = 'feedback.delivery_failed' and ${auditLog.details}->>'submissionId' = ${id}`);
    expect(denied.outcome).toBe('failure');
    // A job for a failed submission sends nothing.
    expect(await deliverFeedback(db(), id, { log: () => undefined })).toBe('nothing_to_do');
    expect(s.writes.get(e.id)).toBeUndefined();

    const r = await retryFeedback(analyst, id);
    expect(r.ok).toBe(true);
    expect((await retryFeedback(analyst, id)).ok).toBe(false);
    const stop = await startWorkers();
    try {
      await untilDelivered(id, 'delivery after retry');
      expect(s.writes.get(e.id)).toBe(1);
      expect(
        await until(
          () => eventKinds(id),
          (k) => k.includes('refreshed'),
          10_000,
          'refresh',
        ),
      ).toEqual(['submitted', 'failed', 'retried', 'delivered', 'refreshed']);
      const [retryAudit] = await db()
        .select()
        .from(auditLog)
        .where(sql`${auditLog.action} = 'feedback.retry' and ${auditLog.details}->>'submissionId' = ${id}`);
      expect(retryAudit.actorId).toBe(analyst.id);
    } finally {
      await stop();
    }
  });

  it('the real simulator refusing (execution not PROCESSED) shows its detail', async () => {
    const [notProcessed] = await ingestFromSim(s, (r) => r.status !== 'PROCESSED' && !r.wiped, 1);
    const id = await submit(notProcessed, 'NOT_FRAUD');
    expect(await deliverFeedback(db(), id, { log: () => undefined, refresh: false })).toBe('failed');
    const failed = await stateOf(id);
    expect(failed.lastError).toMatchObject({ status: 400, permanent: true });
    expect(failed.lastError?.detail).toMatch(/PROCESSED/);
  });
});

describe('never two deliveries of one submission', () => {
  it('extra jobs for the same submission, processed in parallel, send it once', async () => {
    const e = ex[3];
    const id = await submit(e);
    const boss = await getBoss();
    for (let i = 0; i < 4; i++) await boss.send(QUEUES.deliverFeedback, { feedbackId: id });
    const stop = await startWorkers({ concurrency: 4 });
    try {
      await untilDelivered(id, 'delivery');
      await new Promise((r) => setTimeout(r, 2000));
      expect(s.writes.get(e.id)).toBe(1);
      expect((await stateOf(id)).attempts).toBe(1);
    } finally {
      await stop();
    }
  });

  it('direct concurrent calls claim once', async () => {
    const e = ex[4];
    const id = await submit(e);
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => deliverFeedback(db(), id, { log: () => undefined, refresh: false })),
    );
    expect(outcomes.filter((o) => o === 'delivered')).toHaveLength(1);
    expect(s.writes.get(e.id)).toBe(1);
  });

  it('a claim left by a crashed worker is taken over after its lease; a fresh claim is not', async () => {
    const e = ex[5];
    const id = await submit(e);
    // Simulate a worker that claimed the submission and died before recording anything.
    await db()
      .update(feedbackSubmissions)
      .set({ state: 'delivering', attempts: 1, lastAttemptAt: new Date() })
      .where(eq(feedbackSubmissions.id, id));
    expect(await deliverFeedback(db(), id, { log: () => undefined, refresh: false })).toBe('nothing_to_do');
    // The rescue walks every stalled submission in the database, other files' too (one they left
    // pending without a job counts once it is two minutes old): its own events say what it did
    // to this one.
    const rescued = async () => (await eventKinds(id)).filter((k) => k === 'rescued').length;
    await rescueStuckFeedback(db(), { log: () => undefined });
    expect(await rescued()).toBe(0);
    await db()
      .update(feedbackSubmissions)
      .set({ lastAttemptAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(feedbackSubmissions.id, id));
    await db().execute(
      sql`delete from pgboss.job where name = ${QUEUES.deliverFeedback} and data->>'feedbackId' = ${id}`,
    );
    expect(await rescueStuckFeedback(db(), { log: () => undefined })).toBeGreaterThanOrEqual(1);
    expect(await rescued()).toBe(1);
    const stop = await startWorkers();
    try {
      await untilDelivered(id, 'delivery after rescue');
      expect(s.writes.get(e.id)).toBe(1);
      expect(await eventKinds(id)).toContain('rescued');
    } finally {
      await stop();
    }
  });

  it('labels of one execution reach the service in the order given', async () => {
    const e = ex[6];
    const first = await submit(e, 'FRAUD');
    // The first is being sent when the second arrives: it cannot be superseded, so the second waits for it.
    await db()
      .update(feedbackSubmissions)
      .set({ state: 'delivering', lastAttemptAt: new Date() })
      .where(eq(feedbackSubmissions.id, first));
    const second = await submitFeedback(analyst, {
      executionId: e.id,
      status: 'NOT_FRAUD',
      version: first,
      idempotencyKey: newKey(),
    });
    expect(second.ok).toBe(true);
    const secondId = second.ok ? second.data.submissionId : '';
    expect(await deliverFeedback(db(), secondId, { log: () => undefined, refresh: false })).toBe('busy');
    expect(s.writes.get(e.id)).toBeUndefined();
    await db().update(feedbackSubmissions).set({ state: 'delivered' }).where(eq(feedbackSubmissions.id, first));
    expect(await deliverFeedback(db(), secondId, { log: () => undefined, refresh: false })).toBe('delivered');
    expect(await serviceFeedback(e)).toMatchObject({ status: 'NOT_FRAUD' });
  });
});
