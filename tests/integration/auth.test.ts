import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ensureUsers } from '@/lib/auth/seed';
import { checkSession, createSession, revokeSession, revokeUserSessions } from '@/lib/auth/sessions';
import { authorizeCredentials } from '@/lib/auth/options';
import { attemptSucceeded, lockedMinutes, reserveAttempt } from '@/lib/auth/throttle';
import { hashPassword, verifyPassword } from '@/lib/auth/password';
import { audit } from '@/lib/audit';
import { db } from '@/lib/db/client';
import { auditLog, loginThrottle, userSessions, users } from '@/lib/db/schema';

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

  it('attempts slow down, then lock the e-mail; a success clears it', async () => {
    const key = `email:lock-${Date.now()}@example.test`;
    const seen = [];
    for (let i = 0; i < 6; i++) seen.push(await reserveAttempt([key]));
    expect(seen[0].delayMs).toBe(0);
    expect(seen[4].delayMs).toBeGreaterThan(seen[2].delayMs);
    expect(seen.slice(0, 5).every((r) => r.allowed)).toBe(true);
    expect(seen[4].reachedLimit).toBe(true);
    // Over the limit, the password is not even checked.
    expect(seen[5]).toMatchObject({ allowed: false });
    expect(seen[5].lockedMinutes).toBeGreaterThan(0);
    expect(await lockedMinutes([key])).toBeGreaterThan(0);
    await attemptSucceeded([key]);
    expect(await lockedMinutes([key])).toBe(0);
  });

  it('attempts counted for a shared IP do not claim a lock on an e-mail that has not reached its own limit', async () => {
    const ip = `ip:10.9.${Date.now() % 250}.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 8; i++) await reserveAttempt([`email:other-${i}-${Date.now()}@example.test`, ip]);
    const email = `email:fresh-${Date.now()}@example.test`;
    const r = await reserveAttempt([email, ip]);
    // The IP has 9 attempts (allowance 20), the e-mail 1: nothing is locked, and it is not said to be.
    expect(r).toMatchObject({ allowed: true, reachedLimit: false });
    expect(await lockedMinutes([email, ip])).toBe(0);
    // A success gives the IP its attempt back, so an office signing in does not use up its allowance.
    await attemptSucceeded([email, ip]);
    const [row] = await db().select().from(loginThrottle).where(eq(loginThrottle.key, ip));
    expect(row.failures).toBe(8);
  });

  it('15 concurrent wrong passwords against one e-mail check at most 5 of them (limit 5)', async () => {
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
    // And the right password is refused while the lock lasts.
    await expect(authorizeCredentials({ email, password: 'the-right-password' }, { headers })).rejects.toThrow(
      /Too many failed sign-ins/,
    );
  });

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
