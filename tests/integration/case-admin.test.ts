/**
 * The rest of case work against a real database: the queues page's figures each counted again
 * through the list they link to, the case history on the detail page (free text masked), the
 * admin screen of resolution reasons (validated, audited, past resolutions keep their reason),
 * and the actions refused without a session or the role, writing nothing.
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { claimNextCase } from '@/lib/cases/claim';
import { analystFigureLinks, DISAGREEMENT_LINKS, queueFigureLinks } from '@/lib/cases/figures';
import { resolveCase } from '@/lib/cases/resolve';
import { listCaseEvents } from '@/lib/cases/history';
import { getCaseOfExecution, getQueuesPage, listCaseReasons } from '@/lib/cases/queries';
import { db } from '@/lib/db/client';
import { auditLog, caseEvents, caseQueues, caseReasons, cases, executions, qaReviews } from '@/lib/db/schema';
import { DEFAULT_LIST_PARAMS, type ListParams } from '@/lib/executions/list-params';
import { listWhere } from '@/lib/executions/where';
import { getBoss, stopBoss } from '@/lib/jobs/boss';
import { ingestMany } from '@/lib/sync/ingest';
import { buildExecution } from '../support/fixtures/execution';
import { createUser, sessionCookieFor } from '../support/feedback';
import { request } from '../support/next-headers';

vi.mock('next/headers', async () => (await import('../support/next-headers')).nextHeaders);
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const actions = await import('@/lib/actions/cases');

type User = Awaited<ReturnType<typeof createUser>>;
const as = async (u: { id: string } | null) => {
  request.cookie = u ? (await sessionCookieFor(u)).value : '';
};
const caseOf = async (executionId: string) =>
  (await db().select().from(cases).where(eq(cases.executionId, executionId)))[0];

let analyst: User;
let analyst2: User;
let manager: User;
let admin: User;
let qid: string;
const made: string[] = [];

/** Claims and resolves (or escalates) the next case of the test's queue as `u`. */
async function work(u: User, outcome: 'approve' | 'decline' | 'escalate', comment?: string) {
  const k = await claimNextCase(u, { queueId: qid });
  if (!k.ok || !k.data) throw new Error('no case to work');
  const c = await caseOf(k.data.executionId);
  const reason = outcome === 'approve' ? 'DOCUMENT_GENUINE' : outcome === 'decline' ? 'DOCUMENT_FORGED' : 'OTHER';
  // An outcome against the service's decision needs a comment (lib/cases/schema.ts).
  const said = comment ?? (outcome === 'escalate' ? undefined : 'Against the service: see the documents.');
  const r = await resolveCase(u, { caseId: c.id, version: c.version, outcome, reason, comment: said });
  if (!r.ok) throw new Error(r.error);
  return c;
}

beforeAll(async () => {
  await getBoss();
  [analyst, analyst2, manager, admin] = await Promise.all([
    createUser('analyst'),
    createUser('analyst', 'analyst2'),
    createUser('manager'),
    createUser('admin'),
  ]);
  const tag = `adm-${randomUUID().slice(0, 8)}`;
  qid = (
    await db()
      .insert(caseQueues)
      .values({ name: `Admin test ${tag}`, priority: 0, slaHours: 4, definition: `criteria=${tag}` })
      .returning()
  )[0].id;
  const xs = Array.from({ length: 14 }, (_, i) => {
    const x = buildExecution({ decision: i % 2 ? 'REJECTED' : 'PASSED', score: 40 + i });
    (x.result as { workflow: { reportingCriteria: string } }).workflow.reportingCriteria = tag;
    return x;
  });
  await ingestMany(
    db(),
    xs.map((x) => ({ result: x.result, steps: x.steps, rules: x.rules, fetchedAt: new Date() })),
  );
  made.push(...xs.map((x) => x.id));
});
afterAll(async () => {
  await stopBoss();
});

