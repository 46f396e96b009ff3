/**
 * Where the events come from: feedback delivered to and refused by a real simulator, a spike
 * alert that appears in the rollup, a sync run that stops making progress and a service that
 * stops answering. Each event is in the outbox with a delivery for every subscribed endpoint,
 * committed with the change that caused it, and announced once.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db/client';
import { settings, syncRuns, webhookDeliveries, webhookEndpoints, webhookEvents } from '@/lib/db/schema';
import { deliverFeedback } from '@/lib/feedback/deliver';
import { submitFeedback } from '@/lib/feedback/submit';
import { getIdvClient } from '@/lib/server/idv-client';
import { stopBoss } from '@/lib/jobs/boss';
import { ingestMany } from '@/lib/sync/ingest';
import { SERVICE_COUNT_KEY } from '@/lib/sync/runs';
import { createEndpoint } from '@/lib/webhooks/endpoints';
import { WEBHOOK_EVENT_TYPES } from '@/lib/webhooks/event-types';
import { announceSpikes, announceSyncFailures } from '@/lib/sync/watch';
import { trendExecution } from '../support/fixtures/trends';
import {
  createUser,
  firstLabel,
  ingestFromSim,
  processedWithoutFeedback,
  startSim,
  type CachedExecution,
  type Sim,
} from '../support/feedback';

process.env.WEBHOOK_SECRET_KEY ??= 'webhook-test-key-0123456789-0123456789-0123456789';

let s: Sim;
let ex: CachedExecution[];
let analyst: Awaited<ReturnType<typeof createUser>>;
let endpointId: string;

const eventsOf = (type: string, key: string, value: string) =>
  db()
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.type, type), sql`${webhookEvents.payload}->>${key} = ${value}`));
const deliveryOf = (eventId: string) =>
  db()
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.endpointId, endpointId)));

beforeAll(async () => {
  s = await startSim({ seed: 'webhook-events' });
  ex = await ingestFromSim(s, processedWithoutFeedback, 2);
  analyst = await createUser('analyst');
  const admin = await createUser('admin');
  // Not delivered here (no worker runs): the deliveries show the outbox's fan-out.
  const ep = await createEndpoint(admin, {
    url: 'http://127.0.0.1:9/never-called',
    description: 'events test',
    eventTypes: [...WEBHOOK_EVENT_TYPES],
  });
  endpointId = ep.id;
});
afterAll(async () => {
  await db().update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.id, endpointId));
  await stopBoss();
  await s.sim.close();
});

async function submit(e: CachedExecution) {
  const r = await submitFeedback(analyst, firstLabel(e.id));
  expect(r.ok, JSON.stringify(r)).toBe(true);
  return r.ok ? r.data.submissionId : '';
}

describe('feedback', () => {
  it('feedback.delivered commits with the delivered state, without personal data', async () => {
    const id = await submit(ex[0]);
    expect(await eventsOf('feedback.delivered', 'feedbackId', id)).toHaveLength(0);
    expect(await deliverFeedback(db(), id, { refresh: false, log: () => undefined })).toBe('delivered');
    const [ev] = await eventsOf('feedback.delivered', 'feedbackId', id);
    expect(ev.payload).toMatchObject({
      feedbackId: id,
      executionId: ex[0].id,
      outcome: 'FRAUD',
      reason: 'IDENTITY_FRAUD',
      attempts: 1,
      actorUserId: analyst.id,
      approvedByUserId: null,
    });
    expect(JSON.stringify(ev.payload)).not.toContain(analyst.email);
    expect(await deliveryOf(ev.id)).toHaveLength(1);
    // A second job for the same submission changes nothing and announces nothing.
    expect(await deliverFeedback(db(), id, { refresh: false, log: () => undefined })).toBe('nothing_to_do');
    expect(await eventsOf('feedback.delivered', 'feedbackId', id)).toHaveLength(1);
  });

  it('feedback.failed commits with the failed state when the service refuses it for good', async () => {
    // Deleted at the service: R11 answers 404, which no retry can fix.
    await getIdvClient().deleteExecution(ex[1].accountId, ex[1].id);
    const id = await submit(ex[1]);
    expect(await deliverFeedback(db(), id, { refresh: false, log: () => undefined })).toBe('failed');
    const [ev] = await eventsOf('feedback.failed', 'feedbackId', id);
    expect(ev.payload).toMatchObject({
      feedbackId: id,
      executionId: ex[1].id,
      outcome: 'FRAUD',
      serviceStatus: 404,
      actorUserId: analyst.id,
    });
    expect(await deliveryOf(ev.id)).toHaveLength(1);
  });
});

describe('trend.spike', () => {
  it('announces a spike alert once, when it first appears', async () => {
    const key = `wf-spike-${randomUUID().slice(0, 6)}`;
    const day = (d: number, h = 12) => new Date(Date.UTC(2035, 6, d, h)).toISOString();
    // Fifteen quiet days, then a day with 10 rejections out of 20.
    const specs = [
      ...Array.from({ length: 15 }, (_, i) => ({ createdAt: day(i + 1), decision: 'PASSED', definitionKey: key })),
      ...Array.from({ length: 20 }, (_, i) => ({
        createdAt: day(16, i % 24),
        decision: i < 10 ? 'REJECTED' : 'PASSED',
        definitionKey: key,
      })),
    ];
    const now = new Date(Date.UTC(2035, 6, 16, 23));
    await announceSpikes(db(), { now });
    await db().transaction((tx) =>
      ingestMany(
        tx,
        specs.map((x) => ({ ...trendExecution(x), fetchedAt: new Date() })),
      ),
    );
    expect(await announceSpikes(db(), { now })).toBeGreaterThanOrEqual(1);
    const alertId = 'trend.spike:2035-07-16:reject_rate:::';
    const [ev] = await eventsOf('trend.spike', 'alertId', alertId);
    expect(ev.payload).toMatchObject({ day: '2035-07-16', kind: 'reject_rate', count: 10, total: 20, rate: 0.5 });
    expect(await deliveryOf(ev.id)).toHaveLength(1);
    expect(await announceSpikes(db(), { now })).toBe(0);
    expect(await eventsOf('trend.spike', 'alertId', alertId)).toHaveLength(1);
  });
});

describe('sync.failed', () => {
  it('announces a run without progress for longer than the setting, once', async () => {
    const [run] = await db()
      .insert(syncRuns)
      .values({
        kind: `stuck-${randomUUID().slice(0, 6)}`,
        state: 'running',
        updatedAt: sql`now() - interval '45 minutes'`,
      })
      .returning();
    try {
      expect(await announceSyncFailures(db(), 60)).toBe(0);
      await announceSyncFailures(db(), 30);
      const [ev] = await eventsOf('sync.failed', 'runId', String(run.id));
      expect(ev.payload).toMatchObject({ reason: 'stuck', runId: run.id, runKind: run.kind, thresholdMinutes: 30 });
      expect(await deliveryOf(ev.id)).toHaveLength(1);
      await announceSyncFailures(db(), 30);
      expect(await eventsOf('sync.failed', 'runId', String(run.id))).toHaveLength(1);
    } finally {
      await db()
        .update(syncRuns)
        .set({ finishedAt: sql`now()`, state: 'failed' })
        .where(eq(syncRuns.id, run.id));
    }
  });

  it('announces a service that has not answered for longer than the setting, once per outage', async () => {
    const [before] = await db().select().from(settings).where(eq(settings.key, SERVICE_COUNT_KEY));
    const lastAnswer = new Date(Date.now() - 50 * 60_000).toISOString();
    const value = { count: 10, at: lastAnswer, source: 'probe' };
    await db()
      .insert(settings)
      .values({ key: SERVICE_COUNT_KEY, value })
      .onConflictDoUpdate({ target: settings.key, set: { value } });
    try {
      await announceSyncFailures(db(), 30);
      const found = await eventsOf('sync.failed', 'reason', 'unreachable');
      const mine = found.filter((e) => e.payload.since === lastAnswer);
      expect(mine).toHaveLength(1);
      await announceSyncFailures(db(), 30);
      expect(
        (await eventsOf('sync.failed', 'reason', 'unreachable')).filter((e) => e.payload.since === lastAnswer),
      ).toHaveLength(1);
    } finally {
      if (before) await db().update(settings).set({ value: before.value }).where(eq(settings.key, SERVICE_COUNT_KEY));
      else await db().delete(settings).where(eq(settings.key, SERVICE_COUNT_KEY));
    }
  });
});
