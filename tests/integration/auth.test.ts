import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ensureUsers } from '@/lib/auth/seed';
import { checkSession, createSession, revokeSession, revokeUserSessions } from '@/lib/auth/sessions';
import { clearFailures, lockedMinutes, recordFailure } from '@/lib/auth/throttle';
import { verifyPassword } from '@/lib/auth/password';
import { audit } from '@/lib/audit';
import { db } from '@/lib/db/client';
import { auditLog, userSessions, users } from '@/lib/db/schema';

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

  it('failed sign-ins slow down, then lock the e-mail; success clears it', async () => {
    const key = `email:lock-${Date.now()}@example.test`;
    const delays: number[] = [];
    let locked = false;
    for (let i = 0; i < 5; i++) {
      const r = await recordFailure([key]);
      delays.push(r.delayMs);
      locked = r.locked;
    }
    expect(delays[0]).toBe(0);
    expect(delays[4]).toBeGreaterThan(delays[2]);
    expect(locked).toBe(true);
    expect(await lockedMinutes([key])).toBeGreaterThan(0);
    await clearFailures([key]);
    expect(await lockedMinutes([key])).toBe(0);
  });

  it('failures counted for a shared IP do not claim a lock on an e-mail that has not reached its own limit', async () => {
    const ip = `ip:10.9.${Date.now() % 250}.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 8; i++) await recordFailure([`email:other-${i}-${Date.now()}@example.test`, ip]);
    const email = `email:fresh-${Date.now()}@example.test`;
    const r = await recordFailure([email, ip]);
    // The IP has 9 failures (allowance 20), the e-mail 1: nothing is locked, and it is not said to be.
    expect(r.locked).toBe(false);
    expect(await lockedMinutes([email, ip])).toBe(0);
    await clearFailures([email, ip]);
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
