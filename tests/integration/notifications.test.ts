/**
 * Notifications against a real database: each producer writes one notice for the person it
 * concerns, none for the actor, and a time-based one only once however often its job runs;
 * preferences and "mark read" touch only the person's own rows.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignCase } from '@/lib/cases/claim';
import { addNote, editNote } from '@/lib/cases/notes';
import { sendCaseReminders } from '@/lib/cases/reminders';
import { db } from '@/lib/db/client';
import { caseQueues, cases, notifications } from '@/lib/db/schema';
import { submitFeedback } from '@/lib/feedback/submit';
import { getFourEyes, setFourEyes } from '@/lib/feedback/settings';
import { getBoss, stopBoss } from '@/lib/jobs/boss';
import { markNotificationsRead, saveNotificationPreferences } from '@/lib/notifications/commands';
import { countUnreadNotifications, listNotifications } from '@/lib/notifications/queries';
import { ingestMany } from '@/lib/sync/ingest';
import { buildExecution } from '../support/fixtures/execution';
import { createUser, newKey } from '../support/feedback';

type User = Awaited<ReturnType<typeof createUser>>;
let analyst: User;
let analyst2: User;
let manager: User;
let manager2: User;

const noticesOf = (userId: string, kind?: string) =>
  db()
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), ...(kind ? [sql`${notifications.kind} = ${kind}`] : [])));

/** An execution with an open case in a queue of its own (so no other test's queue takes it). */
async function caseFor(slaHours = 4) {
  const tag = `notify-${randomUUID().slice(0, 8)}`;
  const [q] = await db()
    .insert(caseQueues)
    .values({ name: `Notify ${tag}`, priority: -1000, slaHours, definition: `criteria=${tag}` })
    .returning();
  const x = buildExecution({ decision: 'WARNING', score: 50 });
  (x.result as { workflow: { reportingCriteria: string } }).workflow.reportingCriteria = tag;
  await ingestMany(db(), [{ result: x.result, steps: x.steps, rules: x.rules, fetchedAt: new Date() }]);
  const [c] = await db().select().from(cases).where(eq(cases.executionId, x.id));
  return { executionId: x.id, caseId: c.id, queue: q };
}

beforeAll(async () => {
  await getBoss();
  analyst = await createUser('analyst');
  analyst2 = await createUser('analyst', 'analyst2');
  manager = await createUser('manager');
  manager2 = await createUser('manager', 'manager2');
});
afterAll(async () => {
  await stopBoss();
});

