/**
 * Outgoing webhooks against real HTTP receivers on 127.0.0.1: signatures checked with the
 * `standardwebhooks` library, a receiver that fails (503, down, up again) across a worker
 * restart, 429 with Retry-After, 410, a slow receiver beside a fast one, giving up after the
 * retry window, and secret rotation. "Exactly once" is counted at the receiver, per webhook-id.
 */
import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db/client';
import { auditLog, users, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from '@/lib/db/schema';
import { getBoss, stopBoss } from '@/lib/jobs/boss';
import type { WebhookEventType } from '@/lib/webhooks/event-types';
import { createEndpoint, replayDeliveries, rotateEndpointSecret, sendTestEvent } from '@/lib/webhooks/endpoints';
import { UNREACHABLE } from '@/lib/webhooks/deliver';
import { outboundPolicyFromEnv } from '@/lib/webhooks/outbound';
import { emitEvent } from '@/lib/webhooks/outbox';
import { generateSecret } from '@/lib/server/secret-box';
import { registerWebhookWorkers, type WebhookWorker, type WebhookSettings } from '@/lib/webhooks/worker';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { until } from '../support/wait';

process.env.WEBHOOK_SECRET_KEY ??= 'webhook-test-key-0123456789-0123456789-0123456789';

const fast: WebhookSettings = {
  concurrency: 3,
  pollingIntervalSeconds: 0.5,
  pumpIntervalMs: 100,
  retryBaseMs: 200,
  retryMaxMs: 600,
  busyDelayMs: 100,
  timeoutMs: 2_000,
  log: () => undefined,
  // The receivers run on this machine, which a deployment refuses unless allowed (webhooks-outbound.test.ts).
  outbound: outboundPolicyFromEnv({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }),
};

// How long one stage of a delivery test may take to make its progress. Generous: on the embedded
// database under the whole parallel suite, the first stage of the 503 / down / up test once took
// over 40 s (the whole test 55 s when it passed); the tests check exactly-once, not speed.
const STAGE_MS = 90_000;

let admin: { id: string; email: string };
const receivers: WebhookReceiver[] = [];
let worker: WebhookWorker | null = null;

async function startWorker(over: WebhookSettings = {}) {
  worker = await registerWebhookWorkers(await getBoss(), { db: db(), ...fast, ...over });
}
async function stopWorker() {
  await worker?.stop();
  worker = null;
}
async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}
async function endpoint(url: string, eventTypes: WebhookEventType[] = ['case.resolved']) {
  return createEndpoint(admin, { url, description: 'test receiver', eventTypes });
}

const caseResolved = (over: Record<string, unknown> = {}) => ({
  caseId: randomUUID(),
  executionId: randomUUID(),
  queue: 'fraud-review',
  outcome: 'REJECTED',
  reason: 'DOCUMENT_FORGED',
  decision: 'REJECTED',
  resolvedAt: new Date().toISOString(),
  actorUserId: admin.id,
  ...over,
});

async function emit(n: number, type: WebhookEventType = 'case.resolved'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push(await db().transaction((tx) => emitEvent(tx, type as 'case.resolved', caseResolved())));
  return ids;
}

/** Waits until `r` has received `n` requests in all; `what` names the wait in a timeout. */
const requestsReach = (r: WebhookReceiver, n: number, what: string) =>
  until(
    () => Promise.resolve(r.requests.length),
    (k) => k === n,
    10_000,
    what,
  );
const deliveriesOf = (endpointId: string) =>
  db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
const attemptsOf = (endpointId: string) =>
  db().select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, endpointId)).orderBy(webhookAttempts.id);
const allIn = (state: string) => (rows: Array<{ state: string }>) =>
  rows.length > 0 && rows.every((r) => r.state === state);