describe('the queues page', () => {
  it('every figure counts exactly the cases of the list it links to', async () => {
    await work(analyst, 'approve');
    await work(analyst, 'decline', 'Forged: the MRZ does not match.');
    const sampled = await work(analyst2, 'approve');
    await work(analyst2, 'escalate', 'Needs a second look.');
    await work(analyst2, 'decline');
    // analyst2's approval is under a blind QA review: sealed for everyone but analyst2.
    await db()
      .insert(qaReviews)
      .values({
        caseId: sampled.id,
        executionId: sampled.executionId,
        queueId: qid,
        week: new Date().toISOString().slice(0, 10),
        firstAnalystId: analyst2.id,
        firstOutcome: 'approve',
        firstReason: 'DOCUMENT_GENUINE',
        firstResolvedAt: new Date(),
      });
    // One claimed, one resolved long ago (out of the 7-day throughput), one overdue.
    await claimNextCase(analyst, { queueId: qid });
    const old = await work(analyst, 'approve');
    await db()
      .update(cases)
      .set({ resolvedAt: new Date(Date.now() - 10 * 86400_000), arrivedAt: new Date(Date.now() - 11 * 86400_000) })
      .where(eq(cases.id, old.id));
    const open = await db()
      .select()
      .from(cases)
      .where(and(eq(cases.queueId, qid), eq(cases.state, 'open')));
    await db()
      .update(cases)
      .set({ dueAt: new Date(Date.now() - 3600_000) })
      .where(eq(cases.id, open[0].id));

    // The page and the lists it links to are read in one transaction, so with one snapshot and one
    // now(): a case that falls due, or leaves the 7-day throughput, between two reads (another
    // file's too: the demo history's fresh arrivals in 4-hour queues fall due minutes after it ran)
    // cannot set a figure apart from its list.
    await db().transaction(
      async (tx) => {
        const listCount = async (to: Partial<ListParams>) =>
          (
            await tx
              .select({ n: count() })
              .from(executions)
              .where(listWhere({ ...DEFAULT_LIST_PARAMS, ...to } as ListParams))
          )[0].n;
        const page = await getQueuesPage(null, tx);
        const q = page.queues.find((x) => x.id === qid)!;
        expect(q).toMatchObject({ backlog: 8, inReview: 1, overdue: 1, resolved: 5, resolved7d: 4 });
        for (const queue of page.queues) {
          const to = queueFigureLinks(queue);
          expect(await listCount(to.backlog), `${queue.name} backlog`).toBe(queue.backlog);
          expect(await listCount(to.inReview), `${queue.name} in review`).toBe(queue.inReview);
          expect(await listCount(to.overdue), `${queue.name} overdue`).toBe(queue.overdue);
          expect(await listCount(to.resolved7d), `${queue.name} resolved in 7 days`).toBe(queue.resolved7d);
          expect(await listCount(to.resolved), `${queue.name} resolved`).toBe(queue.resolved);
          if (to.oldest) expect(await listCount(to.oldest), `${queue.name} oldest`).toBe(1);
          else expect(queue.backlog).toBe(0);
        }
        const a2 = page.analysts.find((a) => a.userId === analyst2.id)!;
        // The sampled approval is counted for nobody but its own analyst.
        expect(a2).toMatchObject({ approved: 0, declined: 1, escalated: 1 });
        const own = (await getQueuesPage(analyst2.id, tx)).analysts.find((a) => a.userId === analyst2.id)!;
        expect(own).toMatchObject({ approved: 1, declined: 1, escalated: 1 });
        // This file's analysts: another file's may have cases under a blind QA review, which the
        // list's outcome filters hide from everyone but their first analyst (lib/qa/seal.ts).
        const ours = new Set([analyst.id, analyst2.id]);
        for (const a of page.analysts.filter((x) => ours.has(x.userId))) {
          const to = analystFigureLinks(a);
          expect(await listCount(to.approved), `${a.name} approved`).toBe(a.approved);
          expect(await listCount(to.declined), `${a.name} declined`).toBe(a.declined);
          expect(await listCount(to.escalated), `${a.name} escalated`).toBe(a.escalated);
        }
        expect(await listCount(DISAGREEMENT_LINKS.approvedRejected)).toBe(page.disagreements.approvedRejected);
        expect(await listCount(DISAGREEMENT_LINKS.declinedPassed)).toBe(page.disagreements.declinedPassed);
      },
      { isolationLevel: 'repeatable read' },
    );
  });
});

