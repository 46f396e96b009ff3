/**
 * Case work against a real database: matching in ingest, the re-match job, "next case" under 20
 * parallel claimers, and every refusal of the actions (through the real server actions: session
 * cookie, role, zod, one transaction) writing nothing.
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db/client';
import {
  auditLog,
  caseEvents,
  caseNotes,
  caseQueues,
  cases,
  feedbackSubmissions,
  qaReviews,
  webhookEvents,
  type Role,
} from '@/lib/db/schema';
import { getBoss, stopBoss } from '@/lib/jobs/boss';
import { claimNextCase, releaseExpiredClaims } from '@/lib/cases/claim';
import { createQueue } from '@/lib/cases/queues';
import { submitFeedback } from '@/lib/feedback/submit';
import { runRematch } from '@/lib/cases/rematch';
import { ingestMany } from '@/lib/sync/ingest';
import { buildExecution } from '../support/fixtures/execution';
import { createUser, signInAs, type TestUser } from '../support/feedback';

vi.mock('next/headers', async () => (await import('../support/next-headers')).nextHeaders);
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const actions = await import('@/lib/actions/cases');

/** Executions tagged with their own reporting criteria, so the test's queues select only them. */
function tagged(tag: string, over: Parameters<typeof buildExecution>[0] = {}) {
  const x = buildExecution(over);
  (x.result as { workflow: { reportingCriteria: string } }).workflow.reportingCriteria = tag;
  return x;
}
const input = (x: ReturnType<typeof buildExecution>, fetchedAt = new Date()) => ({
  result: x.result,
  steps: x.steps,
  rules: x.rules,
  fetchedAt,
});
const caseOf = async (executionId: string) =>
  (await db().select().from(cases).where(eq(cases.executionId, executionId)))[0];
const eventsOf = async (caseId: string) =>
  db().select().from(caseEvents).where(eq(caseEvents.caseId, caseId)).orderBy(caseEvents.id);
const makeQueue = async (name: string, definition: string, priority: number, slaHours = 4) =>
  (
    await db()
      .insert(caseQueues)
      .values({ name: `${name} ${randomUUID().slice(0, 6)}`, priority, slaHours, definition })
      .returning()
  )[0];

let analyst: TestUser;
let analyst2: TestUser;
let manager: TestUser;

beforeAll(async () => {
  await getBoss();
  analyst = await createUser('analyst');
  analyst2 = await createUser('analyst', 'analyst2');
  manager = await createUser('manager');
});
afterAll(async () => {
  await stopBoss();
});

