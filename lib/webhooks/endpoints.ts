import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import { db } from '@/lib/db/client';
import { webhookEndpoints, webhookEvents } from '@/lib/db/schema';
import { TEST_EVENT_TYPE, type WebhookEventType } from './event-types';
import { newMessageId } from './outbox';
import { encryptSecret, generateSecret } from '@/lib/server/secret-box';

/**
 * What admins do with endpoints. Each change and its audit entry commit together; a secret is
 * returned once, to be shown once, and only its encrypted form is stored.
 */

type Actor = { id: string; email: string };

export async function createEndpoint(
  actor: Actor,
  input: { url: string; description: string; eventTypes: WebhookEventType[] },
): Promise<{ id: string; secret: string }> {
  const secret = generateSecret();
  const id = await db().transaction(async (tx) => {
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        url: input.url,
        description: input.description,
        eventTypes: input.eventTypes,
        secretEnc: encryptSecret(secret),
        createdBy: actor.id,
      })
      .returning({ id: webhookEndpoints.id });
    await audit(
      {
        action: 'webhook.create',
        actor,
        targetType: 'webhook_endpoint',
        targetId: row.id,
        details: { url: input.url, eventTypes: input.eventTypes },
      },
      tx,
    );
    return row.id;
  });
  return { id, secret };
}

export async function updateEndpoint(
  actor: Actor,
  id: string,
  input: { description: string; eventTypes: WebhookEventType[] },
): Promise<boolean> {
  return db().transaction(async (tx) => {
    const r = await tx
      .update(webhookEndpoints)
      .set({ description: input.description, eventTypes: input.eventTypes, updatedAt: sql`now()` })
      .where(eq(webhookEndpoints.id, id))
      .returning({ id: webhookEndpoints.id });
    if (!r.length) return false;
    await audit(
      {
        action: 'webhook.update',
        actor,
        targetType: 'webhook_endpoint',
        targetId: id,
        details: { eventTypes: input.eventTypes },
      },
      tx,
    );
    return true;
  });
}

export async function setEndpointEnabled(actor: Actor, id: string, enabled: boolean): Promise<boolean> {
  return db().transaction(async (tx) => {
    const r = await tx
      .update(webhookEndpoints)
      .set({
        enabled,
        disabledReason: enabled ? null : `Disabled by ${actor.email}.`,
        updatedAt: sql`now()`,
      })
      .where(eq(webhookEndpoints.id, id))
      .returning({ id: webhookEndpoints.id });
    if (!r.length) return false;
    await audit(
      {
        action: enabled ? 'webhook.enable' : 'webhook.disable',
        actor,
        targetType: 'webhook_endpoint',
        targetId: id,
      },
      tx,
    );
    return true;
  });
}

/**
 * A new secret; the current one becomes the previous and still signs for `overlapHours`, so
 * receivers can switch without losing a message (both signatures go in `webhook-signature`).
 */
export async function rotateEndpointSecret(
  actor: Actor,
  id: string,
  overlapHours: number,
): Promise<{ secret: string; previousUntil: Date | null } | null> {
  const secret = generateSecret();
  const until = overlapHours > 0 ? new Date(Date.now() + overlapHours * 3_600_000) : null;
  return db().transaction(async (tx) => {
    const r = await tx
      .update(webhookEndpoints)
      .set({
        previousSecretEnc: until ? sql`${webhookEndpoints.secretEnc}` : null,
        previousSecretUntil: until,
        secretEnc: encryptSecret(secret),
        updatedAt: sql`now()`,
      })
      .where(eq(webhookEndpoints.id, id))
      .returning({ id: webhookEndpoints.id });
    if (!r.length) return null;
    await audit(
      {
        action: 'webhook.rotate_secret',
        actor,
        targetType: 'webhook_endpoint',
        targetId: id,
        details: { overlapHours },
      },
      tx,
    );
    return { secret, previousUntil: until };
  });
}

/** Deletes the endpoint with its deliveries and log; the events stay (other endpoints may have them). */
export async function deleteEndpoint(actor: Actor, id: string): Promise<boolean> {
  return db().transaction(async (tx) => {
    const r = await tx
      .delete(webhookEndpoints)
      .where(eq(webhookEndpoints.id, id))
      .returning({ id: webhookEndpoints.id, url: webhookEndpoints.url });
    if (!r.length) return false;
    await audit(
      {
        action: 'webhook.delete',
        actor,
        targetType: 'webhook_endpoint',
        targetId: id,
        details: { url: r[0].url },
      },
      tx,
    );
    return true;
  });
}

/** A `webhook.test` event for this endpoint only, whatever it subscribes to. */
export async function sendTestEvent(actor: Actor, endpointId: string): Promise<'queued' | 'disabled' | 'unknown'> {
  return db().transaction(async (tx) => {
    const [ep] = await tx
      .select({ enabled: webhookEndpoints.enabled })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpointId))
      .for('update');
    if (!ep) return 'unknown';
    if (!ep.enabled) return 'disabled';
    const id = newMessageId();
    await tx.insert(webhookEvents).values({
      id,
      type: TEST_EVENT_TYPE,
      payload: { endpointId, actorUserId: actor.id, sentAt: new Date().toISOString() },
    });
    await tx.execute(
      sql`insert into webhook_deliveries (event_id, endpoint_id, created_by) values (${id}, ${endpointId}, ${actor.id})`,
    );
    await audit(
      { action: 'webhook.test', actor, targetType: 'webhook_endpoint', targetId: endpointId, details: { eventId: id } },
      tx,
    );
    return 'queued';
  });
}

/**
 * Sends again what this endpoint was sent: one delivery, or every delivery of events created in
 * [from, to] (`failedOnly`: only those failed or cancelled). Each replay is a new delivery of the
 * same event, so it keeps its `webhook-id`: a receiver that de-duplicates by id can tell.
 */
export async function replayDeliveries(
  actor: Actor,
  endpointId: string,
  what: { deliveryId: number } | { from: Date; to: Date; failedOnly: boolean },
): Promise<number | 'disabled'> {
  return db().transaction(async (tx) => {
    const [ep] = await tx
      .select({ enabled: webhookEndpoints.enabled })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, endpointId)))
      .for('update');
    if (!ep) return 0;
    if (!ep.enabled) return 'disabled';
    const filter =
      'deliveryId' in what
        ? sql`d.id = ${what.deliveryId}`
        : sql`ev.created_at between ${what.from.toISOString()} and ${what.to.toISOString()}
              and d.replay_of is null
              ${what.failedOnly ? sql`and d.state in ('failed', 'cancelled')` : sql``}`;
    const r = await tx.execute<{ id: string }>(sql`
      insert into webhook_deliveries (event_id, endpoint_id, replay_of, created_by)
      select d.event_id, d.endpoint_id, d.id, ${actor.id}
        from webhook_deliveries d join webhook_events ev on ev.id = d.event_id
       where d.endpoint_id = ${endpointId} and ${filter}
       order by ev.created_at
       limit 10000
      returning id`);
    await audit(
      {
        action: 'webhook.replay',
        actor,
        targetType: 'webhook_endpoint',
        targetId: endpointId,
        details:
          'deliveryId' in what
            ? { deliveryId: what.deliveryId, count: r.rows.length }
            : {
                from: what.from.toISOString(),
                to: what.to.toISOString(),
                failedOnly: what.failedOnly,
                count: r.rows.length,
              },
      },
      tx,
    );
    return r.rows.length;
  });
}
