import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { actorUserId } from './auth';
import { createdAt, uuidPrimaryKey } from './columns';

/**
 * Keys of the read API (`/api/v1/`), created by admins. Only a SHA-256 of the key is kept: the
 * key is 32 random bytes, so a fast hash is as good as a slow one and every request can afford
 * it. `prefix` (the first characters of the key) tells keys apart in the list without being
 * usable. Rows are never deleted: a revoked or expired key keeps its name for the audit log.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuidPrimaryKey(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    /** Only `read` exists: the API has no write operation. Kept so a later scope is a value, not a migration. */
    scope: text('scope').notNull().default('read'),
    createdBy: actorUserId('created_by'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: actorUserId('revoked_by'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    lastUsedIp: text('last_used_ip'),
  },
  (t) => [uniqueIndex('api_keys_key_hash_key').on(t.keyHash), index('api_keys_created_idx').on(t.createdAt.desc())],
);
