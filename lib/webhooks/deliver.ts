import 'server-only';
import { parseRetryAfter } from '@/lib/idv/http';
import { sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { audit } from '@/lib/audit';
import { lineLogger } from '@/lib/log';
import type { Db, Tx } from '@/lib/db/client';
import { webhookAttempts } from '@/lib/db/schema';
import { Agent, fetch as undiciFetch } from 'undici';
import { retryDelayMs } from '@/lib/jobs/backoff';
import { jobDb, QUEUES } from '@/lib/jobs/boss';
import { claimOne, leaseCleared, leaseLapsed } from '@/lib/jobs/lease';
import { metrics } from '@/lib/telemetry/metrics';
import { currentTraceparent, linkTo, setSpanAttributes, SpanKind, withSpan } from '@/lib/telemetry/tracing';
import {
  outboundPolicyFromEnv,
  pinnedLookup,
  resolveDestination,
  systemResolver,
  type OutboundPolicy,
  type Resolver,
} from './outbound';
import { eventBody } from './outbox';
import { decryptSecret } from '@/lib/server/secret-box';
import { signedHeaders } from './sign';

/**
 * One attempt at one delivery, run by the `webhooks.deliver` job.
 *
 * - Exactly one sender: the delivery is claimed (queued -> delivering, with a lease) under a row
 *   lock, so a duplicate job, a pg-boss retry or a rescue finds nothing to claim.
 * - One request in flight per endpoint (`busy_until` on the endpoint, taken in the claim): a
 *   receiver that answers in 30 s holds one worker slot, never all of them; a job that finds its
 *   endpoint busy comes back a moment later. A job drains its endpoint's due deliveries while
 *   they succeed, so a healthy endpoint is not slowed down by that limit.
 * - Every request has a time limit (`timeoutMs`, WEBHOOK_TIMEOUT_MS) covering the answer and
 *   the excerpt of its body; redirects are not followed (a 3xx is a failure, as any non-2xx).
 * - Only where the outbound policy allows (./outbound.ts): the host is resolved, every address
 *   checked and the connection pinned to the checked one. A refused destination fails the
 *   delivery at once with the rule's sentence (replay it once the policy allows it).
 * - What the admin sees of an answer is short and printable (`excerptOf`), and every network
 *   failure reads the same (`UNREACHABLE`): refused, reset, unresolved and timed out alike, so the
 *   log cannot be used to map which ports answer on an internal host. The server log keeps the class.
 * - 2xx: delivered. 410: the receiver is gone, the endpoint is disabled. Anything else (5xx,
 *   429 with Retry-After, other 4xx, timeouts, refused connections) is retried with capped
 *   exponential backoff for `retryForMs` (WEBHOOK_RETRY_HOURS, 3 days) from the delivery's
 *   creation, then the delivery is failed. Every retry carries the same `webhook-id`.
 * - At-least-once across a crash: a worker that dies after the receiver answered but before the
 *   outcome was stored leaves a lease that runs out, and the same message (same id) goes again.
 */

export interface WebhookDeliveryOptions {
  timeoutMs?: number;
  /** First retry delay; doubles per attempt. Default 5 s. */
  retryBaseMs?: number;
  /** Longest retry delay. Default 1 hour. */
  retryMaxMs?: number;
  /** How long a delivery is retried. Default 72 hours. */
  retryForMs?: number;
  /** When the endpoint is busy, try again after this. Default 1 s. */
  busyDelayMs?: number;
  /** Deliveries one job sends to its endpoint in a row while they succeed. Default 20. */
  drain?: number;
  log?: (line: string) => void;
  /** Where sends may go; default: this process's configuration (outboundPolicyFromEnv). */
  outbound?: OutboundPolicy;
  /** DNS for the send-time check (tests play a rebinding name with it). */
  resolve?: Resolver;
}

export type WebhookOutcome = 'delivered' | 'retry_scheduled' | 'failed' | 'disabled' | 'busy' | 'cancelled' | 'nothing';

export const webhookDefaults = (o: WebhookDeliveryOptions) => ({
  timeoutMs: o.timeoutMs ?? Number(process.env.WEBHOOK_TIMEOUT_MS || 10_000),
  retryBaseMs: o.retryBaseMs ?? 5_000,
  retryMaxMs: o.retryMaxMs ?? 3_600_000,
  retryForMs: o.retryForMs ?? Number(process.env.WEBHOOK_RETRY_HOURS || 72) * 3_600_000,
  busyDelayMs: o.busyDelayMs ?? 1_000,
  drain: o.drain ?? 20,
  log: o.log ?? lineLogger('webhooks'),
  outbound: o.outbound ?? outboundPolicyFromEnv(),
  resolve: o.resolve ?? systemResolver,
});
type Opts = ReturnType<typeof webhookDefaults>;

const EXCERPT_BYTES = 1024;
const EXCERPT_CHARS = 200;

/** The one wording of every network failure (see the header: no port mapping through the log). */
export const UNREACHABLE = 'The receiver could not be reached, or did not answer within the time limit.';

/** Queues delivery jobs inside the caller's transaction (the boss is started before it opens). */
export async function enqueueWebhookJobs(tx: Tx, boss: PgBoss, ids: number[], startAfter?: Date): Promise<void> {
  if (!ids.length) return;
  await boss.insert(
    ids.map((id) => ({
      name: QUEUES.deliverWebhook,
      data: { deliveryId: id },
      singletonKey: String(id),
      ...(startAfter ? { startAfter: startAfter.toISOString() } : {}),
    })),
    { db: jobDb(tx) },
  );
}

/**
 * A delivery being sent is held under a lease (`lease_until`) for the request's time limit and
 * half a minute; past it, its worker is taken to have died and the pump hands it on again.
 */
export const deliveries = (ms: number) => ({
  table: 'webhook_deliveries',
  key: 'id',
  lease: 'lease_until',
  holds: 'until' as const,
  ms,
  held: sql`state = 'delivering'`,
});

/** What a delivery job may claim besides a lapsed lease. */
const CLAIMABLE = sql`state in ('pending', 'queued')`;

/** An endpoint's turn: one request in flight per endpoint, held (`busy_until`) as a delivery is. */
const endpointTurn = (ms: number) => ({
  table: 'webhook_endpoints',
  key: 'id',
  lease: 'busy_until',
  holds: 'until' as const,
  ms,
  held: sql`busy_until is not null`,
});

interface Claimed {
  id: number;
  eventId: string;
  endpointId: string;
  attempt: number;
  createdAt: Date;
  url: string;
  secrets: string[];
  event: { type: string; payload: Record<string, unknown>; createdAt: Date };
  /** The trace of the change that caused the event (lib/webhooks/outbox.ts). */
  traceParent: string | null;
}

/** One delivery job, on the database it is given (the worker's: ./worker.ts). */
export async function deliverWebhook(
  db: Db,
  boss: PgBoss,
  deliveryId: number,
  options: WebhookDeliveryOptions = {},
): Promise<WebhookOutcome> {
  const o = webhookDefaults(options);
  const first = await attemptOne(db, boss, deliveryId, o);
  // The job's outcome is its own delivery's; the ones drained after it are in the log.
  let outcome = first;
  const started = Date.now();
  for (let n = 1; outcome.kind === 'delivered' && n < o.drain && Date.now() - started < 15_000; n++) {
    const next = await db.execute<{ id: string }>(sql`
      select id from webhook_deliveries
       where endpoint_id = ${first.endpointId} and state = 'queued' and next_attempt_at <= now()
       order by next_attempt_at, id limit 1`);
    if (!next.rows[0]) break;
    outcome = await attemptOne(db, boss, Number(next.rows[0].id), o);
  }
  return first.kind;
}

async function attemptOne(
  db: Db,
  boss: PgBoss,
  deliveryId: number,
  o: Opts,
): Promise<{ kind: WebhookOutcome; endpointId?: string }> {
  // The request's time limit and half a minute: a live worker always records its outcome in time.
  const lease = deliveries((Math.ceil(o.timeoutMs / 1000) + 30) * 1000);
  const claim = await db.transaction(async (tx): Promise<Claimed | WebhookOutcome> => {
    const r = await tx.execute<{
      id: string;
      event_id: string;
      endpoint_id: string;
      attempts: number;
      created_at: string;
      enabled: boolean;
      claimable: boolean;
    }>(sql`
      select d.id, d.event_id, d.endpoint_id, d.attempts, d.created_at, e.enabled,
             (${CLAIMABLE} or ${leaseLapsed(lease)}) as claimable
        from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
       where d.id = ${deliveryId}
         for update of d`);
    const d = r.rows[0];
    if (!d || !d.claimable) return 'nothing';
    if (!d.enabled) {
      const released = leaseCleared(lease);
      await tx.execute(sql`
        update webhook_deliveries set state = 'cancelled', ${released}, last_error = 'The endpoint is disabled.'
         where id = ${deliveryId}`);
      return 'cancelled';
    }
    const endpoint = await claimOne<{
      url: string;
      secret_enc: string;
      previous_secret_enc: string | null;
      overlap: boolean;
    }>(tx, endpointTurn(lease.ms), d.endpoint_id, {
      free: sql`busy_until is null`,
      returning: sql`url, secret_enc, previous_secret_enc, coalesce(previous_secret_until > now(), false) as overlap`,
    });
    if (!endpoint) {
      await tx.execute(sql`update webhook_deliveries set state = 'queued' where id = ${deliveryId}`);
      await enqueueWebhookJobs(tx, boss, [deliveryId], new Date(Date.now() + o.busyDelayMs));
      return 'busy';
    }
    // The row is locked by this transaction since the select: the claim cannot miss.
    await claimOne(tx, lease, deliveryId, {
      free: CLAIMABLE,
      set: sql`state = 'delivering', attempts = attempts + 1, last_attempt_at = now()`,
      returning: sql`id`,
    });
    const ev = await tx.execute<{
      type: string;
      payload: Record<string, unknown>;
      created_at: string;
      trace_parent: string | null;
    }>(sql`select type, payload, created_at, trace_parent from webhook_events where id = ${d.event_id}`);
    const secrets = [
      endpoint.secret_enc,
      ...(endpoint.overlap && endpoint.previous_secret_enc ? [endpoint.previous_secret_enc] : []),
    ];
    return {
      id: deliveryId,
      eventId: d.event_id,
      endpointId: d.endpoint_id,
      attempt: d.attempts + 1,
      createdAt: new Date(d.created_at),
      url: endpoint.url,
      secrets: secrets.map(decryptSecret),
      event: { type: ev.rows[0].type, payload: ev.rows[0].payload, createdAt: new Date(ev.rows[0].created_at) },
      traceParent: ev.rows[0].trace_parent,
    };
  });
  if (typeof claim === 'string') return { kind: claim };
  // The attempt continues the trace of the change that caused the event; the job that drains it is linked.
  return withSpan(
    'webhook deliver',
    {
      kind: SpanKind.CLIENT,
      parent: claim.traceParent,
      links: claim.traceParent ? linkTo(currentTraceparent()) : [],
      attributes: {
        'verdict.webhook.endpoint': claim.endpointId,
        'verdict.webhook.event_type': claim.event.type,
        'verdict.webhook.attempt': claim.attempt,
      },
    },
    () => sendAndRecord(db, boss, claim, o),
  );
}

async function sendAndRecord(
  db: Db,
  boss: PgBoss,
  claim: Claimed,
  o: Opts,
): Promise<{ kind: WebhookOutcome; endpointId?: string }> {
  const sent = await send(claim, o);
  const ok = sent.status !== null && sent.status >= 200 && sent.status < 300;
  const gone = sent.status === 410;
  // A receiver's Retry-After wins over the backoff, even past its cap (it is capped at a day).
  const delay = Math.max(retryDelayMs(claim.attempt, o.retryBaseMs, o.retryMaxMs), sent.retryAfterMs ?? 0);
  const next = new Date(Date.now() + delay);
  const giveUp = sent.refused || (!ok && !gone && next.getTime() > claim.createdAt.getTime() + o.retryForMs);
  const kind: WebhookOutcome = ok ? 'delivered' : gone ? 'disabled' : giveUp ? 'failed' : 'retry_scheduled';

  const released = leaseCleared(deliveries(0));
  await db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      deliveryId: claim.id,
      endpointId: claim.endpointId,
      eventId: claim.eventId,
      attempt: claim.attempt,
      status: sent.status,
      latencyMs: sent.latencyMs,
      error: sent.error,
      responseExcerpt: sent.excerpt,
    });
    await tx.execute(sql`update webhook_endpoints set ${leaseCleared(endpointTurn(0))} where id = ${claim.endpointId}`);
    const summary = sent.error ?? `HTTP ${sent.status}`;
    if (ok) {
      await tx.execute(sql`
        update webhook_deliveries set state = 'delivered', delivered_at = now(), ${released},
               last_status = ${sent.status}, last_error = null
         where id = ${claim.id}`);
    } else if (gone || giveUp) {
      await tx.execute(sql`
        update webhook_deliveries set state = 'failed', ${released}, last_status = ${sent.status},
               last_error = ${gone ? 'The receiver answered 410 Gone: the endpoint was disabled.' : sent.refused ? summary : `Gave up after ${claim.attempt} attempts: ${summary}`}
         where id = ${claim.id}`);
    } else {
      await tx.execute(sql`
        update webhook_deliveries set state = 'queued', ${released}, next_attempt_at = ${next.toISOString()},
               last_status = ${sent.status}, last_error = ${summary}
         where id = ${claim.id}`);
      await enqueueWebhookJobs(tx, boss, [claim.id], next);
    }
    if (gone) {
      await tx.execute(sql`
        update webhook_endpoints
           set enabled = false, updated_at = now(),
               disabled_reason = ${`The receiver answered 410 Gone at ${new Date().toISOString()}.`}
         where id = ${claim.endpointId}`);
      await audit(
        {
          action: 'webhook.endpoint_disabled',
          actorEmail: null,
          targetType: 'webhook_endpoint',
          targetId: claim.endpointId,
          ip: null,
          details: { reason: '410', eventId: claim.eventId },
        },
        tx,
      );
    }
  });
  metrics().webhookAttempts.inc({ endpoint: claim.endpointId, outcome: kind });
  setSpanAttributes({
    'verdict.webhook.outcome': kind,
    ...(sent.status ? { 'http.response.status_code': sent.status } : {}),
  });
  if (!ok)
    o.log(
      `${claim.event.type} ${claim.eventId} attempt ${claim.attempt}: ${sent.logDetail ?? sent.error ?? `HTTP ${sent.status}`}${kind === 'retry_scheduled' ? `; next in ${Math.round(delay / 1000)} s` : ` (${kind})`}`,
    );
  return { kind, endpointId: claim.endpointId };
}

