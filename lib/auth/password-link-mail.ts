import 'server-only';
import { audit } from '@/lib/audit';
import { env } from '@/lib/env';
import { logError } from '@/lib/log';
import { mailer } from '@/lib/mail/mailer';
import { LINK_HOURS } from './password-links';

/**
 * Where SMTP is configured, the one-time password link goes by e-mail to the user it is for, and
 * the admin never sees it. Sent after the link's transaction commits (no e-mail for a user that
 * was rolled back). The address comes from NEXTAUTH_URL, never from the request's Host header: a
 * forged Host would otherwise put someone else's site in a password link. Without SMTP or
 * NEXTAUTH_URL, or when the server refuses, the caller shows the link once as before.
 *
 * The link is a credential: it is neither logged nor written to the audit log (the entry says
 * only that a link was e-mailed, to whom).
 */
export type LinkDelivery = 'emailed' | 'show';

export async function mailPasswordLink(
  target: { id: string; email: string },
  link: { path: string; expiresAt: Date },
  purpose: 'invite' | 'reset',
  actor: { id: string; email: string },
): Promise<LinkDelivery> {
  const m = mailer();
  const base = env().NEXTAUTH_URL;
  if (!m || !base) return 'show';
  const url = new URL(link.path, base).toString();
  const lead =
    purpose === 'invite'
      ? `${actor.email} added you to Verdict.`
      : `${actor.email} reset your Verdict password: the old one no longer works.`;
  const text = [
    lead,
    '',
    `Choose your password here (the link works once, for ${LINK_HOURS} hours):`,
    url,
    '',
    'If you did not expect this e-mail, tell your Verdict administrator.',
  ].join('\n');
  try {
    await m.sendMail({
      to: target.email,
      subject: purpose === 'invite' ? 'Choose your Verdict password' : 'Your Verdict password was reset',
      text,
    });
  } catch (err) {
    logError('password link e-mail', err);
    await audit({
      action: 'user.password_link.mail',
      actor,
      targetType: 'user',
      targetId: target.id,
      outcome: 'failure',
      details: { purpose },
    });
    return 'show';
  }
  await audit({
    action: 'user.password_link.mail',
    actor,
    targetType: 'user',
    targetId: target.id,
    details: { purpose },
  });
  return 'emailed';
}