beforeAll(async () => {
  await getBoss();
  // The run's database is shared by every file: endpoints another file left enabled would get this
  // file's events too, and their deliveries would take this file's workers' turns.
  await db().update(webhookEndpoints).set({ enabled: false });
  await db()
    .update(webhookDeliveries)
    .set({ state: 'cancelled' })
    .where(inArray(webhookDeliveries.state, ['pending', 'queued', 'delivering']));
  const [u] = await db()
    .insert(users)
    .values({ email: `admin-${randomUUID().slice(0, 8)}@webhooks.test`, name: 'Webhook admin', role: 'admin' })
    .returning({ id: users.id, email: users.email });
  admin = u;
});
afterEach(async () => {
  await stopWorker();
  // Endpoints of one test must not receive the next one's events.
  await db().update(webhookEndpoints).set({ enabled: false });
  for (const r of receivers.splice(0)) await r.stop();
});
afterAll(async () => {
  await stopBoss();
});

describe('delivery', () => {
  it('delivers an event once, signed so that the library verifies it and a wrong secret fails', async () => {
    const r = await receiver();
    const ep = await endpoint(r.url, ['case.resolved', 'feedback.delivered']);
    expect(ep.secret).toMatch(/^whsec_/);
    const [stored] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id));
    expect(stored.secretEnc).not.toContain(ep.secret.slice(6));

    const payload = caseResolved();
    const id = await db().transaction((tx) => emitEvent(tx, 'case.resolved', payload));
    await startWorker();
    await until(() => deliveriesOf(ep.id), allIn('delivered'), 10_000, 'delivered');

    expect(r.requests).toHaveLength(1);
    const q = r.requests[0];
    expect(q.headers['webhook-id']).toBe(id);
    expect(q.headers['content-type']).toBe('application/json');
    const verified = new Webhook(ep.secret).verify(q.body, q.headers) as Record<string, unknown>;
    expect(verified).toMatchObject({ type: 'case.resolved', data: payload });
    expect(() => new Webhook(generateSecret()).verify(q.body, q.headers)).toThrow(WebhookVerificationError);
    // A changed body does not verify either.
    expect(() => new Webhook(ep.secret).verify(q.body.replace('REJECTED', 'PASSED'), q.headers)).toThrow(
      WebhookVerificationError,
    );

    const log = await attemptsOf(ep.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ eventId: id, status: 200, attempt: 1, responseExcerpt: 'ok' });
    expect(log[0].latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('refuses a payload with a key outside its schema, and the transaction with it', async () => {
    const before = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookEvents);
    await expect(
      db().transaction((tx) =>
        emitEvent(tx, 'case.resolved', { ...caseResolved(), email: 'jane@example.com' } as never),
      ),
    ).rejects.toThrow();
    const after = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookEvents);
    expect(after[0].n).toBe(before[0].n);
  });

  it(
    'with the receiver at 503, then down, then up again and the worker restarted, delivers each event exactly once',
    async () => {
      const r = await receiver({ status: 503 });
      const ep = await endpoint(r.url);
      const ids = await emit(4);
      await startWorker();
      const attemptedWith = async (pred: (a: typeof webhookAttempts.$inferSelect) => boolean) => {
        const log = await attemptsOf(ep.id);
        return ids.every((id) => log.some((a) => a.eventId === id && pred(a)));
      };
      await until(() => attemptedWith((a) => a.status === 503), Boolean, STAGE_MS, 'a 503 for every event');
      await stopWorker();

      await r.stop();
      await startWorker();
      await until(
        () => attemptedWith((a) => a.status === null && a.error === UNREACHABLE),
        Boolean,
        STAGE_MS,
        'a refused connection for every event',
      );
      await stopWorker();
      expect(r.accepted().size).toBe(0);

      r.mode = { status: 204 };
      await r.start();
      await startWorker();
      await until(() => deliveriesOf(ep.id), allIn('delivered'), STAGE_MS, 'all delivered');

      const accepted = r.accepted();
      expect([...accepted.keys()].sort()).toEqual([...ids].sort());
      for (const id of ids) expect(accepted.get(id)).toBe(1);
      // Every request of an event carried the same webhook-id and verified.
      for (const q of r.requests) {
        expect(ids).toContain(q.headers['webhook-id']);
        expect(() => new Webhook(ep.secret).verify(q.body, q.headers)).not.toThrow();
      }
      const log = await attemptsOf(ep.id);
      for (const id of ids) {
        const mine = log.filter((a) => a.eventId === id);
        expect(mine.filter((a) => a.status === 204)).toHaveLength(1);
        expect(mine.some((a) => a.status === 503)).toBe(true);
        expect(mine.some((a) => a.error === UNREACHABLE)).toBe(true);
      }
      // Three stages of up to STAGE_MS each, every retry on its backoff: longer than the 30 s default.
    },
    3 * STAGE_MS + 30_000,
  );

  it('waits as long as a 429 asks (Retry-After), then delivers', async () => {
    const r = await receiver({ status: 429, headers: { 'retry-after': '2' } });
    const ep = await endpoint(r.url);
    await emit(1);
    await startWorker();
    await until(
      () => attemptsOf(ep.id),
      (l) => l.length === 1,
      10_000,
      'first attempt',
    );
    const [d] = await deliveriesOf(ep.id);
    expect(d.state).toBe('queued');
    expect(d.nextAttemptAt.getTime() - r.requests[0].at).toBeGreaterThanOrEqual(1_500);
    r.mode = { status: 200 };
    await until(() => deliveriesOf(ep.id), allIn('delivered'), 10_000, 'delivered after Retry-After');
    expect(r.requests[1].at - r.requests[0].at).toBeGreaterThanOrEqual(1_800);
  });

  it('disables an endpoint that answers 410 and sends it nothing more', async () => {
    const r = await receiver({ status: 410 });
    const ep = await endpoint(r.url);
    await emit(1);
    await startWorker();
    await until(
      () => db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id)),
      (rows) => rows[0]?.enabled === false,
      10_000,
      'disabled',
    );
    const [e] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id));
    expect(e.disabledReason).toMatch(/410/);
    expect((await deliveriesOf(ep.id))[0]).toMatchObject({ state: 'failed', lastStatus: 410 });
    const audit = await db().select().from(auditLog).where(eq(auditLog.targetId, ep.id));
    expect(audit.map((a) => a.action)).toContain('webhook.endpoint_disabled');
    await emit(2);
    expect(await deliveriesOf(ep.id)).toHaveLength(1);
    expect(r.requests).toHaveLength(1);
  });

  it('gives a delivery up once its retry window has passed', async () => {
    const r = await receiver({ status: 500 });
    const ep = await endpoint(r.url);
    await emit(1);
    await startWorker({ retryForMs: 1_000 });
    await until(() => deliveriesOf(ep.id), allIn('failed'), 10_000, 'failed');
    const [d] = await deliveriesOf(ep.id);
    expect(d.lastError).toMatch(/^Gave up after \d+ attempts: HTTP 500/);
    expect(d.attempts).toBeGreaterThanOrEqual(2);
  });

  it('a receiver that answers in 30 s does not hold up another endpoint', async () => {
    const slow = await receiver({ slowMs: 30_000 });
    const quick = await receiver({ status: 200 });
    const a = await endpoint(slow.url);
    const b = await endpoint(quick.url);
    const ids = await emit(3);
    await startWorker({ timeoutMs: 5_000, concurrency: 2 });
    await until(
      () => Promise.resolve(slow.requests.length),
      (n) => n >= 1,
      10_000,
      'the slow request in flight',
    );
    await until(() => deliveriesOf(b.id), allIn('delivered'), 10_000, 'the quick endpoint delivered');
    // All three reached the quick receiver while the slow one still held its first request.
    expect(quick.accepted().size).toBe(3);
    expect(await attemptsOf(a.id)).toHaveLength(0);
    expect(slow.requests).toHaveLength(1);
    expect(slow.requests[0].answered).toBeNull();

    await until(
      () => attemptsOf(a.id),
      (l) => l.length >= 1,
      10_000,
      'the slow attempt timed out',
    );
    const [first] = await attemptsOf(a.id);
    expect(first).toMatchObject({ status: null, error: UNREACHABLE });
    expect(first.latencyMs).toBeGreaterThanOrEqual(4_900);
    expect(ids).toContain(first.eventId);
    // One request in flight per endpoint: the slow receiver never saw two at once.
    const overlapping = slow.requests.filter((q, i) => i > 0 && q.at - slow.requests[i - 1].at < 4_900);
    expect(overlapping).toHaveLength(0);
  });
});

