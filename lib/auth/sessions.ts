import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { retryRead } from '@/lib/db/outage';
import { userSessions, users } from '@/lib/db/schema';
import { hasFactorSql } from './factors';
import type { Role } from './roles';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  sessionId: string;
  /**
   * Set while a password sign-in still owes its second factor: `verify` (the user holds one) or
   * `enrol` (they must add one first). Nothing but the second-factor page opens (lib/auth/guards.ts).
   */
  pending: null | 'verify' | 'enrol';
  /** When this session last proved a second factor: step-up looks at it (lib/auth/step-up.ts). */
  factorAt: Date | null;
  hasFactor: boolean;
}

export type SessionCheck =
  { ok: true; user: SessionUser } | { ok: false; reason: 'missing' | 'revoked' | 'expired' | 'idle' | 'inactive' };

const maxHours = () => Number(process.env.SESSION_MAX_HOURS ?? 12);
const idleMinutes = () => Number(process.env.SESSION_IDLE_MINUTES ?? 30);

export async function createSession(
  userId: string,
  meta: { ip: string | null; userAgent: string | null },
  factor: { required: boolean; provedAt?: Date | null } = { required: false },
): Promise<string> {
  const id = randomBytes(24).toString('base64url');
  await db()
    .insert(userSessions)
    .values({
      id,
      userId,
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
      factorRequired: factor.required,
      factorAt: factor.provedAt ?? null,
      expiresAt: new Date(Date.now() + maxHours() * 3600_000),
    });
  return id;
}

/**
 * Checks a session id against the server-side record: it must exist, not be revoked, be within
 * its absolute lifetime and its idle window, and belong to an active user. A valid session's
 * last-seen time moves forward (at most once a minute, to spare writes).
 */
export async function checkSession(sessionId: string | undefined | null): Promise<SessionCheck> {
  if (!sessionId) return { ok: false, reason: 'missing' };
  // The first statement of every request: a read, so one cut by a database restart is sent again.
  const [row] = await retryRead(() =>
    db()
      .select({
        revokedAt: userSessions.revokedAt,
        expiresAt: userSessions.expiresAt,
        lastSeenAt: userSessions.lastSeenAt,
        factorRequired: userSessions.factorRequired,
        factorAt: userSessions.factorAt,
        hasFactor: hasFactorSql(users.id),
        id: users.id,
        email: users.email,
        name: users.name,
        role: users.role,
        active: users.active,
      })
      .from(userSessions)
      .innerJoin(users, eq(users.id, userSessions.userId))
      .where(eq(userSessions.id, sessionId))
      .limit(1),
  );
  if (!row) return { ok: false, reason: 'missing' };
  if (row.revokedAt) return { ok: false, reason: 'revoked' };
  const now = Date.now();
  if (row.expiresAt.getTime() <= now) return { ok: false, reason: 'expired' };
  if (now - row.lastSeenAt.getTime() > idleMinutes() * 60_000) {
    await revokeSession(sessionId);
    return { ok: false, reason: 'idle' };
  }
  if (!row.active) {
    await revokeSession(sessionId);
    return { ok: false, reason: 'inactive' };
  }
  if (now - row.lastSeenAt.getTime() > 60_000) {
    await db()
      .update(userSessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(userSessions.id, sessionId));
  }
  const pending = row.factorRequired && !row.factorAt ? (row.hasFactor ? 'verify' : 'enrol') : null;
  return {
    ok: true,
    user: {
      id: row.id,
      email: row.email,
      name: row.name,
      role: row.role,
      sessionId,
      pending,
      factorAt: row.factorAt,
      hasFactor: row.hasFactor,
    },
  };
}

export async function revokeSession(sessionId: string): Promise<void> {
  await db()
    .update(userSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(userSessions.id, sessionId), isNull(userSessions.revokedAt)));
}

export async function revokeUserSessions(userId: string): Promise<void> {
  await db()
    .update(userSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.revokedAt)));
}

/** A second factor was proved in this session (at sign-in or step-up). */
export async function markFactorProved(sessionId: string): Promise<void> {
  await db()
    .update(userSessions)
    .set({ factorAt: sql`now()` })
    .where(eq(userSessions.id, sessionId));
}

export interface SessionListing {
  id: string;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date;
  lastSeenAt: Date;
}

/** A user's live sessions, most recently seen first ("Your sessions"). */
export async function listLiveSessions(userId: string): Promise<SessionListing[]> {
  return db()
    .select({
      id: userSessions.id,
      ip: userSessions.ip,
      userAgent: userSessions.userAgent,
      createdAt: userSessions.createdAt,
      lastSeenAt: userSessions.lastSeenAt,
    })
    .from(userSessions)
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.revokedAt), gt(userSessions.expiresAt, sql`now()`)))
    .orderBy(desc(userSessions.lastSeenAt));
}

/** Ends every session of a user but `keepId`; returns how many ended. */
export async function revokeOtherSessions(userId: string, keepId: string): Promise<number> {
  const rows = await db()
    .update(userSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(userSessions.userId, userId), ne(userSessions.id, keepId), isNull(userSessions.revokedAt)))
    .returning({ id: userSessions.id });
  return rows.length;
}

/** What the browser sees of a session in "Your sessions": never the id the cookie carries. */
export const sessionHandle = (id: string) => createHash('sha256').update(id).digest('base64url').slice(0, 22);
