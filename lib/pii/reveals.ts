import 'server-only';
import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import { db } from '@/lib/db/client';
import { executions, piiReveals } from '@/lib/db/schema';

/** How long a reveal of one execution's personal data lasts. */
export const REVEAL_MINUTES = 15;

export interface ActiveReveal {
  expiresAt: Date;
  reason: string;
}

/** The user's current reveal of this execution, if one is still running. */
export async function getActiveReveal(userId: string, executionId: string): Promise<ActiveReveal | null> {
  const [r] = await db()
    .select({ expiresAt: piiReveals.expiresAt, reason: piiReveals.reason })
    .from(piiReveals)
    .where(
      and(eq(piiReveals.userId, userId), eq(piiReveals.executionId, executionId), gt(piiReveals.expiresAt, sql`now()`)),
    )
    .orderBy(desc(piiReveals.expiresAt))
    .limit(1);
  return r ?? null;
}

/** Which of these executions the user has revealed right now (one query for a whole page). */
export async function revealedIds(userId: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db()
    .selectDistinct({ id: piiReveals.executionId })
    .from(piiReveals)
    .where(
      and(eq(piiReveals.userId, userId), inArray(piiReveals.executionId, ids), gt(piiReveals.expiresAt, sql`now()`)),
    );
  return new Set(rows.map((r) => r.id));
}

/**
 * Starts a reveal and records it in the audit log, in one transaction: there is never a reveal
 * without its audit entry. Returns null when the execution is not in the cache.
 */
export async function createReveal(
  user: { id: string; email: string },
  executionId: string,
  reason: string,
): Promise<ActiveReveal | null> {
  return db().transaction(async (tx) => {
    const [ex] = await tx.select({ id: executions.id }).from(executions).where(eq(executions.id, executionId)).limit(1);
    if (!ex) return null;
    const [row] = await tx
      .insert(piiReveals)
      .values({
        userId: user.id,
        executionId,
        reason,
        expiresAt: sql`now() + make_interval(mins => ${REVEAL_MINUTES})`,
      })
      .returning({ expiresAt: piiReveals.expiresAt, reason: piiReveals.reason });
    await audit(
      {
        action: 'pii.reveal',
        actor: user,
        targetType: 'execution',
        targetId: executionId,
        details: { reason, minutes: REVEAL_MINUTES },
      },
      tx,
    );
    return row;
  });
}

/** Ends the user's running reveals of an execution now (masking returns at once). */
export async function endReveal(user: { id: string; email: string }, executionId: string): Promise<boolean> {
  return db().transaction(async (tx) => {
    const ended = await tx
      .update(piiReveals)
      .set({ expiresAt: sql`now()` })
      .where(
        and(
          eq(piiReveals.userId, user.id),
          eq(piiReveals.executionId, executionId),
          gt(piiReveals.expiresAt, sql`now()`),
        ),
      )
      .returning({ id: piiReveals.id });
    if (ended.length)
      await audit({ action: 'pii.hide', actor: user, targetType: 'execution', targetId: executionId }, tx);
    return ended.length > 0;
  });
}
