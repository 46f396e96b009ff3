import { bigserial, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Columns most tables share, each written once: an `id` (a random UUID, or a bigserial), and
 * `created_at`/`updated_at`, which default to the time of the writing transaction.
 */
export const uuidPrimaryKey = () => uuid('id').primaryKey().defaultRandom();
export const serialPrimaryKey = () => bigserial('id', { mode: 'number' }).primaryKey();
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
