import 'server-only';
import nodemailer, { type Transporter } from 'nodemailer';
import { env } from '@/lib/env';

/**
 * Outgoing e-mail, plain: `mailer()` is null when no SMTP server is configured (`SMTP_URL`), so a
 * caller decides what happens without e-mail (the one-time link is then shown to the admin);
 * otherwise `sendMail` hands one message to the server and resolves when the server accepted it.
 *
 * Messages carry credentials (one-time links): nothing here logs a recipient, a subject or a body,
 * and a failure is thrown to the caller, which decides whether to fall back.
 */
export type MailMessage = { to: string; subject: string; text: string; html?: string };
export type Mailer = { sendMail(message: MailMessage): Promise<{ messageId: string }> };
export type MailConfig = { url: string; from: string };

// An unreachable server must not hold an admin's click for nodemailer's default two minutes.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** A mailer for one SMTP server (smtp:// with STARTTLS when offered, smtps:// for TLS from the start). */
export function createMailer(config: MailConfig): Mailer {
  const transport: Transporter = nodemailer.createTransport(config.url, { from: config.from, ...TIMEOUTS });
  return {
    async sendMail(message) {
      const info = await transport.sendMail({ from: config.from, ...message });
      return { messageId: info.messageId };
    },
  };
}

let cached: { key: string; mailer: Mailer } | undefined;

/** This process's mailer from SMTP_URL and MAIL_FROM, or null when SMTP is not configured. */
export function mailer(): Mailer | null {
  const { SMTP_URL, MAIL_FROM } = env();
  if (!SMTP_URL || !MAIL_FROM) return null;
  const key = `${SMTP_URL}\n${MAIL_FROM}`;
  if (cached?.key !== key) cached = { key, mailer: createMailer({ url: SMTP_URL, from: MAIL_FROM }) };
  return cached.mailer;
}

/** Sends through this process's mailer; false (and nothing sent) when SMTP is not configured. */
export async function sendMail(message: MailMessage): Promise<boolean> {
  const m = mailer();
  if (!m) return false;
  await m.sendMail(message);
  return true;
}