describe('the case history', () => {
  it('lists every transition with who and when; free text only under a reveal', async () => {
    const c = await work(analyst, 'decline', 'Ana Pereira: forged passport.');
    const masked = await listCaseEvents(c.id, { revealed: false });
    expect(masked.map((e) => e.type)).toEqual(['created', 'claimed', 'resolved']);
    expect(masked[0].actor).toBeNull();
    expect(masked[1]).toMatchObject({ actor: analyst.name, assignee: analyst.name });
    expect(masked[2]).toMatchObject({
      actor: analyst.name,
      outcome: 'decline',
      reason: 'Document forged or tampered with',
      comment: null,
      commentWithheld: true,
    });
    expect(JSON.stringify(masked)).not.toContain('Ana Pereira');
    // The service's decision as the analyst saw it is kept with the outcome.
    const [ex] = await db()
      .select({ decision: executions.decisionType })
      .from(executions)
      .where(eq(executions.id, c.executionId));
    expect((await caseOf(c.executionId)).decisionAtOutcome).toBe(ex.decision);
    const revealed = await listCaseEvents(c.id, { revealed: true });
    expect(revealed[2]).toMatchObject({ comment: 'Ana Pereira: forged passport.', commentWithheld: false });

    // A manager takes over a colleague's claim: the history names whose it was.
    const k = await claimNextCase(analyst2, { queueId: qid });
    if (!k.ok || !k.data) throw new Error('no case');
    const taken = await caseOf(k.data.executionId);
    await as(manager);
    expect(await actions.assignCaseAction({ caseId: taken.id, version: taken.version, assignee: 'me' })).toMatchObject({
      ok: true,
    });
    const h = await listCaseEvents(taken.id, { revealed: false });
    expect(h.at(-1)).toMatchObject({ type: 'assigned', actor: manager.name, overrode: analyst2.name });
  });
});

