import 'server-only';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { users } from '@/lib/db/schema';

export type SsoDecision =
  | { ok: true; user: typeof users.$inferSelect }
  | {
      ok: false;
      reason: 'email_unverified' | 'no_subject' | 'unknown_user' | 'not_sso' | 'inactive' | 'subject_mismatch';
    };

/**
 * Which Verdict user a company-SSO sign-in is, if any. An e-mail the identity provider has not
 * verified proves nothing (anyone can put any address on an account there); a user is bound to
 * the provider's stable `sub` at the first sign-in and later matched by it, so a renamed or
 * recycled address cannot take the account over; and only users an admin created for SSO
 * (without a password) may use it, so a password admin cannot be signed in through the provider.
 */
export async function resolveSsoUser(claims: {
  sub?: unknown;
  email?: unknown;
  email_verified?: unknown;
}): Promise<SsoDecision> {
  const sub = typeof claims.sub === 'string' && claims.sub ? claims.sub : null;
  if (!sub) return { ok: false, reason: 'no_subject' };
  const [bound] = await db().select().from(users).where(eq(users.ssoSubject, sub)).limit(1);
  if (bound)
    return bound.active && bound.sso
      ? { ok: true, user: bound }
      : { ok: false, reason: bound.active ? 'not_sso' : 'inactive' };

  if (claims.email_verified !== true && claims.email_verified !== 'true')
    return { ok: false, reason: 'email_unverified' };
  const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : '';
  const [row] = email
    ? await db()
        .select()
        .from(users)
        .where(eq(sql`lower(${users.email})`, email))
        .limit(1)
    : [];
  if (!row) return { ok: false, reason: 'unknown_user' };
  if (!row.sso) return { ok: false, reason: 'not_sso' };
  if (!row.active) return { ok: false, reason: 'inactive' };
  if (row.ssoSubject) return { ok: false, reason: 'subject_mismatch' };
  // First SSO sign-in: bind the subject, once (a concurrent first sign-in with another sub loses).
  const [claimed] = await db()
    .update(users)
    .set({ ssoSubject: sub, updatedAt: new Date() })
    .where(and(eq(users.id, row.id), isNull(users.ssoSubject)))
    .returning();
  return claimed ? { ok: true, user: claimed } : { ok: false, reason: 'subject_mismatch' };
}
