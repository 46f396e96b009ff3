import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { actorUserId } from './auth';
import { createdAt, serialPrimaryKey, updatedAt, uuidPrimaryKey } from './columns';

/**
 * A receiver of signed webhooks (Standard Webhooks). The signing secret is stored encrypted
 * (AES-256-GCM, key outside the database: lib/server/secret-box.ts) because signing needs it in
 * clear; during a rotation the previous one signs too until `previous_secret_until`.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuidPrimaryKey(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    eventTypes: text('event_types').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Why it was disabled: by an admin, or the receiver answered 410 Gone. */
    disabledReason: text('disabled_reason'),
    secretEnc: text('secret_enc').notNull(),
    previousSecretEnc: text('previous_secret_enc'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    /** One delivery in flight per endpoint: a slow receiver holds one worker slot, not all of them. */
    busyUntil: timestamp('busy_until', { withTimezone: true }),
    createdBy: actorUserId('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('webhook_endpoints_url_check', sql`char_length(${t.url}) <= 2000 and ${t.url} ~ '^https?://'`),
    check('webhook_endpoints_description_check', sql`char_length(${t.description}) <= 500`),
  ],
);

/**
 * The outbox: every event, written in the transaction of the change that caused it. Its id is
 * the `webhook-id` of every delivery and retry of it.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    /** The W3C traceparent of the change that caused it, when a trace was recorded: its deliveries continue that trace. */
    traceParent: text('trace_parent'),
  },
  (t) => [index('webhook_events_created_idx').on(t.createdAt.desc())],
);

/**
 *   pending (in the outbox, no job yet) -> queued (a pg-boss job exists) -> delivering (claimed)
 *   delivering -> delivered | queued (retry later) | failed (3 days of failures, or 410)
 *   queued | pending -> cancelled (the endpoint is disabled)
 */
export const WEBHOOK_DELIVERY_STATES = ['pending', 'queued', 'delivering', 'delivered', 'failed', 'cancelled'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

/** One event for one endpoint (a replay is a new delivery of the same event: same webhook-id). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serialPrimaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    state: text('state').$type<WebhookDeliveryState>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    replayOf: bigint('replay_of', { mode: 'number' }),
    createdBy: actorUserId('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_first_idx')
      .on(t.eventId, t.endpointId)
      .where(sql`${t.replayOf} is null`),
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.state} in ('pending', 'queued', 'delivering')`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id.desc()),
    check(
      'webhook_deliveries_state_check',
      sql`${t.state} in ('pending', 'queued', 'delivering', 'delivered', 'failed', 'cancelled')`,
    ),
  ],
);

/** The delivery log: every HTTP attempt with its answer (an excerpt), newest first per endpoint. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: serialPrimaryKey(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    attempt: integer('attempt').notNull(),
    /** HTTP status, or null when none came (timeout, refused connection). */
    status: integer('status'),
    latencyMs: integer('latency_ms').notNull(),
    error: text('error'),
    responseExcerpt: text('response_excerpt'),
  },
  (t) => [
    index('webhook_attempts_endpoint_idx').on(t.endpointId, t.id.desc()),
    index('webhook_attempts_delivery_idx').on(t.deliveryId, t.id),
  ],
);

/** Things announced once (a spike alert, a sync incident): the key of each, so none is sent twice. */
export const webhookAnnouncements = pgTable('webhook_announcements', {
  key: text('key').primaryKey(),
  eventId: text('event_id'),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  details: jsonb('details').$type<Record<string, unknown>>(),
});
