import 'server-only';
import { sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import type { WebhookDeliveryState } from '@/lib/db/schema';

/**
 * What the webhook pages and the sync page read. The secrets never leave the database here:
 * only whether a previous one still signs, and until when.
 */

export interface WebhookEndpointRow {
  id: string;
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  previousSecretUntil: Date | null;
  createdAt: Date;
  /** Deliveries not finished yet (outbox, queued, in flight or waiting for a retry). */
  waiting: number;
  delivered24h: number;
  failed24h: number;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  /** When the oldest unfinished delivery that has failed at least once was created: failing since. */
  failingSince: Date | null;
}

type Raw = {
  id: string;
  url: string;
  description: string;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  previous_secret_until: Date | null;
  created_at: Date;
  waiting: number;
  delivered_24h: number;
  failed_24h: number;
  last_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  failing_since: Date | null;
};

const endpointsQuery = (where = sql`true`) => sql`
  select e.id, e.url, e.description, e.event_types, e.enabled, e.disabled_reason, e.created_at,
         case when e.previous_secret_until > now() then e.previous_secret_until end as previous_secret_until,
         (select count(*)::int from webhook_deliveries d
           where d.endpoint_id = e.id and d.state in ('pending', 'queued', 'delivering')) as waiting,
         (select count(*)::int from webhook_deliveries d
           where d.endpoint_id = e.id and d.state = 'delivered' and d.delivered_at > now() - interval '24 hours') as delivered_24h,
         (select count(*)::int from webhook_deliveries d
           where d.endpoint_id = e.id and d.state = 'failed' and d.created_at > now() - interval '24 hours') as failed_24h,
         (select min(d.created_at) from webhook_deliveries d
           where d.endpoint_id = e.id and d.state in ('queued', 'delivering') and d.attempts > 0) as failing_since,
         a.at as last_attempt_at, a.status as last_status, a.error as last_error
    from webhook_endpoints e
    left join lateral (
      select at, status, error from webhook_attempts w where w.endpoint_id = e.id order by w.id desc limit 1
    ) a on true
   where ${where}
   order by e.created_at, e.id`;

const toRow = (r: Raw): WebhookEndpointRow => ({
  id: r.id,
  url: r.url,
  description: r.description,
  eventTypes: r.event_types,
  enabled: r.enabled,
  disabledReason: r.disabled_reason,
  previousSecretUntil: r.previous_secret_until ? new Date(r.previous_secret_until) : null,
  createdAt: new Date(r.created_at),
  waiting: r.waiting,
  delivered24h: r.delivered_24h,
  failed24h: r.failed_24h,
  lastAttemptAt: r.last_attempt_at ? new Date(r.last_attempt_at) : null,
  lastStatus: r.last_status,
  lastError: r.last_error,
  failingSince: r.failing_since ? new Date(r.failing_since) : null,
});

/** Every endpoint with its health: the admin list and the sync page. */
export async function listWebhookEndpoints(): Promise<WebhookEndpointRow[]> {
  const r = await db().execute<Raw>(endpointsQuery());
  return r.rows.map(toRow);
}

export async function getWebhookEndpoint(id: string): Promise<WebhookEndpointRow | null> {
  const r = await db().execute<Raw>(endpointsQuery(sql`e.id = ${id}`));
  return r.rows[0] ? toRow(r.rows[0]) : null;
}

export interface WebhookLogRow {
  id: number;
  at: Date;
  deliveryId: number;
  eventId: string;
  eventType: string;
  attempt: number;
  status: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
  deliveryState: WebhookDeliveryState;
  replay: boolean;
}

export const WEBHOOK_LOG_PAGE = 25;

/**
 * The delivery log of one endpoint, newest first, a page at a time: keyset paging on the
 * attempt id (`before`: older than this one), so a page costs the same at any depth.
 */
export async function listWebhookLog(
  endpointId: string,
  opts: { before?: number; limit?: number } = {},
): Promise<{ rows: WebhookLogRow[]; nextBefore: number | null }> {
  const limit = opts.limit ?? WEBHOOK_LOG_PAGE;
  const r = await db().execute<{
    id: string;
    at: Date;
    delivery_id: string;
    event_id: string;
    type: string;
    attempt: number;
    status: number | null;
    latency_ms: number;
    error: string | null;
    response_excerpt: string | null;
    state: WebhookDeliveryState;
    replay_of: string | null;
  }>(sql`
    select a.id, a.at, a.delivery_id, a.event_id, ev.type, a.attempt, a.status, a.latency_ms, a.error,
           a.response_excerpt, d.state, d.replay_of
      from webhook_attempts a
      join webhook_deliveries d on d.id = a.delivery_id
      join webhook_events ev on ev.id = a.event_id
     where a.endpoint_id = ${endpointId} ${opts.before ? sql`and a.id < ${opts.before}` : sql``}
     order by a.id desc
     limit ${limit + 1}`);
  const rows = r.rows.slice(0, limit).map((x) => ({
    id: Number(x.id),
    at: new Date(x.at),
    deliveryId: Number(x.delivery_id),
    eventId: x.event_id,
    eventType: x.type,
    attempt: x.attempt,
    status: x.status,
    latencyMs: x.latency_ms,
    error: x.error,
    responseExcerpt: x.response_excerpt,
    deliveryState: x.state,
    replay: x.replay_of !== null,
  }));
  return { rows, nextBefore: r.rows.length > limit ? rows[rows.length - 1].id : null };
}

/** Deliveries of this endpoint not sent yet (no attempt so far): shown above the log. */
export async function countUnsentWebhookDeliveries(endpointId: string): Promise<number> {
  const r = await db().execute<{ n: number }>(sql`
    select count(*)::int as n from webhook_deliveries
     where endpoint_id = ${endpointId} and attempts = 0 and state in ('pending', 'queued', 'delivering')`);
  return r.rows[0]?.n ?? 0;
}
