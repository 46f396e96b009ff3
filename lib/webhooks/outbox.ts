import 'server-only';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Tx } from '@/lib/db/client';
import { webhookEvents } from '@/lib/db/schema';
import { currentTraceparent } from '@/lib/telemetry/tracing';
import type { WebhookEventType } from './event-types';
import { PAYLOAD_SCHEMAS, type WebhookPayload } from './payloads';

/**
 * The outbox. An event is written in the transaction of the change that causes it, with one
 * `pending` delivery per enabled endpoint that subscribes to its type; both commit with the
 * change or not at all. Nothing is sent here: the worker's pump (lib/webhooks/pump.ts) hands
 * pending deliveries to the job queue, so this runs in any transaction, on any database.
 */

/** The `webhook-id` of an event: the same on every attempt, retry and replay of it. */
export const newMessageId = () => `msg_${randomUUID().replace(/-/g, '')}`;

/**
 * Records an event of `type` for every subscribed endpoint. The payload is checked against the
 * type's strict schema (lib/webhooks/payloads.ts): an unknown key throws, and the caller's
 * transaction rolls back with it. Returns the event id.
 *
 * Case work calls `emitEvent(tx, 'case.resolved', {...})` and `emitEvent(tx, 'case.escalated', {...})`
 * in the transaction that resolves or escalates the case.
 */
export async function emitEvent<T extends WebhookEventType>(
  tx: Tx,
  type: T,
  payload: WebhookPayload<T>,
): Promise<string> {
  const data = PAYLOAD_SCHEMAS[type].parse(payload) as Record<string, unknown>;
  const id = newMessageId();
  await tx.insert(webhookEvents).values({ id, type, payload: data, traceParent: currentTraceparent() ?? null });
  await tx.execute(sql`
    insert into webhook_deliveries (event_id, endpoint_id)
    select ${id}, e.id from webhook_endpoints e where e.enabled and ${type} = any(e.event_types)`);
  return id;
}

/** The request body of an event (Standard Webhooks' recommended shape: type, timestamp, data). */
export function eventBody(e: { type: string; payload: Record<string, unknown>; createdAt: Date }): string {
  return JSON.stringify({ type: e.type, timestamp: e.createdAt.toISOString(), data: e.payload });
}
