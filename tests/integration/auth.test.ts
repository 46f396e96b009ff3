import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { ensureUsers } from '@/lib/auth/seed';
import { checkSession, createSession, revokeSession, revokeUserSessions } from '@/lib/auth/sessions';
import { authorizeCredentials } from '@/lib/auth/options';
import { SIGN_IN_REFUSED } from '@/lib/auth/sign-in-messages';
import { attemptSucceeded, lockedMinutes, reserveAttempt, throttleKeys } from '@/lib/auth/throttle';
import { hashPassword, verifyPassword } from '@/lib/auth/password';
import { audit } from '@/lib/audit';
import { db } from '@/lib/db/client';
import { listUsers } from '@/lib/auth/users';
import { auditLog, loginThrottle, userSessions, users } from '@/lib/db/schema';
import { sessionCookieFor } from '../support/feedback';
import { request } from '../support/next-headers';

vi.mock('next/headers', async () => (await import('../support/next-headers')).nextHeaders);
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

describe('users and sessions (real database)', () => {
  it('creates the three demo users once, with the demo password, and keeps existing roles', async () => {
    const first = await ensureUsers(db(), { demoPassword: 'first-password' });
    expect(first.map((u) => u.email)).toEqual([
      'analyst@verdict.local',
      'manager@verdict.local',
      'admin@verdict.local',
    ]);
    await db().update(users).set({ role: 'manager' }).where(eq(users.email, 'analyst@verdict.local'));
    await ensureUsers(db(), { demoPassword: 'second-password' });
    const rows = await db()
      .select()
      .from(users)
      .where(sql`${users.email} like '%@verdict.local'`);
    expect(rows).toHaveLength(3);
    const analyst = rows.find((r) => r.email === 'analyst@verdict.local')!;
    expect(analyst.role).toBe('manager');
    expect(await verifyPassword('second-password', analyst.passwordHash)).toBe(true);
    expect(await verifyPassword('first-password', analyst.passwordHash)).toBe(false);
    await db().update(users).set({ role: 'analyst' }).where(eq(users.id, analyst.id));
  });

  it('a session is valid until revoked, idle too long, past its absolute life, or its user is deactivated', async () => {
    const [u] = await db()
      .insert(users)
      .values({ email: `s-${Date.now()}@example.test`, name: 'S', role: 'analyst' })
      .returning();
    const sid = await createSession(u.id, { ip: '127.0.0.1', userAgent: 'test' });
    const ok = await checkSession(sid);
    expect(ok.ok && ok.user.email).toBe(u.email);

    await revokeSession(sid);
    expect(await checkSession(sid)).toEqual({ ok: false, reason: 'revoked' });

    const idle = await createSession(u.id, { ip: null, userAgent: null });
    await db()
      .update(userSessions)
      .set({ lastSeenAt: new Date(Date.now() - 31 * 60_000) })
      .where(eq(userSessions.id, idle));
    expect(await checkSession(idle)).toEqual({ ok: false, reason: 'idle' });

    const old = await createSession(u.id, { ip: null, userAgent: null });
    await db()
      .update(userSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(userSessions.id, old));
    expect(await checkSession(old)).toEqual({ ok: false, reason: 'expired' });

    const live = await createSession(u.id, { ip: null, userAgent: null });
    await db().update(users).set({ active: false }).where(eq(users.id, u.id));
    expect(await checkSession(live)).toEqual({ ok: false, reason: 'inactive' });

    await db().update(users).set({ active: true }).where(eq(users.id, u.id));
    const again = await createSession(u.id, { ip: null, userAgent: null });
    await revokeUserSessions(u.id);
    expect(await checkSession(again)).toEqual({ ok: false, reason: 'revoked' });
    expect(await checkSession('no-such-session')).toEqual({ ok: false, reason: 'missing' });
  });

  it('attempts lock the account from one address; a success clears it', async () => {
    const keys = throttleKeys(`lock-${Date.now()}@example.test`, '192.0.2.10');
    const seen = [];
    for (let i = 0; i < 6; i++) seen.push(await reserveAttempt(keys));
    expect(seen[0].delayMs).toBe(0);
    expect(seen[4].delayMs).toBeGreaterThan(seen[2].delayMs);
    expect(seen.slice(0, 5).every((r) => r.allowed)).toBe(true);
    expect(seen[4].reachedLimit).toBe(true);
    // Over the limit, the password is not even checked.
    expect(seen[5]).toMatchObject({ allowed: false });
    expect(seen[5].lockedMinutes).toBeGreaterThan(0);
    expect(await lockedMinutes([keys.pair])).toBeGreaterThan(0);
    // The account as a whole is never locked, only slowed down.
    expect(await lockedMinutes([keys.account])).toBe(0);
    await attemptSucceeded(keys);
    expect(await lockedMinutes([keys.pair])).toBe(0);
  });

  it('attempts counted for a shared IP do not claim a lock on an account that has not reached its own limit', async () => {
    const address = `10.9.${Date.now() % 250}.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 8; i++) await reserveAttempt(throttleKeys(`other-${i}-${Date.now()}@example.test`, address));
    const keys = throttleKeys(`fresh-${Date.now()}@example.test`, address);
    const r = await reserveAttempt(keys);
    // The IP has 9 attempts (allowance 20), the account 1: nothing is locked, and it is not said to be.
    expect(r).toMatchObject({ allowed: true, reachedLimit: false });
    expect(await lockedMinutes([keys.pair, keys.ip!])).toBe(0);
    // A success gives the IP its attempt back, so an office signing in does not use up its allowance.
    await attemptSucceeded(keys);
    const [row] = await db().select().from(loginThrottle).where(eq(loginThrottle.key, keys.ip!));
    expect(row.failures).toBe(8);
  });

  it('15 concurrent wrong passwords against one e-mail from one address check at most 5 of them (limit 5)', async () => {
    const email = `race-${Date.now()}@example.test`;
    await db()
      .insert(users)
      .values({ email, name: 'Race', role: 'analyst', passwordHash: await hashPassword('the-right-password') });
    const headers = { 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250)}` };
    const results = await Promise.allSettled(
      Array.from({ length: 15 }, (_, i) => authorizeCredentials({ email, password: `wrong-${i}` }, { headers })),
    );
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    // Each checked password leaves a 'wrong_password' entry; the others were refused before bcrypt.
    const rows = await db().select().from(auditLog).where(eq(auditLog.actorEmail, email));
    const reasons = rows.map((r) => (r.details as { reason?: string }).reason);
    expect(reasons.filter((r) => r === 'wrong_password').length).toBeLessThanOrEqual(5);
    expect(reasons.filter((r) => r === 'locked').length).toBeGreaterThanOrEqual(10);
    // And the right password is refused from that address while the lock lasts.
    await expect(authorizeCredentials({ email, password: 'the-right-password' }, { headers })).rejects.toThrow(
      /Too many failed sign-ins/,
    );
  });
});

