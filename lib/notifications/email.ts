import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/lib/db/client';
import { notifications, users } from '@/lib/db/schema';
import { getBoss, jobDb, QUEUES } from '@/lib/jobs/boss';
import { mailer, sendMail } from '@/lib/mail/mailer';
import { NOTIFICATION_KIND_INFO } from './kinds';
import { noticeHref, noticeText } from './text';

/** Mail goes out only when SMTP is configured (SMTP_URL and MAIL_FROM, lib/mail); otherwise notices stay in the app. */
export function mailConfigured(): boolean {
  return mailer() !== null;
}

/**
 * Queues one e-mail job per notice in the caller's transaction (pg-boss on the same Postgres), so
 * a notice and its e-mail commit together and a restart before the send loses nothing.
 */
export async function enqueueNotificationEmails(tx: Tx, notificationIds: number[]): Promise<void> {
  const boss = await getBoss();
  await boss.insert(
    notificationIds.map((id) => ({
      name: QUEUES.notificationEmail,
      data: { notificationId: id },
      singletonKey: `notification:${id}`,
    })),
    { db: jobDb(tx) },
  );
}

/** The console's public address for the link (NEXTAUTH_URL); a relative link would mean nothing in a mail. */
function consoleUrl(): string {
  return (process.env.NEXTAUTH_URL || `http://localhost:${process.env.PORT || 3000}`).replace(/\/+$/, '');
}

/**
 * Sends one queued notice. Sent once: a notice already `sent` is skipped, so a job run twice
 * (a worker that stopped after the send and before the job's completion) does not mail twice
 * unless it stopped between the server's acceptance and this row's update. A send that fails is
 * thrown, and pg-boss retries the job with backoff (lib/jobs/boss.ts); the text is the page's
 * sentence (lib/notifications/text.ts): a case id and a link, no data of the verified person.
 */
export async function sendNotificationEmail(db: Db, notificationId: number): Promise<'sent' | 'skipped'> {
  const [n] = await db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      executionId: notifications.executionId,
      details: notifications.details,
      emailState: notifications.emailState,
      to: users.email,
      active: users.active,
      actorName: sql<string | null>`(select name from ${users} a where a.id = ${notifications.actorId})`,
    })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.userId))
    .where(eq(notifications.id, notificationId));
  if (!n || n.emailState !== 'queued' || !n.active) return 'skipped';
  const notice = { kind: n.kind, executionId: n.executionId, actorName: n.actorName, details: n.details ?? {} };
  const link = `${consoleUrl()}${noticeHref(notice)}`;
  const sent = await sendMail({
    to: n.to,
    subject: `Verdict: ${NOTIFICATION_KIND_INFO[n.kind].label}`,
    text: `${noticeText(notice)}\n\n${link}\n\nYou get this because of your notification preferences: ${consoleUrl()}/notifications\n`,
  });
  if (!sent) return 'skipped';
  await db.update(notifications).set({ emailState: 'sent' }).where(eq(notifications.id, n.id));
  return 'sent';
}