describe('resolution reasons (admin)', () => {
  const reasonRows = () => db().select().from(caseReasons);
  const audits = (action: string) =>
    db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.actorId, admin.id)));

  it('adds, renames, reorders, retires and restores, audited; bad input and other roles write nothing', async () => {
    const before = await reasonRows();
    for (const u of [analyst, manager]) {
      await as(u);
      expect(await actions.createCaseReasonAction({ label: 'Sneaky reason', outcomes: ['approve'] })).toMatchObject({
        ok: false,
        code: 'FORBIDDEN',
      });
      expect(await actions.setCaseReasonActiveAction({ code: 'OTHER', active: false })).toMatchObject({
        ok: false,
        code: 'FORBIDDEN',
      });
    }
    await as(admin);
    let r: { ok: boolean } = await actions.createCaseReasonAction({ label: ' ', outcomes: ['approve'] });
    expect(r).toMatchObject({ ok: false, code: 'INVALID', fieldErrors: { label: [expect.any(String)] } });
    r = await actions.createCaseReasonAction({ label: 'Selfie re-taken', outcomes: [] });
    expect(r).toMatchObject({ ok: false, code: 'INVALID', fieldErrors: { outcomes: [expect.any(String)] } });
    r = await actions.createCaseReasonAction({ label: 'x'.repeat(100_000), outcomes: ['approve'] });
    expect(r).toMatchObject({ ok: false, code: 'INVALID' });
    r = await actions.createCaseReasonAction({ label: 'other (see comment)', outcomes: ['approve'] });
    expect(r).toMatchObject({ ok: false, code: 'INVALID', error: 'A reason with this label exists already.' });
    r = await actions.updateCaseReasonAction({ code: 'NO_SUCH_REASON', label: 'Whatever', outcomes: ['approve'] });
    expect(r).toMatchObject({ ok: false, code: 'INVALID', error: 'Unknown reason.' });
    r = await actions.reorderCaseReasonsAction({ codes: ['OTHER', 'NO_SUCH_REASON'] });
    expect(r).toMatchObject({ ok: false, code: 'INVALID' });
    expect(await reasonRows()).toEqual(before);

    const added = await actions.createCaseReasonAction({ label: 'Selfie re-taken', outcomes: ['escalate', 'approve'] });
    expect(added).toMatchObject({ ok: true, data: { code: 'SELFIE_RE_TAKEN' } });
    const [row] = (await reasonRows()).filter((x) => x.code === 'SELFIE_RE_TAKEN');
    expect(row).toMatchObject({ label: 'Selfie re-taken', outcomes: ['approve', 'escalate'], active: true });
    expect((await audits('case_reason.create')).length).toBe(1);

    r = await actions.updateCaseReasonAction({
      code: 'SELFIE_RE_TAKEN',
      label: 'Selfie taken again',
      outcomes: ['approve'],
    });
    expect(r.ok).toBe(true);
    expect((await audits('case_reason.update'))[0].details).toMatchObject({
      from: { label: 'Selfie re-taken' },
      to: { label: 'Selfie taken again', outcomes: ['approve'] },
    });
    const order = (await listCaseReasons()).map((x) => x.code);
    const moved = ['SELFIE_RE_TAKEN', ...order.filter((c) => c !== 'SELFIE_RE_TAKEN')];
    expect(await actions.reorderCaseReasonsAction({ codes: moved })).toMatchObject({ ok: true });
    expect((await listCaseReasons())[0].code).toBe('SELFIE_RE_TAKEN');
    expect((await audits('case_reason.reorder')).length).toBe(1);
  });

  it('a retired reason leaves the form, stays on past resolutions, and cannot leave an outcome without one', async () => {
    const c = await work(analyst, 'approve');
    await as(admin);
    expect(await actions.setCaseReasonActiveAction({ code: 'DOCUMENT_GENUINE', active: false })).toMatchObject({
      ok: true,
    });
    expect((await audits('case_reason.retire')).length).toBe(1);
    expect((await listCaseReasons()).map((x) => x.code)).not.toContain('DOCUMENT_GENUINE');
    // The past resolution keeps its reason, shown with its label.
    expect(await getCaseOfExecution(c.executionId, admin)).toMatchObject({
      reason: 'DOCUMENT_GENUINE',
      reasonLabel: 'Document checked and genuine',
    });
    // A new resolution cannot pick it any more.
    const k = await claimNextCase(analyst, { queueId: qid });
    if (!k.ok || !k.data) throw new Error('no case');
    const next = await caseOf(k.data.executionId);
    await as(analyst);
    expect(
      await actions.resolveCaseAction({
        caseId: next.id,
        version: next.version,
        outcome: 'approve',
        reason: 'DOCUMENT_GENUINE',
      }),
    ).toMatchObject({ ok: false, code: 'INVALID', fieldErrors: { reason: [expect.any(String)] } });

    // Escalation reasons: retire all but one, then the last one is refused.
    await as(admin);
    const escalating = (await listCaseReasons()).filter((x) => x.outcomes.includes('escalate')).map((x) => x.code);
    for (const code of escalating.slice(1))
      expect(await actions.setCaseReasonActiveAction({ code, active: false })).toMatchObject({ ok: true });
    const before = await db().select().from(caseReasons).where(inArray(caseReasons.code, escalating));
    expect(await actions.setCaseReasonActiveAction({ code: escalating[0], active: false })).toMatchObject({
      ok: false,
      code: 'INVALID',
      error: expect.stringMatching(/Every outcome needs a reason/),
    });
    expect(await db().select().from(caseReasons).where(inArray(caseReasons.code, escalating))).toEqual(before);
    for (const code of [...escalating.slice(1), 'DOCUMENT_GENUINE'])
      expect(await actions.setCaseReasonActiveAction({ code, active: true })).toMatchObject({ ok: true });
  });
});

describe('without a session', () => {
  it('resolving, claiming and noting are refused and write nothing', async () => {
    const k = await claimNextCase(analyst, { queueId: qid });
    if (!k.ok || !k.data) throw new Error('no case');
    const c = await caseOf(k.data.executionId);
    const events = async () =>
      (await db().select({ n: count() }).from(caseEvents).where(eq(caseEvents.caseId, c.id)))[0].n;
    const n = await events();
    await as(null);
    const base = { caseId: c.id, version: c.version };
    expect(await actions.resolveCaseAction({ ...base, outcome: 'approve', reason: 'OTHER' })).toMatchObject({
      ok: false,
      code: 'UNAUTHENTICATED',
    });
    expect(await actions.claimNextCaseAction({})).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    expect(await actions.addNoteAction({ executionId: c.executionId, body: 'hi' })).toMatchObject({
      ok: false,
      code: 'UNAUTHENTICATED',
    });
    expect(await caseOf(c.executionId)).toEqual(c);
    expect(await events()).toBe(n);
    void made;
  });
});
