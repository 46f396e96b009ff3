/**
 * Notification e-mail through a real SMTP server on loopback (smtp-server): the notice's job is
 * queued with the change, the worker sends it once, and the mail carries the case id and link
 * only. SMTP is configured before anything reads the configuration (env() parses once).
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver';
import { until } from '../support/wait';

let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = 'Verdict <verdict@example.test>';
  process.env.NEXTAUTH_URL = 'https://verdict.example.test';
});

const { assignCase } = await import('@/lib/cases/claim');
const { db } = await import('@/lib/db/client');
const { caseQueues, cases, notifications } = await import('@/lib/db/schema');
const { getBoss, stopBoss } = await import('@/lib/jobs/boss');
const { saveNotificationPreferences } = await import('@/lib/notifications/commands');
const { sendNotificationEmail } = await import('@/lib/notifications/email');
const { registerNotificationWorkers } = await import('@/lib/notifications/worker');
const { ingestMany } = await import('@/lib/sync/ingest');
const { buildExecution } = await import('../support/fixtures/execution');
const { createUser } = await import('../support/feedback');

afterAll(async () => {
  await stopBoss();
  await smtp?.stop();
});

async function caseFor() {
  const tag = `mail-${randomUUID().slice(0, 8)}`;
  await db()
    .insert(caseQueues)
    .values({ name: `Mail ${tag}`, priority: -1000, slaHours: 4, definition: `criteria=${tag}` });
  const x = buildExecution({ decision: 'WARNING', score: 50 });
  (x.result as { workflow: { reportingCriteria: string } }).workflow.reportingCriteria = tag;
  await ingestMany(db(), [{ result: x.result, steps: x.steps, rules: x.rules, fetchedAt: new Date() }]);
  const [c] = await db().select().from(cases).where(eq(cases.executionId, x.id));
  return { executionId: x.id, caseId: c.id, result: x.result };
}

describe('notification e-mail', () => {
  it('an assignment reaches the SMTP server once, with the case id and link and nothing of the person', async () => {
    const boss = await getBoss();
    await registerNotificationWorkers(boss, { db: db(), pollingIntervalSeconds: 0.5 });
    const manager = await createUser('manager');
    const analyst = await createUser('analyst');
    const k = await caseFor();
    expect((await assignCase(manager, { caseId: k.caseId, assignee: analyst.id })).ok).toBe(true);
    const mail = await smtp.waitFor(analyst.email, 20_000);
    expect(mail.subject).toBe('Verdict: Assigned to you');
    expect(mail.envelopeFrom).toBe('verdict@example.test');
    expect(mail.text).toContain(`case ${k.executionId.slice(0, 8)}`);
    expect(mail.text).toContain(`https://verdict.example.test/executions/${k.executionId}`);
    // Whatever the service sent about the person (names, document numbers) is not in the mail.
    const personal =
      JSON.stringify(k.result).match(/"(?:firstName|lastName|documentNumber|fullName)":"([^"]+)"/g) ?? [];
    for (const p of personal) expect(mail.text).not.toContain(p.split(':')[1].replace(/"/g, ''));
    const [n] = await db().select().from(notifications).where(eq(notifications.userId, analyst.id));
    await until(
      async () => (await db().select().from(notifications).where(eq(notifications.id, n.id)))[0].emailState,
      (state) => state === 'sent',
      10_000,
      'the notice marked sent',
    );
    // Run again (a retried job): nothing more is sent.
    expect(await sendNotificationEmail(db(), n.id)).toBe('skipped');
    expect(smtp.messages.filter((m) => m.envelopeTo.includes(analyst.email))).toHaveLength(1);
  });

  it('a person who turned e-mail off for the kind gets none; the notice still shows in the app', async () => {
    const manager = await createUser('manager');
    const analyst = await createUser('analyst');
    await saveNotificationPreferences(analyst, [{ kind: 'assigned', inApp: true, email: false }]);
    const k = await caseFor();
    await assignCase(manager, { caseId: k.caseId, assignee: analyst.id });
    const [n] = await db().select().from(notifications).where(eq(notifications.userId, analyst.id));
    // No e-mail state means no mail job was queued with it.
    expect(n).toMatchObject({ inApp: true, emailState: null });
    expect(smtp.messages.filter((m) => m.envelopeTo.includes(analyst.email))).toHaveLength(0);
  });
});