describe('matching in ingest', () => {
  it('opens one case in the first matching queue, idempotently; a change moves or withdraws it; a resolved case stays', async () => {
    const tag = `match-${randomUUID().slice(0, 8)}`;
    const qWarn = await makeQueue('Warn', `decision=WARNING&criteria=${tag}`, 0, 4);
    const qRej = await makeQueue('Rej', `decision=REJECTED&criteria=${tag}`, 1, 24);
    // A lower-priority queue that also matches WARNING: never chosen while qWarn matches.
    await makeQueue('Any', `criteria=${tag}`, 2);
    const a = tagged(tag, { decision: 'WARNING', score: 50 });
    const b = tagged(tag, { decision: 'WARNING', score: 55 });
    const c = tagged(tag, { decision: 'WARNING', score: 60 });
    const t0 = new Date(Date.now() - 60_000);
    await ingestMany(
      db(),
      [a, b, c].map((x) => input(x, t0)),
    );
    for (const x of [a, b, c]) {
      const k = await caseOf(x.id);
      expect(k).toMatchObject({ queueId: qWarn.id, state: 'open', assigneeId: null });
      expect(k.dueAt.getTime() - k.arrivedAt.getTime()).toBe(4 * 3600_000);
    }
    const before = await db()
      .select({ n: count() })
      .from(caseEvents)
      .where(inArray(caseEvents.executionId, [a.id, b.id, c.id]));

    // The same data again: nothing changes.
    await ingestMany(
      db(),
      [a, b, c].map((x) => input(x, new Date(Date.now() - 30_000))),
    );
    const again = await db()
      .select({ n: count() })
      .from(caseEvents)
      .where(inArray(caseEvents.executionId, [a.id, b.id, c.id]));
    expect(again[0].n).toBe(before[0].n);

    // a becomes REJECTED: moved to qRej, keeping its arrival; b leaves the tag: withdrawn.
    const caseA = await caseOf(a.id);
    (a.result as any).decision.type = 'REJECTED';
    (b.result as any).workflow.reportingCriteria = `${tag}-gone`;
    (b.result as any).decision = { type: 'PASSED', details: { label: 'PASSED' }, risk: { score: 2 } };
    await ingestMany(
      db(),
      [a, b].map((x) => input(x)),
    );
    const movedA = await caseOf(a.id);
    expect(movedA).toMatchObject({ id: caseA.id, queueId: qRej.id, state: 'open' });
    expect(movedA.arrivedAt.getTime()).toBe(caseA.arrivedAt.getTime());
    expect(movedA.dueAt.getTime() - movedA.arrivedAt.getTime()).toBe(24 * 3600_000);
    expect((await eventsOf(caseA.id)).map((e) => e.type)).toEqual(['created', 'requeued']);
    expect(await caseOf(b.id)).toBeUndefined();

    // c resolved, then changed: it stays resolved where it was.
    const caseC = await caseOf(c.id);
    await db()
      .update(cases)
      .set({ state: 'resolved', outcome: 'approve', reason: 'OTHER', resolvedAt: new Date() })
      .where(eq(cases.id, caseC.id));
    (c.result as any).decision.type = 'REJECTED';
    await ingestMany(db(), [input(c)]);
    expect(await caseOf(c.id)).toMatchObject({ state: 'resolved', queueId: qWarn.id });
  });

  it('a new queue re-matches the executions without a case in a job whose run shows progress', async () => {
    const tag = `rematch-${randomUUID().slice(0, 8)}`;
    const xs = [0, 1, 2].map(() => tagged(tag, { decision: 'PASSED', score: 3 }));
    await ingestMany(
      db(),
      xs.map((x) => input(x)),
    );
    for (const x of xs) expect(await caseOf(x.id)).toBeUndefined();
    const r = await createQueue(
      { ...manager, role: 'manager' },
      { name: `New ${tag}`, priority: 0, slaHours: 8, definition: `?criteria=${tag}&sort=risk`, minRole: 'analyst' },
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const [q] = await db().select().from(caseQueues).where(eq(caseQueues.id, r.data.queueId));
    // Stored canonical: filters only, without the view parameters.
    expect(q.definition).toBe(`criteria=${tag}`);
    const walked = await runRematch(db(), r.data.runId);
    expect(walked).toBeGreaterThanOrEqual(3);
    for (const x of xs) expect(await caseOf(x.id)).toMatchObject({ queueId: q.id, state: 'open' });
    // Running it again changes nothing.
    const n = await db().select({ n: count() }).from(caseEvents).where(eq(caseEvents.queueId, q.id));
    await runRematch(db(), r.data.runId);
    expect((await db().select({ n: count() }).from(caseEvents).where(eq(caseEvents.queueId, q.id)))[0].n).toBe(n[0].n);
  });
});

describe('next case', () => {
  it('20 parallel claimers claim every case exactly once', async () => {
    const tag = `race-${randomUUID().slice(0, 8)}`;
    const q = await makeQueue('Race', `criteria=${tag}`, 0);
    const N = 120;
    const xs = Array.from({ length: N }, (_, i) =>
      tagged(tag, { decision: 'WARNING', score: 40, createdAt: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString() }),
    );
    await ingestMany(
      db(),
      xs.map((x) => input(x)),
    );
    const claimers = await Promise.all(Array.from({ length: 20 }, (_, i) => createUser('analyst', `claimer${i}`)));
    const claimed: Array<{ user: string; caseId: string }> = [];
    await Promise.all(
      claimers.map(async (u) => {
        for (;;) {
          const r = await claimNextCase({ ...u, role: 'analyst' as Role }, { queueId: q.id });
          expect(r.ok).toBe(true);
          if (!r.ok || !r.data) return;
          claimed.push({ user: u.id, caseId: r.data.caseId });
        }
      }),
    );
    expect(claimed).toHaveLength(N);
    expect(new Set(claimed.map((c) => c.caseId)).size).toBe(N);
    const rows = await db().select().from(cases).where(eq(cases.queueId, q.id));
    expect(rows.filter((r) => r.state === 'in_review')).toHaveLength(N);
    for (const r of rows) expect(r.assigneeId).toBe(claimed.find((c) => c.caseId === r.id)!.user);
    const claims = await db()
      .select({ n: count() })
      .from(caseEvents)
      .where(and(eq(caseEvents.queueId, q.id), eq(caseEvents.type, 'claimed')));
    expect(claims[0].n).toBe(N);
    // More than one claimer got work: the claims really ran side by side.
    expect(new Set(claimed.map((c) => c.user)).size).toBeGreaterThan(1);
    // Each claim wrote its audit entry in the same statement: one per case, by its claimer.
    const entries = await db()
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'case.claim'),
          inArray(
            auditLog.targetId,
            xs.map((x) => x.id),
          ),
        ),
      );
    expect(entries).toHaveLength(N);
    for (const e of entries) {
      const c = claimed.find((k) => k.caseId === (e.details as { caseId: string }).caseId)!;
      expect(e).toMatchObject({ actorId: c.user, targetType: 'execution', outcome: 'success' });
      expect(e.details).toMatchObject({ queueId: q.id });
    }
  });

  it('claims by priority then due time, and a forgotten claim returns to the queue', async () => {
    const tag = `order-${randomUUID().slice(0, 8)}`;
    const low = await makeQueue('Low', `criteria=${tag}&decision=WARNING`, 1);
    const high = await makeQueue('High', `criteria=${tag}&decision=REJECTED`, 0);
    const w = tagged(tag, { decision: 'WARNING', score: 40 });
    const r1 = tagged(tag, { decision: 'REJECTED', score: 90 });
    const r2 = tagged(tag, { decision: 'REJECTED', score: 95 });
    await ingestMany(
      db(),
      [w, r1, r2].map((x) => input(x)),
    );
    await db()
      .update(cases)
      .set({ dueAt: sql`now() - interval '1 hour'` })
      .where(eq(cases.executionId, r2.id));
    const me = { ...analyst, role: 'analyst' as Role };
    const order: string[] = [];
    for (const qid of [high.id, high.id, low.id]) {
      const r = await claimNextCase(me, { queueId: qid });
      if (r.ok && r.data) order.push(r.data.executionId);
    }
    expect(order).toEqual([r2.id, r1.id, w.id]);

    await db()
      .update(cases)
      .set({ claimedAt: sql`now() - interval '31 minutes'` })
      .where(eq(cases.executionId, w.id));
    expect(await releaseExpiredClaims(db(), 30)).toBeGreaterThanOrEqual(1);
    expect(await caseOf(w.id)).toMatchObject({ state: 'open', assigneeId: null, claimedAt: null });
    const k = await caseOf(w.id);
    expect((await eventsOf(k.id)).map((e) => e.type)).toEqual(['created', 'claimed', 'released']);
  });
});