describe('endpoint operations', () => {
  it('signs with both secrets during a rotation overlap, and with the new one only without', async () => {
    const r = await receiver();
    const ep = await endpoint(r.url);
    const rotated = await rotateEndpointSecret(admin, ep.id, 24);
    expect(rotated?.secret).toMatch(/^whsec_/);
    await emit(1);
    await startWorker();
    await requestsReach(r, 1, 'first');
    const q = r.requests[0];
    expect(q.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(rotated!.secret).verify(q.body, q.headers)).not.toThrow();
    expect(() => new Webhook(ep.secret).verify(q.body, q.headers)).not.toThrow();

    const again = await rotateEndpointSecret(admin, ep.id, 0);
    await emit(1);
    await requestsReach(r, 2, 'second');
    const q2 = r.requests[1];
    expect(q2.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(() => new Webhook(again!.secret).verify(q2.body, q2.headers)).not.toThrow();
    expect(() => new Webhook(rotated!.secret).verify(q2.body, q2.headers)).toThrow(WebhookVerificationError);
  });

  it('sends a test event to one endpoint, and replays one delivery or a time range with the same webhook-id', async () => {
    const r = await receiver();
    const ep = await endpoint(r.url);
    const other = await receiver();
    await endpoint(other.url);
    expect(await sendTestEvent(admin, ep.id)).toBe('queued');
    await startWorker();
    await requestsReach(r, 1, 'test event');
    expect(JSON.parse(r.requests[0].body)).toMatchObject({ type: 'webhook.test', data: { endpointId: ep.id } });
    expect(other.requests).toHaveLength(0);

    const from = new Date();
    const ids = await emit(2);
    await until(() => deliveriesOf(ep.id), allIn('delivered'), 10_000, 'delivered');
    const [one] = (await deliveriesOf(ep.id)).filter((d) => d.eventId === ids[0]);
    expect(await replayDeliveries(admin, ep.id, { deliveryId: one.id })).toBe(1);
    await requestsReach(r, 4, 'replayed one');
    expect(r.requests[3].headers['webhook-id']).toBe(ids[0]);

    const n = await replayDeliveries(admin, ep.id, { from, to: new Date(), failedOnly: false });
    expect(n).toBe(2);
    await requestsReach(r, 6, 'replayed the range');
    expect(r.accepted().get(ids[0])).toBe(3);
    expect(r.accepted().get(ids[1])).toBe(2);
    // The receiver answers before the worker stores the answer: wait for the rows.
    const replays = await until(
      async () => (await deliveriesOf(ep.id)).filter((d) => d.replayOf !== null),
      allIn('delivered'),
      10_000,
      'replays delivered',
    );
    expect(replays).toHaveLength(3);
  });

  it('makes no delivery for an endpoint that does not subscribe to the type', async () => {
    const r = await receiver();
    const ep = await endpoint(r.url, ['trend.spike']);
    await emit(1);
    expect(await deliveriesOf(ep.id)).toHaveLength(0);
    const rows = await db()
      .select()
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.endpointId, [ep.id]));
    expect(rows).toHaveLength(0);
  });
});
