import { jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { actorUserId } from './auth';
import { updatedAt } from './columns';

/** Settings an admin changes at run time (four-eyes, retention, ...), one JSON value per key. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
  updatedBy: actorUserId('updated_by'),
});