describe('producers', () => {
  it('assignment tells the assignee once, and taking a case oneself tells nobody', async () => {
    const k = await caseFor();
    const r = await assignCase(manager, { caseId: k.caseId, assignee: analyst.id });
    expect(r.ok).toBe(true);
    const mine = (await noticesOf(analyst.id, 'assigned')).filter((n) => n.caseId === k.caseId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ actorId: manager.id, executionId: k.executionId, inApp: true, readAt: null });
    expect(mine[0].details).toMatchObject({ queue: k.queue.name });
    // Assigning it again to the same person changes nothing and tells nothing.
    await assignCase(manager, { caseId: k.caseId, assignee: analyst.id });
    expect((await noticesOf(analyst.id, 'assigned')).filter((n) => n.caseId === k.caseId)).toHaveLength(1);
    const own = await caseFor();
    expect((await assignCase(analyst2, { caseId: own.caseId, assignee: 'me' })).ok).toBe(true);
    expect((await noticesOf(analyst2.id)).filter((n) => n.caseId === own.caseId)).toHaveLength(0);
  });

  it('a note tells each person it names with @name once, never its author, and carries no text', async () => {
    const k = await caseFor();
    const local = (u: User) => u.email.split('@')[0];
    const body = `Please look @${local(analyst2)} and @${local(manager)}, cc @${local(analyst)} and x@y.test.`;
    const r = await addNote(analyst, { executionId: k.executionId, body });
    expect(r.ok).toBe(true);
    const to2 = (await noticesOf(analyst2.id, 'mention')).filter((n) => n.executionId === k.executionId);
    const toM = (await noticesOf(manager.id, 'mention')).filter((n) => n.executionId === k.executionId);
    expect(to2).toHaveLength(1);
    expect(toM).toHaveLength(1);
    expect(JSON.stringify(to2[0].details)).not.toContain('Please');
    expect((await noticesOf(analyst.id, 'mention')).filter((n) => n.executionId === k.executionId)).toHaveLength(0);
    // An edit that keeps the names tells nobody again; one that adds a name tells that one.
    const noteId = r.ok ? r.data.noteId : '';
    await editNote(analyst, { noteId, version: 1, body: `${body} And @${local(manager2)}.` });
    expect((await noticesOf(analyst2.id, 'mention')).filter((n) => n.executionId === k.executionId)).toHaveLength(1);
    expect((await noticesOf(manager2.id, 'mention')).filter((n) => n.executionId === k.executionId)).toHaveLength(1);
  });

  it('a claim about to lapse and a case nearing its SLA are told to the holder once, however often the job runs', async () => {
    const k = await caseFor(1);
    await assignCase(analyst2, { caseId: k.caseId, assignee: 'me' });
    // Claimed 27 minutes ago (lapses at 30) and due in 30 minutes.
    await db()
      .update(cases)
      .set({ claimedAt: sql`now() - interval '27 minutes'`, dueAt: sql`now() + interval '30 minutes'` })
      .where(eq(cases.id, k.caseId));
    await sendCaseReminders(db(), 30);
    await sendCaseReminders(db(), 30);
    const lapse = (await noticesOf(analyst2.id, 'claim_lapse')).filter((n) => n.caseId === k.caseId);
    const near = (await noticesOf(analyst2.id, 'sla_near')).filter((n) => n.caseId === k.caseId);
    expect(lapse).toHaveLength(1);
    expect(near).toHaveLength(1);
    // A note touches the claim: a later lapse is a new occurrence, told again.
    await addNote(analyst2, { executionId: k.executionId, body: 'working on it' });
    await db()
      .update(cases)
      .set({ claimedAt: sql`now() - interval '26 minutes'` })
      .where(eq(cases.id, k.caseId));
    await sendCaseReminders(db(), 30);
    expect((await noticesOf(analyst2.id, 'claim_lapse')).filter((n) => n.caseId === k.caseId)).toHaveLength(2);
  });

  it('a label waiting for four-eyes tells every manager, and not the analyst who labelled', async () => {
    const was = (await getFourEyes()).enabled;
    await setFourEyes(manager, true);
    try {
      const k = await caseFor();
      const r = await submitFeedback(analyst, {
        executionId: k.executionId,
        status: 'FRAUD',
        reason: 'THIRD_PARTY_FRAUD',
        version: 'none',
        idempotencyKey: newKey(),
      });
      expect(r.ok && r.data.state).toBe('awaiting_approval');
      const told = async (u: User) =>
        (await noticesOf(u.id, 'approval_waiting')).filter((n) => n.executionId === k.executionId).length;
      expect(await told(manager)).toBe(1);
      expect(await told(manager2)).toBe(1);
      // The labeller is the actor, and analysts do not approve: never told.
      expect(await told(analyst)).toBe(0);
      expect(await told(analyst2)).toBe(0);
    } finally {
      await setFourEyes(manager, was);
    }
  });
});

describe('preferences and reading', () => {
  it('a kind turned off in the app is not shown; mark read touches only the own rows', async () => {
    const u = await createUser('analyst', 'prefs');
    await saveNotificationPreferences(u, [{ kind: 'assigned', inApp: false, email: false }]);
    const k = await caseFor();
    await assignCase(manager, { caseId: k.caseId, assignee: u.id });
    expect(await noticesOf(u.id, 'assigned')).toHaveLength(0);
    await saveNotificationPreferences(u, [{ kind: 'assigned', inApp: true, email: false }]);
    const k2 = await caseFor();
    await assignCase(manager, { caseId: k2.caseId, assignee: u.id });
    expect(await countUnreadNotifications(u.id)).toBe(1);
    const { rows } = await listNotifications(u.id);
    expect(rows.map((r) => r.caseId)).toEqual([k2.caseId]);
    // Someone else's id marks nothing of theirs.
    expect(await markNotificationsRead(analyst.id, [rows[0].id])).toBe(0);
    expect(await countUnreadNotifications(u.id)).toBe(1);
    expect(await markNotificationsRead(u.id, 'all')).toBe(1);
    expect(await countUnreadNotifications(u.id)).toBe(0);
  });
});
