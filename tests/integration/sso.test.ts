import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '@/lib/auth/password';
import { resolveSsoUser } from '@/lib/auth/sso';
import { db } from '@/lib/db/client';
import { users } from '@/lib/db/schema';

async function user(over: Partial<typeof users.$inferInsert> = {}) {
  const email = `sso-${randomUUID().slice(0, 8)}@example.test`;
  const [row] = await db()
    .insert(users)
    .values({ email, name: 'S', role: 'admin', ...over })
    .returning();
  return row;
}

describe('company SSO decides on verified claims and a bound subject', () => {
  it('refuses an e-mail the provider has not verified', async () => {
    const u = await user({ sso: true });
    expect(await resolveSsoUser({ sub: randomUUID(), email: u.email })).toEqual({
      ok: false,
      reason: 'email_unverified',
    });
    expect(await resolveSsoUser({ sub: randomUUID(), email: u.email, email_verified: false })).toEqual({
      ok: false,
      reason: 'email_unverified',
    });
  });

  it('never signs in a password user (an admin with a password) through the provider', async () => {
    const admin = await user({ passwordHash: await hashPassword('a-long-password-1'), sso: false });
    expect(await resolveSsoUser({ sub: randomUUID(), email: admin.email, email_verified: true })).toEqual({
      ok: false,
      reason: 'not_sso',
    });
  });

  it('binds the subject at the first sign-in; another subject with the same e-mail is refused; the bound one is matched by subject', async () => {
    const u = await user({ sso: true });
    const sub = `idp|${randomUUID()}`;
    const first = await resolveSsoUser({ sub, email: u.email.toUpperCase(), email_verified: 'true' });
    expect(first.ok && first.user.id).toBe(u.id);
    const [row] = await db().select().from(users).where(eq(users.id, u.id));
    expect(row.ssoSubject).toBe(sub);

    expect(await resolveSsoUser({ sub: `idp|${randomUUID()}`, email: u.email, email_verified: true })).toEqual({
      ok: false,
      reason: 'subject_mismatch',
    });
    // The provider changed the address: the subject still names the same user.
    const again = await resolveSsoUser({ sub, email: 'renamed@example.test', email_verified: true });
    expect(again.ok && again.user.id).toBe(u.id);
  });

  it('refuses unknown and deactivated users and a missing subject', async () => {
    expect(await resolveSsoUser({ sub: randomUUID(), email: 'nobody@example.test', email_verified: true })).toEqual({
      ok: false,
      reason: 'unknown_user',
    });
    const off = await user({ sso: true, active: false });
    expect(await resolveSsoUser({ sub: randomUUID(), email: off.email, email_verified: true })).toEqual({
      ok: false,
      reason: 'inactive',
    });
    expect(await resolveSsoUser({ email: off.email, email_verified: true })).toEqual({
      ok: false,
      reason: 'no_subject',
    });
  });
});
