import 'server-only';
import { audit } from '@/lib/audit';
import { currentIp } from '@/lib/request';
import { verifyCode } from './factors';
import { markFactorProved, revokeSession, type SessionUser } from './sessions';
import { attemptSucceeded, reserveAttempt, throttleKeys } from './throttle';

export type ProofOutcome =
  { ok: true; method: 'totp' | 'recovery' | 'passkey' } | { ok: false; locked: boolean; error: string };

const lockedText = (minutes: number) =>
  `Too many wrong codes. Try again in ${minutes || 1} minute${minutes === 1 ? '' : 's'}.`;

/**
 * Proves the second factor of a session, at sign-in (`purpose: 'sign_in'`) or for step-up. Every
 * try counts against the sign-in throttle (lib/auth/throttle.ts) with the same keys as the
 * password, before the code is checked: a wrong code is a failed sign-in, and the lock that
 * stops password guesses stops code guesses too. A sign-in that reaches the lock is ended.
 */
export async function proveSecondFactor(
  user: SessionUser,
  purpose: 'sign_in' | 'step_up',
  check: () => Promise<'totp' | 'recovery' | 'passkey' | null>,
  /** The caller's address; read from the request when not given (scripts/bench-sign-in.ts gives it). */
  ip?: string | null,
): Promise<ProofOutcome> {
  ip = ip === undefined ? await currentIp() : ip;
  const keys = throttleKeys(user.email, ip);
  const attempt = await reserveAttempt(keys);
  const action = purpose === 'sign_in' ? 'auth.second_factor' : 'auth.step_up';
  if (!attempt.allowed) {
    await audit({ action, actor: user, outcome: 'denied', ip, details: { reason: 'locked' } });
    if (purpose === 'sign_in') await revokeSession(user.sessionId);
    return { ok: false, locked: true, error: lockedText(attempt.lockedMinutes) };
  }
  const method = await check();
  if (!method) {
    await audit({ action, actor: user, outcome: 'failure', ip, details: { reason: 'wrong_code' } });
    if (attempt.reachedLimit) {
      if (purpose === 'sign_in') await revokeSession(user.sessionId);
      return { ok: false, locked: true, error: lockedText(attempt.lockedMinutes) };
    }
    return { ok: false, locked: false, error: 'That code is not right. Check the time on your device and try again.' };
  }
  await attemptSucceeded(keys);
  await markFactorProved(user.sessionId);
  await audit({ action, actor: user, ip, details: { method } });
  return { ok: true, method };
}

/** A typed code (TOTP or recovery) as the proof. */
export const proveWithCode = (user: SessionUser, purpose: 'sign_in' | 'step_up', code: string) =>
  proveSecondFactor(user, purpose, () => verifyCode(user, code));