describe('the actions: bad input and races get a clear message and write nothing', () => {
  let tag: string;
  let qid: string;
  const made: string[] = [];
  beforeAll(async () => {
    tag = `act-${randomUUID().slice(0, 8)}`;
    qid = (await makeQueue('Act', `criteria=${tag}`, 0, 4)).id;
    const xs = Array.from({ length: 6 }, () => tagged(tag, { decision: 'WARNING', score: 44 }));
    await ingestMany(
      db(),
      xs.map((x) => input(x)),
    );
    made.push(...xs.map((x) => x.id));
  });

  /** Rows that a refused action must not have written. */
  const footprint = async (caseId: string, executionId: string) => ({
    case: await db().select().from(cases).where(eq(cases.id, caseId)),
    events: (await db().select({ n: count() }).from(caseEvents).where(eq(caseEvents.caseId, caseId)))[0].n,
    notes: (await db().select({ n: count() }).from(caseNotes).where(eq(caseNotes.executionId, executionId)))[0].n,
    feedback: (
      await db()
        .select({ n: count() })
        .from(feedbackSubmissions)
        .where(eq(feedbackSubmissions.executionId, executionId))
    )[0].n,
  });
  const claim = async (u: TestUser) => {
    await signInAs(u);
    const r = await actions.claimNextCaseAction({ queueId: qid });
    if (!r.ok || !r.data) throw new Error(`no case: ${JSON.stringify(r)}`);
    return { ...r.data, version: (await db().select().from(cases).where(eq(cases.id, r.data.caseId)))[0].version };
  };

  it('refuses a resolution without its reason or comment, a stale version, and an unknown case', async () => {
    const k = await claim(analyst);
    const before = await footprint(k.caseId, k.executionId);
    const base = { caseId: k.caseId, version: k.version };
    let r: { ok: boolean } = await actions.resolveCaseAction({ ...base, outcome: 'approve', reason: '' });
    expect(r).toMatchObject({ ok: false, code: 'INVALID', error: 'Choose a reason.' });
    r = await actions.resolveCaseAction({ ...base, outcome: 'decline', reason: 'DOCUMENT_FORGED' });
    expect(r).toMatchObject({ ok: false, code: 'INVALID', error: 'A comment is required to decline.' });
    r = await actions.resolveCaseAction({ ...base, outcome: 'escalate', reason: 'NEEDS_SENIOR_REVIEW', comment: ' ' });
    expect(r).toMatchObject({ ok: false, code: 'INVALID', error: 'A comment is required to escalate.' });
    r = await actions.resolveCaseAction({ ...base, outcome: 'approve', reason: 'DOCUMENT_FORGED' });
    expect(r).toMatchObject({ ok: false, code: 'INVALID', fieldErrors: { reason: [expect.any(String)] } });
    r = await actions.resolveCaseAction({ ...base, version: k.version - 1, outcome: 'approve', reason: 'OTHER' });
    expect(r).toMatchObject({
      ok: false,
      code: 'CONFLICT',
      error: expect.stringMatching(/changed since you opened it/),
    });
    r = await actions.resolveCaseAction({ ...base, caseId: randomUUID(), outcome: 'approve', reason: 'OTHER' });
    expect(r).toMatchObject({ ok: false, code: 'INVALID', error: 'Unknown case.' });
    r = await actions.resolveCaseAction({ ...base, caseId: 'not-a-case', outcome: 'approve', reason: 'OTHER' });
    expect(r).toMatchObject({ ok: false, code: 'INVALID', error: 'Unknown case.' });
    // Approving what the service flagged (WARNING) overrides it: only with a comment saying why.
    r = await actions.resolveCaseAction({ ...base, outcome: 'approve', reason: 'DOCUMENT_GENUINE' });
    expect(r).toMatchObject({
      ok: false,
      code: 'INVALID',
      fieldErrors: { comment: ["The service's decision is WARNING: say in the comment why you approve it."] },
    });
    // A comment over the limit is refused whole, never cut.
    r = await actions.resolveCaseAction({
      ...base,
      outcome: 'approve',
      reason: 'DOCUMENT_GENUINE',
      comment: 'x'.repeat(3000),
    });
    expect(r).toMatchObject({
      ok: false,
      code: 'INVALID',
      fieldErrors: { comment: ['A comment is at most 2,000 characters.'] },
    });
    expect(await footprint(k.caseId, k.executionId)).toEqual(before);

    const comment = 'The flag is a glare on the hologram; the document is genuine.';
    r = await actions.resolveCaseAction({ ...base, outcome: 'approve', reason: 'DOCUMENT_GENUINE', comment });
    expect(r).toMatchObject({ ok: true, data: { state: 'resolved' } });
    expect((await db().select().from(cases).where(eq(cases.id, k.caseId)))[0].comment).toBe(comment);
    // The form of the same page again: the case changed, so it is refused.
    r = await actions.resolveCaseAction({ ...base, outcome: 'approve', reason: 'DOCUMENT_GENUINE', comment });
    expect(r).toMatchObject({ ok: false, code: 'CONFLICT' });
  });

  it("refuses an analyst resolving a colleague's claim, and lets a manager do it, recorded", async () => {
    const k = await claim(analyst2);
    await signInAs(analyst);
    const before = await footprint(k.caseId, k.executionId);
    let r: { ok: boolean } = await actions.resolveCaseAction({
      caseId: k.caseId,
      version: k.version,
      outcome: 'approve',
      reason: 'OTHER',
    });
    expect(r).toMatchObject({ ok: false, code: 'FORBIDDEN', error: expect.stringMatching(/only a manager/) });
    r = await actions.assignCaseAction({ caseId: k.caseId, version: k.version, assignee: 'me' });
    expect(r).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect(await footprint(k.caseId, k.executionId)).toEqual(before);

    await signInAs(manager);
    const takeover = { caseId: k.caseId, version: k.version, outcome: 'approve' as const, reason: 'OTHER' };
    const comment = 'Resolved for the analyst while they are away.';
    // The manager is told whose claim it is and must confirm acting in their place.
    r = await actions.resolveCaseAction({ ...takeover, comment });
    expect(r).toMatchObject({
      ok: false,
      code: 'CONFLICT',
      error: expect.stringMatching(/has claimed this case: confirm/),
      fieldErrors: { confirmTakeover: [expect.any(String)] },
    });
    expect(await footprint(k.caseId, k.executionId)).toEqual(before);
    r = await actions.resolveCaseAction({ ...takeover, comment, confirmTakeover: 'on' });
    expect(r.ok).toBe(true);
    const ev = (await eventsOf(k.caseId)).at(-1)!;
    expect(ev).toMatchObject({ type: 'resolved', actorId: manager.id, details: { overrodeClaimOf: analyst2.id } });
    const [a] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'case.resolve'), eq(auditLog.targetId, k.executionId)));
    expect(a.details).toMatchObject({ overrodeClaimOf: analyst2.id });
  });

  it('declines with FRAUD feedback in one step; a stale feedback form writes neither', async () => {
    const k = await claim(analyst);
    const before = await footprint(k.caseId, k.executionId);
    const decline = {
      caseId: k.caseId,
      version: k.version,
      outcome: 'decline' as const,
      reason: 'DOCUMENT_FORGED',
      comment: 'Font of the date of birth differs.',
      feedbackStatus: 'FRAUD' as const,
      feedbackReason: 'IDENTITY_FRAUD' as const,
      idempotencyKey: `key-${randomUUID()}`,
    };
    let r: { ok: boolean } = await actions.resolveCaseAction({ ...decline, feedbackVersion: randomUUID() });
    expect(r).toMatchObject({ ok: false, code: 'CONFLICT', error: expect.stringMatching(/^Feedback: /) });
    expect(await footprint(k.caseId, k.executionId)).toEqual(before);
    // A colleague labels the execution while the panel is open (it still carries "none").
    const other = await submitFeedback(
      { ...analyst2, role: 'analyst' },
      { executionId: k.executionId, status: 'NOT_FRAUD', version: 'none', idempotencyKey: `key-${randomUUID()}` },
    );
    expect(other.ok).toBe(true);
    const labelled = await footprint(k.caseId, k.executionId);
    r = await actions.resolveCaseAction({ ...decline, feedbackVersion: 'none' });
    expect(r).toMatchObject({
      ok: false,
      code: 'CONFLICT',
      error: expect.stringMatching(/changed since you opened it/),
    });
    expect(await footprint(k.caseId, k.executionId)).toEqual(labelled);
    const version = other.ok ? other.data.submissionId : 'none';

    r = await actions.resolveCaseAction({
      ...decline,
      feedbackStatus: 'FRAUD',
      feedbackReason: undefined,
      feedbackVersion: version,
    });
    expect(r).toMatchObject({ ok: false, code: 'INVALID', error: 'A reason is required for Fraud.' });

    r = await actions.resolveCaseAction({ ...decline, feedbackVersion: version });
    expect(r).toMatchObject({ ok: true, data: { state: 'resolved', feedback: { state: 'pending' } } });
    const [f] = await db()
      .select()
      .from(feedbackSubmissions)
      .where(and(eq(feedbackSubmissions.executionId, k.executionId), eq(feedbackSubmissions.status, 'FRAUD')));
    expect(f).toMatchObject({ status: 'FRAUD', reason: 'IDENTITY_FRAUD', state: 'pending', submittedBy: analyst.id });
    expect(await caseOf(k.executionId)).toMatchObject({
      state: 'resolved',
      outcome: 'decline',
      resolvedBy: analyst.id,
    });
  });

  it("escalates to the managers, out of the analysts' reach; a manager reopens with a reason", async () => {
    const k = await claim(analyst);
    let r: { ok: boolean } = await actions.resolveCaseAction({
      caseId: k.caseId,
      version: k.version,
      outcome: 'escalate',
      reason: 'NEEDS_SENIOR_REVIEW',
      comment: 'Passport looks re-laminated.',
    });
    expect(r).toMatchObject({ ok: true, data: { state: 'open' } });
    const esc = await caseOf(k.executionId);
    const [q] = await db().select().from(caseQueues).where(eq(caseQueues.id, esc.queueId));
    expect(q).toMatchObject({ kind: 'escalation', minRole: 'manager' });
    r = await actions.claimNextCaseAction({ queueId: q.id });
    expect(r).toMatchObject({ ok: false, code: 'INVALID', error: 'Unknown queue, or not one you work.' });

    await signInAs(manager);
    r = await actions.resolveCaseAction({
      caseId: esc.id,
      version: esc.version,
      outcome: 'decline',
      reason: 'DOCUMENT_FORGED',
      comment: 'Confirmed.',
    });
    expect(r.ok).toBe(true);
    const done = await caseOf(k.executionId);
    await signInAs(analyst);
    r = await actions.reopenCaseAction({
      caseId: done.id,
      version: done.version,
      reason: 'Customer sent a new document.',
    });
    expect(r).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    await signInAs(manager);
    r = await actions.reopenCaseAction({ caseId: done.id, version: done.version, reason: 'x' });
    expect(r).toMatchObject({ ok: false, code: 'INVALID' });
    r = await actions.reopenCaseAction({
      caseId: done.id,
      version: done.version,
      reason: 'Customer sent a new document.',
    });
    expect(r.ok).toBe(true);
    expect(await caseOf(k.executionId)).toMatchObject({ state: 'open', outcome: null });
    expect((await eventsOf(done.id)).map((e) => e.type)).toEqual([
      'created',
      'claimed',
      'escalated',
      'resolved',
      'reopened',
    ]); // Both transitions reached the webhook outbox, in their own transactions, with ids only.
    const outbox = await db()
      .select({ type: webhookEvents.type, payload: webhookEvents.payload })
      .from(webhookEvents)
      .where(sql`${webhookEvents.payload}->>'caseId' = ${done.id}`)
      .orderBy(webhookEvents.createdAt);
    expect(outbox).toEqual([
      {
        type: 'case.escalated',
        payload: expect.objectContaining({
          executionId: k.executionId,
          queue: q.name,
          reason: 'NEEDS_SENIOR_REVIEW',
          actorUserId: analyst.id,
        }),
      },
      {
        type: 'case.resolved',
        payload: expect.objectContaining({
          executionId: k.executionId,
          queue: q.name,
          outcome: 'decline',
          reason: 'DOCUMENT_FORGED',
          actorUserId: manager.id,
        }),
      },
    ]);
  });

  it('refuses an unknown queue or user, and a 100 kB note; notes are versioned, never rewritten', async () => {
    await signInAs(analyst);
    let r: { ok: boolean } = await actions.claimNextCaseAction({ queueId: randomUUID() });
    expect(r).toMatchObject({ ok: false, code: 'INVALID', error: 'Unknown queue, or not one you work.' });
    const k = await claim(analyst);
    await signInAs(manager);
    const before = await footprint(k.caseId, k.executionId);
    r = await actions.assignCaseAction({ caseId: k.caseId, version: k.version, assignee: randomUUID() });
    expect(r).toMatchObject({ ok: false, code: 'INVALID', error: 'Unknown user.' });
    r = await actions.addNoteAction({ executionId: k.executionId, body: 'x'.repeat(100_000) });
    expect(r).toMatchObject({ ok: false, code: 'INVALID', error: 'A note is at most 5,000 characters.' });
    r = await actions.addNoteAction({ executionId: randomUUID(), body: 'hello' });
    expect(r).toMatchObject({ ok: false, code: 'INVALID' });
    expect(await footprint(k.caseId, k.executionId)).toEqual(before);

    await signInAs(analyst);
    const added = await actions.addNoteAction({ executionId: k.executionId, body: 'First look: face matches.' });
    expect(added.ok).toBe(true);
    if (!added.ok) return;
    r = await actions.editNoteAction({
      noteId: added.data.noteId,
      version: 1,
      body: 'First look: face matches, DOB checked.',
    });
    expect(r.ok).toBe(true);
    r = await actions.editNoteAction({ noteId: added.data.noteId, version: 1, body: 'lost update' });
    expect(r).toMatchObject({ ok: false, code: 'CONFLICT' });
    await signInAs(analyst2);
    r = await actions.editNoteAction({ noteId: added.data.noteId, version: 2, body: 'not mine' });
    expect(r).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    const notes = await db().select().from(caseNotes).where(eq(caseNotes.noteId, added.data.noteId));
    expect(notes.map((n) => [n.version, n.body]).sort()).toEqual([
      [1, 'First look: face matches.'],
      [2, 'First look: face matches, DOB checked.'],
    ]);
    await expect(
      db().update(caseNotes).set({ body: 'rewritten' }).where(eq(caseNotes.noteId, added.data.noteId)),
    ).rejects.toThrow();
  });

  it('an analyst cannot create queues or reopen by calling the action; unassign and bulk assign follow the same rules', async () => {
    await signInAs(analyst);
    const n = (await db().select({ n: count() }).from(caseQueues))[0].n;
    const r = await actions.createQueueAction({
      name: 'Sneaky',
      priority: 0,
      slaHours: 1,
      definition: '',
      minRole: 'analyst',
    });
    expect(r).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect((await db().select({ n: count() }).from(caseQueues))[0].n).toBe(n);
    const denied = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'access.denied'), eq(auditLog.actorId, analyst.id)));
    expect(denied.some((d) => (d.details as { action?: string }).action === 'queue.create')).toBe(true);

    const open = await db()
      .select()
      .from(cases)
      .where(and(eq(cases.queueId, qid), eq(cases.state, 'open')));
    expect(open.length).toBeGreaterThan(0);
    const ids = open.map((o) => o.executionId);
    let b = await actions.bulkAssignCasesAction({ executionIds: ids, assignee: analyst2.id });
    expect(b).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    b = await actions.bulkAssignCasesAction({ executionIds: [...ids, randomUUID()], assignee: 'me' });
    expect(b).toMatchObject({ ok: true, data: { assigned: ids.length, skipped: 1 } });
    const mine = await db().select().from(cases).where(inArray(cases.executionId, ids));
    expect(mine.every((m) => m.assigneeId === analyst.id && m.state === 'in_review')).toBe(true);
    const u = await actions.assignCaseAction({ caseId: mine[0].id, version: mine[0].version });
    expect(u).toMatchObject({ ok: true, data: { assigneeId: null } });
    expect(await caseOf(mine[0].executionId)).toMatchObject({ state: 'open', assigneeId: null });
    void made;
  });
});

