import { randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { describe, expect, it, vi } from 'vitest';
import { markAccessReviewedAction } from '@/lib/actions/access-review';
import { confirmTotpEnrolmentAction, proveCodeAction, startTotpEnrolmentAction } from '@/lib/actions/account';
import { createApiKeyAction } from '@/lib/actions/api-keys';
import { revealPersonalDataAction } from '@/lib/actions/review';
import { changeRoleAction, createUserAction } from '@/lib/actions/users';
import { authorizeCredentials } from '@/lib/auth/options';
import { redeemPasswordLink } from '@/lib/auth/password-links';
import { passwordProblem } from '@/lib/auth/password-policy';
import { createSession } from '@/lib/auth/sessions';
import { loadAccessReview } from '@/lib/auth/access-review';
import { db } from '@/lib/db/client';
import { apiKeys, auditLog, loginThrottle, passwordLinks, piiReveals, userSessions, users } from '@/lib/db/schema';
import { encode } from 'next-auth/jwt';
import { request } from '../support/next-headers';

vi.mock('next/headers', async () => (await import('../support/next-headers')).nextHeaders);
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));
process.env.NEXTAUTH_SECRET ??= 'accounts-test-secret-0123456789abcdef';
process.env.WEBHOOK_SECRET_KEY ??= 'webhook-test-key-0123456789-0123456789-0123456789';

const code = (secret: string, offset = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offset * 30_000,
  });

async function newUser(role: 'analyst' | 'manager' | 'admin') {
  const [u] = await db()
    .insert(users)
    .values({ email: `acc-${randomUUID().slice(0, 8)}@example.test`, name: 'Acc User', role })
    .returning();
  return u;
}

/** Acts as `user` through a fresh session cookie; returns the session id. */
async function actAs(user: { id: string }, factor?: { required: boolean }) {
  const sid = await createSession(user.id, { ip: '127.0.0.1', userAgent: 'vitest' }, factor);
  request.cookie = await encode({ token: { sid, sub: user.id }, secret: process.env.NEXTAUTH_SECRET! });
  return sid;
}

/** Enrols TOTP for `user` through the actions; returns the secret and the recovery codes. */
async function enrolTotp(user: { id: string }) {
  await actAs(user);
  const start = await startTotpEnrolmentAction({});
  if (!start.ok) throw new Error(start.error);
  const done = await confirmTotpEnrolmentAction({ factorId: start.data.factorId, code: code(start.data.secret) });
  if (!done.ok) throw new Error(done.error);
  return { secret: start.data.secret, recoveryCodes: done.data.recoveryCodes! };
}

