import 'server-only';
import { eq } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import { db } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { hashPassword, verifyPassword } from './password';
import { passwordProblem } from './password-policy';
import { revokeOtherSessions, type SessionUser } from './sessions';
import { attemptSucceeded, reserveAttempt, throttleKeys } from './throttle';
import { currentIp } from '@/lib/request';

type Outcome = { ok: true; ended: number } | { ok: false; field: 'current' | 'next' | 'code'; error: string };

/**
 * A user changes their own password with the old one and, when they hold one, a second factor:
 * a stolen session alone cannot take the account over. Wrong old passwords count against the
 * sign-in throttle like any other guess. The other sessions end.
 */
export async function changeOwnPassword(
  user: SessionUser,
  input: { current: string; next: string; code: string },
  proveFactor: () => Promise<unknown>,
): Promise<Outcome> {
  const [row] = await db().select().from(users).where(eq(users.id, user.id)).limit(1);
  if (!row?.passwordHash)
    return { ok: false, field: 'current', error: 'You sign in through SSO: your password is kept by your company.' };
  const ip = await currentIp();
  const keys = throttleKeys(user.email, ip);
  const attempt = await reserveAttempt(keys);
  if (!attempt.allowed) return { ok: false, field: 'current', error: 'Too many wrong passwords. Try again later.' };
  const auditRefusal = (reason: 'wrong_password' | 'wrong_code') =>
    audit({ action: 'user.password.change', actor: user, outcome: 'failure', ip, details: { reason } });
  if (!(await verifyPassword(input.current, row.passwordHash))) {
    await auditRefusal('wrong_password');
    return { ok: false, field: 'current', error: 'That is not your current password.' };
  }
  if (user.hasFactor && !(await proveFactor())) {
    await auditRefusal('wrong_code');
    return {
      ok: false,
      field: 'code',
      error: 'Enter a current code from your authenticator app (or a recovery code).',
    };
  }
  await attemptSucceeded(keys);
  const problem =
    input.next === input.current
      ? 'Choose a password other than your current one.'
      : passwordProblem(input.next, { email: row.email, name: row.name });
  if (problem) return { ok: false, field: 'next', error: problem };
  await db()
    .update(users)
    .set({ passwordHash: await hashPassword(input.next), updatedAt: new Date() })
    .where(eq(users.id, user.id));
  const ended = await revokeOtherSessions(user.id, user.sessionId);
  await audit({
    action: 'user.password.change',
    actor: user,
    targetType: 'user',
    targetId: user.id,
    ip,
    details: { endedSessions: ended },
  });
  return { ok: true, ended };
}