interface Sent {
  status: number | null;
  latencyMs: number;
  error: string | null;
  excerpt: string | null;
  retryAfterMs?: number;
  /** The outbound policy refused the destination: nothing was sent. */
  refused?: boolean;
  /** For the server log only: the class of a network failure. */
  logDetail?: string;
}

async function send(c: Claimed, o: Opts): Promise<Sent> {
  const t0 = performance.now();
  const elapsed = () => Math.round(performance.now() - t0);
  const signal = AbortSignal.timeout(o.timeoutMs);
  const dest = await Promise.race([
    resolveDestination(new URL(c.url), o.outbound, o.resolve),
    new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
  ]).catch((err: unknown) => ({ ok: false as const, failed: err }));
  if (!dest.ok) {
    if ('problem' in dest)
      return { status: null, latencyMs: elapsed(), error: `Not sent: ${dest.problem}`, excerpt: null, refused: true };
    const cls = 'failed' in dest ? failureClass(dest.failed) : 'unresolved';
    return {
      status: null,
      latencyMs: elapsed(),
      error: UNREACHABLE,
      excerpt: null,
      logDetail: `network error (${cls})`,
    };
  }
  const body = eventBody(c.event);
  const headers = signedHeaders(c.eventId, body, c.secrets);
  // One connection pool per attempt, whose only address is the checked one.
  const agent = new Agent({ connect: { lookup: pinnedLookup(dest.address, dest.family) } });
  try {
    const res = await undiciFetch(c.url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'Verdict-Webhooks/1.0' },
      body,
      redirect: 'manual',
      signal,
      dispatcher: agent,
    });
    // 1xx and 3xx answers carry nothing an admin needs; the rest show a short, printable excerpt.
    const shown = res.status >= 200 && res.status < 600 && (res.status < 300 || res.status >= 400);
    const excerpt = shown ? await readExcerpt(res.body as ReadableStream<Uint8Array> | null).catch(() => null) : null;
    if (!shown) await res.body?.cancel().catch(() => undefined);
    return {
      status: res.status,
      latencyMs: elapsed(),
      error: null,
      excerpt,
      retryAfterMs: retryAfterAtMostADay(res.headers.get('retry-after')),
    };
  } catch (err) {
    return {
      status: null,
      latencyMs: elapsed(),
      error: UNREACHABLE,
      excerpt: null,
      logDetail: `network error (${failureClass(err)})`,
    };
  } finally {
    void agent.destroy().catch(() => undefined);
  }
}