describe('accounts a regulator accepts (real database)', () => {
  it('refuses common, breached and guessable passwords with a sentence', () => {
    expect(passwordProblem('aaaaaaaaaaaa')).toMatch(/too easy to guess/);
    expect(passwordProblem('password1234')).toMatch(/common and breached passwords/);
    expect(passwordProblem('short')).toBe('Use at least 12 characters.');
    expect(passwordProblem('ada.lovelace.example', { email: 'ada.lovelace.example@example.test' })).not.toBeNull();
    expect(passwordProblem('Velvet-Harbor-Quartz-42')).toBeNull();
  });

  it('TOTP enrolment gives ten recovery codes; a code works once, a recovery code once and not twice', async () => {
    const u = await newUser('analyst');
    const { secret, recoveryCodes } = await enrolTotp(u);
    expect(recoveryCodes).toHaveLength(10);
    await actAs(u, { required: true });
    // The code just used for the enrolment is not accepted again (no replay).
    const replay = await proveCodeAction({ code: code(secret) });
    expect(replay.ok).toBe(false);
    const next = await proveCodeAction({ code: code(secret, 1) });
    expect(next.ok).toBe(true);

    await actAs(u, { required: true });
    expect((await proveCodeAction({ code: recoveryCodes[0] })).ok).toBe(true);
    await actAs(u, { required: true });
    expect((await proveCodeAction({ code: recoveryCodes[0] })).ok).toBe(false);
    const used = await db()
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.recovery_code.use'), eq(auditLog.actorId, u.id)));
    expect(used[0].n).toBe(1);
  });

  it('a session owing its factor reaches only the proving actions; a wrong code counts against the sign-in throttle', async () => {
    const admin = await newUser('admin');
    const { secret } = await enrolTotp(admin);
    await actAs(admin, { required: true });
    const other = await newUser('analyst');
    const blocked = await changeRoleAction({ userId: other.id, role: 'manager' });
    expect(blocked).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    // A stolen password cannot enrol the thief's own authenticator.
    expect((await startTotpEnrolmentAction({})).ok).toBe(false);

    const wrong = await proveCodeAction({ code: '000000' === code(secret) ? '111111' : '000000' });
    expect(wrong.ok).toBe(false);
    const [row] = await db()
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.key, `acct:${admin.email.toLowerCase()}`));
    expect(row?.failures).toBeGreaterThanOrEqual(1);
    const failures = await db()
      .select({ n: count() })
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'auth.second_factor'), eq(auditLog.actorId, admin.id), eq(auditLog.outcome, 'failure')),
      );
    expect(failures[0].n).toBe(1);
  });

  it('step-up: 16 minutes after the factor, reveal, API-key and role actions are refused and write nothing', async () => {
    const admin = await newUser('admin');
    const { secret } = await enrolTotp(admin);
    const sid = await actAs(admin);
    await db()
      .update(userSessions)
      .set({ factorAt: new Date(Date.now() - 16 * 60_000) })
      .where(eq(userSessions.id, sid));
    const target = await newUser('analyst');
    const keysBefore = (await db().select({ n: count() }).from(apiKeys))[0].n;
    const revealsBefore = (await db().select({ n: count() }).from(piiReveals))[0].n;

    const reveal = await revealPersonalDataAction({ executionId: randomUUID(), reason: 'Checking a fraud report' });
    const key = await createApiKeyAction({ name: 'step-up test key', days: '30' });
    const role = await changeRoleAction({ userId: target.id, role: 'admin' });
    for (const r of [reveal, key, role]) expect(r).toMatchObject({ ok: false, code: 'STEP_UP' });
    expect((await db().select({ n: count() }).from(apiKeys))[0].n).toBe(keysBefore);
    expect((await db().select({ n: count() }).from(piiReveals))[0].n).toBe(revealsBefore);
    const [after] = await db().select().from(users).where(eq(users.id, target.id));
    expect(after.role).toBe('analyst');

    // Proving the factor again lets the same call through.
    expect((await proveCodeAction({ code: code(secret, 1) })).ok).toBe(true);
    expect(await changeRoleAction({ userId: target.id, role: 'manager' })).toMatchObject({ ok: true });
  });

  it('an admin-created user signs in only through the one-time link; a used or expired link is refused', async () => {
    const admin = await newUser('admin');
    await actAs(admin);
    const email = `invited-${randomUUID().slice(0, 8)}@example.test`;
    const created = await createUserAction({ email, name: 'Ivy Invited', role: 'analyst', signIn: 'password' });
    expect(created.ok).toBe(true);
    const path = (created as { data: { linkPath: string } }).data.linkPath;
    const token = path.split('#')[1];
    // Before the link is used there is no password to sign in with.
    await expect(authorizeCredentials({ email, password: 'anything-at-all-1' }, { headers: {} })).rejects.toThrow();

    expect(await redeemPasswordLink(token, 'password1234')).toMatchObject({ ok: false, status: 400 });
    expect(await redeemPasswordLink(token, 'Velvet-Harbor-Quartz-42')).toMatchObject({ ok: true, email });
    expect(await redeemPasswordLink(token, 'Another-Quiet-Lantern-77')).toMatchObject({ ok: false, status: 410 });
    const signedIn = await authorizeCredentials({ email, password: 'Velvet-Harbor-Quartz-42' }, { headers: {} });
    expect(signedIn.email).toBe(email);

    const reset = await createUserAction({ email: `exp-${email}`, name: 'Exp', role: 'analyst', signIn: 'password' });
    const expired = (reset as { data: { linkPath: string } }).data.linkPath.split('#')[1];
    await db()
      .update(passwordLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(sql`${passwordLinks.userId} = ${(reset as { data: { id: string } }).data.id}`);
    expect(await redeemPasswordLink(expired, 'Velvet-Harbor-Quartz-42')).toMatchObject({ ok: false, status: 410 });
  });

  it('the access review lists every user and key, and "Mark reviewed" lands in the audit log', async () => {
    const admin = await newUser('admin');
    await actAs(admin);
    const review = await loadAccessReview();
    const [{ n: userCount }] = await db().select({ n: count() }).from(users);
    const [{ n: keyCount }] = await db().select({ n: count() }).from(apiKeys);
    expect(review.users).toHaveLength(userCount);
    expect(review.keys).toHaveLength(keyCount);
    expect((await markAccessReviewedAction({})).ok).toBe(true);
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'access_review.complete'), eq(auditLog.actorId, admin.id)));
    expect(entry.details).toMatchObject({ users: userCount, apiKeys: keyCount });
  });
});
