import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { NotificationKind } from '../notification-kinds';
import { actorUserId, ownerUserId } from './auth';
import { createdAt, serialPrimaryKey, uuidPrimaryKey } from './columns';

/**
 * Notifications (lib/notifications/README.md, migration 0029). One row per person and occurrence,
 * whether it shows in the app, is mailed or both: the unique (user, once_key) makes a time-based
 * reminder go out once however often the scheduled job runs.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: serialPrimaryKey(),
    userId: ownerUserId('user_id'),
    kind: text('kind').$type<NotificationKind>().notNull(),
    actorId: actorUserId('actor_id'),
    executionId: uuid('execution_id'),
    caseId: uuid('case_id'),
    /** What makes it the same occurrence: the kind and its subject (and the due time it warns of). */
    onceKey: text('once_key').notNull(),
    /** Shown by the bell and the page (the person's choice when it was written). */
    inApp: boolean('in_app').notNull(),
    /** null: not mailed; `queued`, `sent`, `failed` (lib/notifications/email.ts). */
    emailState: text('email_state').$type<'queued' | 'sent' | 'failed'>(),
    /** No personal data of the verified person: ids, queue names, counts. */
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notifications_once_key').on(t.userId, t.onceKey),
    index('notifications_user_idx')
      .on(t.userId, t.id)
      .where(sql`${t.inApp}`),
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`${t.inApp} and ${t.readAt} is null`),
  ],
);

/** Each person's choice per kind; a missing row is the kind's default (lib/notifications/kinds.ts). */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: ownerUserId('user_id'),
    kind: text('kind').$type<NotificationKind>().notNull(),
    inApp: boolean('in_app').notNull(),
    email: boolean('email').notNull(),
  },
  (t) => [primaryKey({ name: 'notification_preferences_pkey', columns: [t.userId, t.kind] })],
);

/** Personal saved views of the executions list: a name and the list's URL query (one person's own). */
export const savedViews = pgTable(
  'saved_views',
  {
    id: uuidPrimaryKey(),
    userId: ownerUserId('user_id'),
    name: text('name').notNull(),
    query: text('query').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('saved_views_name_key').on(t.userId, sql`lower(${t.name})`),
    check('saved_views_name_check', sql`length(${t.name}) between 1 and 60`),
    check('saved_views_query_check', sql`length(${t.query}) <= 4000`),
  ],
);
