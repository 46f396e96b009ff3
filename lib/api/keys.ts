import 'server-only';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import { db } from '@/lib/db/client';
import { apiKeys, users } from '@/lib/db/schema';

/** Every key starts with this, so a leaked one is recognisable in logs and secret scanners. */
export const KEY_PREFIX = 'vk_';
/** Characters of the key kept in clear to tell keys apart in the list (prefix + 7 random). */
const SHOWN = KEY_PREFIX.length + 7;

const hashOf = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  scope: string;
  createdAt: Date;
  createdByEmail: string | null;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  lastUsedIp: string | null;
  state: 'active' | 'expired' | 'revoked';
}

/**
 * Creates a read-only key valid for `days` days. The key itself is returned once, here, and
 * never stored: only its SHA-256 is (32 random bytes leave nothing for a slow hash to protect).
 */
export async function createApiKey(
  input: { name: string; days: number },
  actor: { id: string; email: string },
): Promise<{ id: string; key: string; prefix: string; expiresAt: Date }> {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  const prefix = key.slice(0, SHOWN);
  const d = db();
  return d.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiKeys)
      .values({
        name: input.name,
        prefix,
        keyHash: hashOf(key),
        scope: 'read',
        createdBy: actor.id,
        expiresAt: sql`now() + make_interval(days => ${input.days})`,
      })
      .returning({ id: apiKeys.id, expiresAt: apiKeys.expiresAt });
    await audit(
      {
        action: 'api_key.create',
        actor,
        targetType: 'api_key',
        targetId: row.id,
        details: { name: input.name, prefix, days: input.days },
      },
      tx,
    );
    return { id: row.id, key, prefix, expiresAt: row.expiresAt };
  });
}

/** Revokes a key at once; false when it does not exist or was already revoked. */
export async function revokeApiKey(id: string, actor: { id: string; email: string }): Promise<boolean> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: sql`now()`, revokedBy: actor.id })
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, prefix: apiKeys.prefix });
    if (!row) return false;
    await audit(
      { action: 'api_key.revoke', actor, targetType: 'api_key', targetId: id, details: { prefix: row.prefix } },
      tx,
    );
    return true;
  });
}

export async function listApiKeys(limit = 200): Promise<ApiKeyView[]> {
  const rows = await db()
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      scope: apiKeys.scope,
      createdAt: apiKeys.createdAt,
      createdByEmail: users.email,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      lastUsedIp: apiKeys.lastUsedIp,
    })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .orderBy(desc(apiKeys.createdAt))
    .limit(limit);
  const now = Date.now();
  return rows.map((r) => ({
    ...r,
    state: r.revokedAt ? 'revoked' : r.expiresAt.getTime() <= now ? 'expired' : 'active',
  }));
}

export interface ApiCaller {
  keyId: string;
  prefix: string;
  scope: string;
}

/**
 * The key of a `Bearer` header, or null when it is missing, malformed, unknown, revoked or
 * expired: the caller gets one 401 whatever the reason, so a guesser learns nothing. The lookup
 * goes by the hash's unique index; the stored hash is then compared in constant time. Last use
 * is written at most once a minute per key, so a busy integration costs no write per call.
 */
export async function authenticateApiKey(authorization: string | null, ip: string | null): Promise<ApiCaller | null> {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!m || !m[1].startsWith(KEY_PREFIX) || m[1].length > 200) return null;
  const hash = hashOf(m[1]);
  const [row] = await db()
    .select({
      id: apiKeys.id,
      prefix: apiKeys.prefix,
      scope: apiKeys.scope,
      keyHash: apiKeys.keyHash,
      usable: sql<boolean>`${apiKeys.revokedAt} is null and ${apiKeys.expiresAt} > now()`,
      stale: sql<boolean>`${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < now() - interval '1 minute'`,
    })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, hash))
    .limit(1);
  if (!row || !timingSafeEqual(Buffer.from(row.keyHash), Buffer.from(hash)) || !row.usable) return null;
  if (row.stale)
    await db()
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()`, lastUsedIp: ip })
      .where(eq(apiKeys.id, row.id));
  return { keyId: row.id, prefix: row.prefix, scope: row.scope };
}

/** Calls one key may make per minute, across every console process. */
export const API_CALLS_PER_MINUTE = () => {
  const n = Number(process.env.API_RATE_LIMIT_PER_MINUTE ?? 120);
  return Number.isInteger(n) && n > 0 ? n : 120;
};

/**
 * Counts a call against its key in a fixed one-minute window: one upsert in `rate_counters`
 * that increments and returns the count, so concurrent calls and several consoles share it.
 * Returns the seconds until the window ends when the call is over the limit.
 */
export async function countApiCall(keyId: string): Promise<{ allowed: true } | { allowed: false; retryAfter: number }> {
  const { rows } = await db().execute<{ count: number; reset: number }>(sql`
    insert into rate_counters as r (key, window_start, count) values (${`api:${keyId}`}, date_trunc('minute', now()), 1)
    on conflict (key) do update set
      count = case when r.window_start = date_trunc('minute', now()) then r.count + 1 else 1 end,
      window_start = date_trunc('minute', now())
    returning count, ceil(extract(epoch from (window_start + interval '1 minute' - now())))::int as reset`);
  const { count, reset } = rows[0];
  return count > API_CALLS_PER_MINUTE()
    ? { allowed: false, retryAfter: Math.max(1, Number(reset)) }
    : { allowed: true };
}