describe('demo history', () => {
  it('spreads the open cases over resolved, claimed, overdue, escalated and open, once', async () => {
    const { seedDemoCaseHistory } = await import('@/lib/cases/demo');
    const { users } = await import('@/lib/db/schema');
    for (const [email, role] of [
      ['analyst@verdict.local', 'analyst'],
      ['manager@verdict.local', 'manager'],
      ['admin@verdict.local', 'admin'],
    ] as const)
      await db().insert(users).values({ email, name: email, role }).onConflictDoNothing();
    const tag = `demo-${randomUUID().slice(0, 8)}`;
    await makeQueue('Demo', `criteria=${tag}`, 0, 24);
    // Enough executions that every band of the hash is filled (3 % escalated: none of 600 has odds 1e-8).
    const xs = Array.from({ length: 600 }, (_, i) =>
      tagged(tag, { decision: i % 2 ? 'REJECTED' : 'WARNING', score: 60 }),
    );
    await ingestMany(
      db(),
      xs.map((x) => input(x)),
    );
    const first = await seedDemoCaseHistory(db());
    expect(first.seeded).toBe(true);
    const rows = await db()
      .select({
        state: cases.state,
        overdue: sql<boolean>`${cases.state} <> 'resolved' and ${cases.dueAt} < now()`,
        kind: caseQueues.kind,
      })
      .from(cases)
      .innerJoin(caseQueues, eq(caseQueues.id, cases.queueId))
      .where(
        inArray(
          cases.executionId,
          xs.map((x) => x.id),
        ),
      );
    const n = (f: (r: (typeof rows)[number]) => boolean) => rows.filter(f).length;
    expect(n((r) => r.state === 'resolved')).toBeGreaterThan(40);
    expect(n((r) => r.state === 'in_review')).toBeGreaterThan(5);
    expect(n((r) => r.overdue)).toBeGreaterThan(10);
    expect(n((r) => r.kind === 'escalation')).toBeGreaterThan(0);
    expect(n((r) => r.state === 'open' && !r.overdue && r.kind === 'filter')).toBeGreaterThan(20);
    // QA reviews of some resolutions, decided by someone other than the first analyst.
    const qa = await db()
      .select()
      .from(qaReviews)
      .where(
        inArray(
          qaReviews.executionId,
          xs.map((x) => x.id),
        ),
      );
    // Exactly the resolutions the hash picks (about 12 %), so the figure does not depend on luck.
    const picked = await db().execute<{ n: number }>(sql`
      select count(*)::int as n from cases
      where execution_id in (${sql.join(
        xs.map((x) => sql`${x.id}`),
        sql`, `,
      )}) and state = 'resolved' and outcome in ('approve', 'decline')
        and (('x' || substr(md5('qa:' || execution_id::text), 1, 8))::bit(32)::int & 2147483647) % 100 < 12`);
    expect(qa.length).toBe(picked.rows[0].n);
    expect(qa.length).toBeGreaterThan(0);
    expect(qa.some((q) => q.state !== 'open')).toBe(true);
    expect(qa.every((q) => q.reviewerId !== q.firstAnalystId && q.settledBy !== q.firstAnalystId)).toBe(true);
    for (const q of qa.filter((x) => x.state === 'settled'))
      expect((await caseOf(q.executionId)).outcome).toBe(q.settledOutcome);
    expect((await seedDemoCaseHistory(db())).seeded).toBe(false);
  });
});
