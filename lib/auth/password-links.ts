import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import { db } from '@/lib/db/client';
import { passwordLinks, users } from '@/lib/db/schema';
import { hashPassword } from './password';
import { passwordProblem } from './password-policy';
import { revokeUserSessions } from './sessions';

/**
 * An admin never sets a working password: a new password user, or one whose password an admin
 * resets, gets a one-time link (valid LINK_HOURS, shown once to the admin) with which they choose
 * their own. Only the token's SHA-256 is stored; a new link replaces the user's earlier ones.
 */
export const LINK_HOURS = 24;
export const SET_PASSWORD_PATH = '/login/set-password';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function issuePasswordLink(
  target: { id: string; email: string },
  purpose: 'invite' | 'reset',
  actor: { id: string; email: string },
  tx: Pick<ReturnType<typeof db>, 'insert' | 'update'> = db(),
): Promise<{ path: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + LINK_HOURS * 3600_000);
  await tx
    .update(passwordLinks)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordLinks.userId, target.id), isNull(passwordLinks.usedAt)));
  await tx
    .insert(passwordLinks)
    .values({ userId: target.id, tokenHash: hashToken(token), purpose, createdBy: actor.id, expiresAt });
  await audit(
    {
      action: 'user.password_link.create',
      actor,
      targetType: 'user',
      targetId: target.id,
      details: { purpose, expiresAt: expiresAt.toISOString() },
    },
    tx,
  );
  // The token rides in the fragment: browsers never send it to a server, so no log or Referer keeps it.
  return { path: `${SET_PASSWORD_PATH}#${token}`, expiresAt };
}

export type LinkOutcome = { ok: true; email: string } | { ok: false; status: 400 | 410; error: string };

const LINK_GONE = 'This link was already used or has expired. Ask an administrator for a new one.';

/** Sets the password chosen through a link, once: the link is used up and every session of the user ends. */
export async function redeemPasswordLink(token: string, password: string): Promise<LinkOutcome> {
  const outcome = await db().transaction(async (tx) => {
    const [link] = await tx
      .select({ id: passwordLinks.id, userId: passwordLinks.userId, purpose: passwordLinks.purpose })
      .from(passwordLinks)
      .where(
        and(
          eq(passwordLinks.tokenHash, hashToken(token)),
          isNull(passwordLinks.usedAt),
          gt(passwordLinks.expiresAt, sql`now()`),
        ),
      )
      .for('update')
      .limit(1);
    if (!link) {
      await audit({ action: 'user.password_link.use', outcome: 'failure', details: { reason: 'used_or_expired' } }, tx);
      return { ok: false as const, status: 410 as const, error: LINK_GONE };
    }
    const [user] = await tx.select().from(users).where(eq(users.id, link.userId)).limit(1);
    if (!user?.active) return { ok: false as const, status: 410 as const, error: LINK_GONE };
    const problem = passwordProblem(password, { email: user.email, name: user.name });
    if (problem) return { ok: false as const, status: 400 as const, error: problem };
    await tx
      .update(passwordLinks)
      .set({ usedAt: sql`now()` })
      .where(eq(passwordLinks.id, link.id));
    await tx
      .update(users)
      .set({ passwordHash: await hashPassword(password), sso: false, updatedAt: new Date() })
      .where(eq(users.id, user.id));
    await audit(
      {
        action: 'user.password.set',
        actor: { id: user.id, email: user.email },
        targetType: 'user',
        targetId: user.id,
        details: { through: link.purpose },
      },
      tx,
    );
    return { ok: true as const, email: user.email, userId: user.id };
  });
  if (!outcome.ok) return outcome;
  // After the commit: the embedded database runs one transaction at a time.
  await revokeUserSessions(outcome.userId);
  return { ok: true, email: outcome.email };
}