/** The first bytes of the answer only: a receiver may send anything, of any length. */
async function readExcerpt(stream: ReadableStream<Uint8Array> | null): Promise<string | null> {
  if (!stream) return null;
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return excerptOf(Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'));
}

/**
 * What the delivery log keeps of an answer: at most 200 characters, without control or format
 * characters (no terminal escapes, no bidirectional overrides), whitespace runs made one space.
 */
export function excerptOf(text: string): string | null {
  const clean = text
    .replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cn}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!clean) return null;
  const chars = [...clean];
  return chars.length > EXCERPT_CHARS ? `${chars.slice(0, EXCERPT_CHARS - 1).join('')}…` : clean;
}

/** The class of a network failure, for the server log. */
function failureClass(err: unknown): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return 'timeout';
  const code =
    err instanceof Error
      ? ((err.cause as { code?: string } | undefined)?.code ?? (err as { code?: string }).code)
      : undefined;
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return 'reset';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unresolved';
  if (code?.startsWith('UND_ERR_') && code.includes('TIMEOUT')) return 'timeout';
  return code ?? 'other';
}

/** A receiver's Retry-After (seconds or an HTTP date), at most a day: a receiver cannot park a delivery for longer. */
function retryAfterAtMostADay(value: string | null): number | undefined {
  const ms = parseRetryAfter(value, Date.now());
  return ms ? Math.min(ms, 86_400_000) : undefined;
}