// Each wrong password waits for the account's growing delay (up to 5 s) and bcrypt: minutes, not seconds, on a loaded machine.
describe('nobody can lock a colleague out from elsewhere', { timeout: 120_000 }, () => {
  const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
  async function account(label: string) {
    const email = `${label}-${randomUUID().slice(0, 8)}@example.test`;
    const [u] = await db()
      .insert(users)
      .values({ email, name: label, role: 'admin', passwordHash: await hashPassword('the-right-password') })
      .returning({ id: users.id, email: users.email });
    return u;
  }

  it('five wrong passwords from one address do not stop the owner signing in from another', async () => {
    const owner = await account('owner');
    const attacker = `203.0.113.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 5; i++)
      await expect(
        authorizeCredentials({ email: owner.email, password: `guess-${i}` }, from(attacker)),
      ).rejects.toThrow();
    // The attacker's address is locked for this account, even with the right password…
    await expect(
      authorizeCredentials({ email: owner.email, password: 'the-right-password' }, from(attacker)),
    ).rejects.toThrow(/Too many failed sign-ins/);
    // …and the owner, from their own address, signs in (after the account's delay, never a lock).
    const t0 = Date.now();
    const signedIn = await authorizeCredentials(
      { email: owner.email, password: 'the-right-password' },
      from('198.51.100.77'),
    );
    expect(signedIn).toMatchObject({ id: owner.id, email: owner.email });
    // At most the account's 5 s delay, plus bcrypt and a few statements on a loaded machine.
    expect(Date.now() - t0).toBeLessThan(12_000);
  });

  it('the account as a whole slows down as failures grow across addresses, up to 5 s, and never locks', async () => {
    const owner = await account('spread');
    const delays: number[] = [];
    for (let i = 0; i < 9; i++)
      delays.push((await reserveAttempt(throttleKeys(owner.email, `192.0.2.${i + 1}`))).delayMs);
    expect(delays.slice(0, 2)).toEqual([0, 250]);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]);
    expect(delays.at(-1)).toBe(5_000);
    // No address reached its own limit: every one of them may still try.
    const next = await reserveAttempt(throttleKeys(owner.email, '192.0.2.200'));
    expect(next).toMatchObject({ allowed: true, reachedLimit: false, delayMs: 5_000 });
  });

  it('a deactivated account gets the same answer with the right and a wrong password (no oracle)', async () => {
    const gone = await account('gone');
    await db().update(users).set({ active: false }).where(eq(users.id, gone.id));
    const answer = (password: string) =>
      authorizeCredentials({ email: gone.email, password }, from('198.51.100.90')).then(
        () => 'signed in',
        (e: Error) => e.message,
      );
    const right = await answer('the-right-password');
    const wrong = await answer('a-wrong-password');
    const unknown = await authorizeCredentials(
      { email: `nobody-${Date.now()}@example.test`, password: 'x' },
      from('198.51.100.91'),
    ).then(
      () => 'signed in',
      (e: Error) => e.message,
    );
    expect(right).toBe(SIGN_IN_REFUSED);
    expect(wrong).toBe(SIGN_IN_REFUSED);
    expect(unknown).toBe(SIGN_IN_REFUSED);
    // The audit log still tells an admin why.
    const reasons = (await db().select().from(auditLog).where(eq(auditLog.actorEmail, gone.email))).map(
      (r) => (r.details as { reason?: string }).reason,
    );
    expect(reasons.sort()).toEqual(['inactive', 'wrong_password']);
  });

  it('an admin unlocks an account (Users page action, audited); a non-admin cannot', async () => {
    const owner = await account('locked');
    const admin = await account('unlocker');
    const analyst = (
      await db()
        .insert(users)
        .values({ email: `an-${randomUUID().slice(0, 8)}@example.test`, name: 'A', role: 'analyst' })
        .returning({ id: users.id })
    )[0];
    const office = '198.51.100.120';
    for (let i = 0; i < 5; i++)
      await expect(authorizeCredentials({ email: owner.email, password: `typo-${i}` }, from(office))).rejects.toThrow();
    await expect(
      authorizeCredentials({ email: owner.email, password: 'the-right-password' }, from(office)),
    ).rejects.toThrow(/Too many failed sign-ins/);
    const [listed] = (await listUsers()).filter((u) => u.id === owner.id);
    expect(listed.lockedAddresses).toBe(1);

    const { unlockSignInAction } = await import('@/lib/actions/users');
    request.cookie = (await sessionCookieFor(analyst)).value;
    expect(await unlockSignInAction({ userId: owner.id })).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect((await listUsers()).find((u) => u.id === owner.id)?.lockedAddresses).toBe(1);

    request.cookie = (await sessionCookieFor(admin)).value;
    expect(await unlockSignInAction({ userId: owner.id })).toMatchObject({ ok: true, data: { addresses: 1 } });
    request.cookie = '';
    expect((await listUsers()).find((u) => u.id === owner.id)?.lockedAddresses).toBe(0);
    await expect(
      authorizeCredentials({ email: owner.email, password: 'the-right-password' }, from(office)),
    ).resolves.toMatchObject({ id: owner.id });
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.unlock_sign_in'), eq(auditLog.targetId, owner.id)));
    expect(entry).toMatchObject({ actorId: admin.id, outcome: 'success', details: { lockedAddresses: 1 } });
  });
});

describe('the audit log', () => {
  it('the audit log is append-only: rows cannot be changed or deleted', async () => {
    await audit({ action: 'test.append_only', actorEmail: 'x@example.test', ip: null });
    const refused = (e: unknown) =>
      /append-only/.test(String((e as { cause?: Error }).cause?.message ?? (e as Error).message));
    await expect(
      db().execute(sql`update audit_log set action = 'x' where action = 'test.append_only'`),
    ).rejects.toSatisfy(refused);
    await expect(db().execute(sql`delete from audit_log where action = 'test.append_only'`)).rejects.toSatisfy(refused);
    const rows = await db().select().from(auditLog).where(eq(auditLog.action, 'test.append_only'));
    expect(rows).toHaveLength(1);
  });
});
