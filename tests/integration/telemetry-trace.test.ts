/**
 * One trace from a label to everything it causes, received by a real OTLP/HTTP receiver on
 * loopback: the analyst's server action (FRAUD), the feedback job that a worker picks up from the
 * queue (the trace travels in the job's row), its call to the service (R11, a real simulator over
 * HTTP), and the `feedback.delivered` webhook sent to a real receiver (the trace travels in the
 * outbox row). Nothing is mocked but `next/headers` (there is no Next request in a test).
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { submitFeedbackAction } from '@/lib/actions/feedback';
import { db } from '@/lib/db/client';
import { webhookEndpoints, webhookEvents } from '@/lib/db/schema';
import { getBoss, stopBoss } from '@/lib/jobs/boss';
import { flushTracing, startTracing, stopTracing } from '@/lib/telemetry/tracing';
import { createEndpoint } from '@/lib/webhooks/endpoints';
import { outboundPolicyFromEnv } from '@/lib/webhooks/outbound';
import { registerWebhookWorkers, type WebhookWorker } from '@/lib/webhooks/worker';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { until } from '../support/wait';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import {
  createUser,
  firstLabel,
  ingestFromSim,
  processedWithoutFeedback,
  sessionCookieFor,
  startFeedbackWorkers,
  startSim,
  type Sim,
} from '../support/feedback';
import { request } from '../support/next-headers';

vi.mock('next/headers', async () => (await import('../support/next-headers')).nextHeaders);
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

process.env.WEBHOOK_SECRET_KEY ??= 'webhook-test-key-0123456789-0123456789-0123456789';

let otlp: OtlpReceiver;
let hooks: WebhookReceiver;
let s: Sim;
let endpointId: string;
let webhookWorker: WebhookWorker | null = null;
let stopFeedbackWorkers: (() => Promise<void>) | null = null;

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = otlp.url;
  expect(await startTracing('verdict-test')).toBe(true);
  s = await startSim({ seed: 'telemetry-trace' });
  hooks = await startReceiver({ status: 200 });
  const admin = await createUser('admin');
  endpointId = (
    await createEndpoint(admin, { url: hooks.url, description: 'trace test', eventTypes: ['feedback.delivered'] })
  ).id;
});

afterAll(async () => {
  await webhookWorker?.stop();
  await stopFeedbackWorkers?.().catch(() => undefined);
  await db().update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.id, endpointId));
  await stopBoss();
  await stopTracing();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  await hooks?.stop();
  await s?.sim.close();
  await otlp?.close();
});

/** The span's ancestors within its trace, nearest first. */
function ancestors(span: ReceivedSpan, all: ReceivedSpan[]): ReceivedSpan[] {
  const byId = new Map(all.map((x) => [x.spanId, x]));
  const out: ReceivedSpan[] = [];
  for (let p = byId.get(span.parentSpanId); p; p = byId.get(p.parentSpanId)) out.push(p);
  return out;
}

describe('tracing a label', () => {
  it('follows a FRAUD label from the action through its job and service call to the webhook delivery', async () => {
    const [e] = await ingestFromSim(s, processedWithoutFeedback, 1);
    const analyst = await createUser('analyst');
    const cookie = await sessionCookieFor(analyst);
    request.cookie = cookie.value;
    const r = await submitFeedbackAction(firstLabel(e.id));
    expect(r.ok, JSON.stringify(r)).toBe(true);
    await cookie.end();

    // Workers as a worker process runs them, on the job queue; the job row is all they get.
    stopFeedbackWorkers = await startFeedbackWorkers();
    webhookWorker = await registerWebhookWorkers(await getBoss(), {
      db: db(),
      pollingIntervalSeconds: 0.5,
      pumpIntervalMs: 100,
      log: () => undefined,
      outbound: outboundPolicyFromEnv({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }),
    });
    await until(
      // This label's delivery (other tests' events may reach the receiver too).
      () => hooks.requests.filter((q) => q.answered === 200 && q.body.includes(e.id)).length,
      (n) => n >= 1,
      45_000,
      'the feedback.delivered webhook',
    );
    const [event] = await db()
      .select({ traceParent: webhookEvents.traceParent })
      .from(webhookEvents)
      // This label's event: the run's database holds other tests' events too.
      .where(
        and(eq(webhookEvents.type, 'feedback.delivered'), sql`${webhookEvents.payload}::text like ${`%${e.id}%`}`),
      );
    expect(event.traceParent, 'the outbox row carries the trace').toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);

    // Spans are exported in batches: wait until the delivery's span has arrived.
    const spans = await until(
      async () => {
        await flushTracing();
        return otlp.spans;
      },
      (all) => all.some((x) => x.name === 'webhook deliver'),
      20_000,
      'the exported spans',
    );
    const action = spans.find((x) => x.name === 'action feedback.submit');
    expect(action, `spans: ${spans.map((x) => x.name).join(', ')}`).toBeDefined();
    expect(action!.service).toBe('verdict-test');
    expect(event.traceParent!.split('-')[1]).toBe(action!.traceId);
    const trace = spans.filter((x) => x.traceId === action!.traceId);
    const names = trace.map((x) => x.name);
    const job = trace.find((x) => x.name === 'job feedback.deliver');
    const call = trace.find((x) => x.name.startsWith('idv R11'));
    const webhook = trace.find((x) => x.name === 'webhook deliver');
    expect(job, `trace: ${names.join(', ')}`).toBeDefined();
    expect(call, `trace: ${names.join(', ')}`).toBeDefined();
    expect(webhook, `trace: ${names.join(', ')}`).toBeDefined();
    // Each hangs under the label's action, through the job for the service call and the webhook.
    expect(ancestors(job!, trace)).toContain(action);
    expect(ancestors(call!, trace)).toContain(job);
    expect(ancestors(webhook!, trace)).toContain(job);
    expect(call!.attributes['http.response.status_code']).toBe(200);
    expect(webhook!.attributes['verdict.webhook.outcome']).toBe('delivered');
    expect(webhook!.attributes['verdict.webhook.endpoint']).toBe(endpointId);
    // Statement groups are spans of the same trace (the action's transaction at least).
    expect(
      ancestors(
        trace.find((x) => x.name === 'db transaction')!,
        trace,
      ),
    ).toContain(action);
  }, 120_000);
});
