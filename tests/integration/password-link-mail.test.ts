import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startSmtpReceiver } from '../support/smtp-receiver';
import { request } from '../support/next-headers';

vi.mock('next/headers', async () => (await import('../support/next-headers')).nextHeaders);
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

/**
 * Where SMTP is configured, an admin-created user's one-time link arrives by e-mail at a real SMTP
 * server on loopback, the admin's answer does not carry it, and the e-mailed link works once
 * through the route the set-password page calls. The configuration is read once per process
 * (lib/env.ts), so it is set before the modules that read it are loaded.
 */
const smtp = await startSmtpReceiver();
process.env.SMTP_URL = smtp.url;
process.env.MAIL_FROM = 'Verdict <verdict@example.test>';
process.env.NEXTAUTH_URL = 'https://verdict.example.test';
process.env.NEXTAUTH_SECRET ??= 'accounts-test-secret-0123456789abcdef';

const { createUserAction, resetPasswordAction } = await import('@/lib/actions/users');
const { authorizeCredentials } = await import('@/lib/auth/options');
const { createSession } = await import('@/lib/auth/sessions');
const { POST: setPassword } = await import('@/app/api/account/password-link/route');
const { db } = await import('@/lib/db/client');
const { auditLog, users } = await import('@/lib/db/schema');
const { and, eq, sql } = await import('drizzle-orm');
const { encode } = await import('next-auth/jwt');

afterAll(() => smtp.stop());

async function actAsNewAdmin() {
  const [admin] = await db()
    .insert(users)
    .values({ email: `mail-admin-${randomUUID().slice(0, 8)}@example.test`, name: 'Mail Admin', role: 'admin' })
    .returning();
  const sid = await createSession(admin.id, { ip: '127.0.0.1', userAgent: 'vitest' });
  request.cookie = await encode({ token: { sid, sub: admin.id }, secret: process.env.NEXTAUTH_SECRET! });
  return admin;
}

const linkIn = (text: string) => {
  const m = text.match(/https:\/\/verdict\.example\.test\/login\/set-password#([A-Za-z0-9_-]+)/);
  if (!m) throw new Error('no one-time link in the e-mail');
  return { url: m[0], token: m[1] };
};

const redeem = (token: string, password: string) =>
  setPassword(
    new Request('http://127.0.0.1/api/account/password-link', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password }),
    }),
  );

describe('the one-time link by e-mail (SMTP configured)', () => {
  it('an admin creates a user: the link arrives by e-mail, not in the answer, and works once', async () => {
    const admin = await actAsNewAdmin();
    const email = `mailed-${randomUUID().slice(0, 8)}@example.test`;
    const created = await createUserAction({ email, name: 'Mae Mailed', role: 'analyst', signIn: 'password' });
    expect(created).toMatchObject({ ok: true, data: { linkPath: null } });
    expect((created as { message: string }).message).toMatch(/e-mailed to them/);

    const mail = await smtp.waitFor(email);
    expect(mail.subject).toBe('Choose your Verdict password');
    expect(mail.from).toBe('"Verdict" <verdict@example.test>');
    expect(mail.text).toContain(`${admin.email} added you to Verdict.`);
    const { token } = linkIn(mail.text);

    const first = await redeem(token, 'Velvet-Harbor-Quartz-42');
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ email });
    const second = await redeem(token, 'Another-Quiet-Lantern-77');
    expect(second.status).toBe(410);
    const signedIn = await authorizeCredentials({ email, password: 'Velvet-Harbor-Quartz-42' }, { headers: {} });
    expect(signedIn.email).toBe(email);

    // The audit log says a link was e-mailed, and nowhere holds the link itself.
    const [target] = await db().select().from(users).where(eq(users.email, email));
    const mailed = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.password_link.mail'), eq(auditLog.targetId, target.id)));
    expect(mailed).toMatchObject([{ outcome: 'success', actorId: admin.id, details: { purpose: 'invite' } }]);
    const leaks = await db()
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(sql`${auditLog.details}::text like ${`%${token}%`}`);
    expect(leaks).toEqual([]);
  });

  it('a reset e-mails a new link; when the SMTP server is down the admin is shown the link instead', async () => {
    await actAsNewAdmin();
    const email = `reset-${randomUUID().slice(0, 8)}@example.test`;
    const created = await createUserAction({ email, name: 'Rex Reset', role: 'analyst', signIn: 'password' });
    const id = (created as { data: { id: string } }).data.id;
    const invite = linkIn((await smtp.waitFor(email)).text).token;
    const reset = await resetPasswordAction({ userId: id });
    expect(reset).toMatchObject({ ok: true, data: { linkPath: null } });
    await expect.poll(() => smtp.messages.filter((m) => m.envelopeTo.includes(email)).length).toBe(2);
    const resetMail = smtp.messages.filter((m) => m.envelopeTo.includes(email))[1];
    expect(resetMail.subject).toBe('Your Verdict password was reset');
    // The reset replaced the invitation's link.
    expect((await redeem(invite, 'Velvet-Harbor-Quartz-42')).status).toBe(410);
    expect((await redeem(linkIn(resetMail.text).token, 'Velvet-Harbor-Quartz-42')).status).toBe(200);

    await smtp.stop();
    const fallback = await resetPasswordAction({ userId: id });
    expect(fallback).toMatchObject({ ok: true });
    const path = (fallback as { data: { linkPath: string | null } }).data.linkPath;
    expect(path).toMatch(/^\/login\/set-password#/);
    const failed = await db()
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'user.password_link.mail'), eq(auditLog.targetId, id), eq(auditLog.outcome, 'failure')),
      );
    expect(failed).toHaveLength(1);
    expect((await redeem(path!.split('#')[1], 'Velvet-Harbor-Quartz-42')).status).toBe(200);
  });
});
