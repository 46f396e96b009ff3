/**
 * QA sampling against a real database, through the real server actions (session cookie, role,
 * zod, one transaction): the weekly draw (rate, minimum, idempotent, deterministic, never the
 * same case twice), blindness of every read function, reviewer other than the first analyst,
 * settling a disagreement (case outcome, feedback, webhook, audit in one step) and bad input
 * that writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db/client';
import {
  auditLog,
  caseEvents,
  caseNotes,
  cases,
  feedbackSubmissions,
  qaReviews,
  qaSampleRuns,
  webhookEvents,
} from '@/lib/db/schema';
import { getBoss, stopBoss } from '@/lib/jobs/boss';
import { addNote } from '@/lib/cases/notes';
import { getCaseOfExecution, listNotes } from '@/lib/cases/queries';
import { getExecutionDetail } from '@/lib/executions/detail';
import { listExecutions } from '@/lib/executions/queries';
import { getQaOfExecution, getQualityPage, listQaReviews } from '@/lib/qa/quality';
import { parseListParams } from '@/lib/executions/list-params';
import { runQaSampling, startQaSampling } from '@/lib/qa/sample';
import { weekOf } from '@/lib/qa/week';
import { ingestMany } from '@/lib/sync/ingest';
import { buildExecution } from '../support/fixtures/execution';
import { signInAs, type TestUser } from '../support/feedback';
import { keepResolvedInWeek, resolveAsFirstAnalyst, startQaCast } from '../support/qa';

vi.mock('next/headers', async () => (await import('../support/next-headers')).nextHeaders);
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const actions = await import('@/lib/actions/qa');

const TAG = `qa-${randomUUID().slice(0, 8)}`;
const WEEK = weekOf(new Date());
let first: TestUser;
let second: TestUser;
let other: TestUser;
let manager: TestUser;
let firstIds: string[] = [];
let otherIds: string[] = [];

/** Ingests `n` executions of the test's own queue and resolves each as `who`. */
async function resolvedBy(who: TestUser, n: number, outcome: 'approve' | 'decline') {
  const xs = Array.from({ length: n }, (_, i) => {
    const x = buildExecution({ decision: 'WARNING', score: 40 + i });
    (x.result as { workflow: { reportingCriteria: string } }).workflow.reportingCriteria = TAG;
    return x;
  });
  await ingestMany(
    db(),
    xs.map((x) => ({ result: x.result, steps: x.steps, rules: x.rules, fetchedAt: new Date() })),
  );
  // Declines are labelled Fraud in the same step: a settlement to approve must correct it.
  for (const x of xs)
    await resolveAsFirstAnalyst(
      who,
      x.id,
      outcome,
      outcome === 'decline' ? { feedbackStatus: 'FRAUD', feedbackReason: 'IDENTITY_FRAUD' } : {},
    );
  return xs.map((x) => x.id);
}

const reviewsOf = (ids: string[]) =>
  db().select().from(qaReviews).where(inArray(qaReviews.executionId, ids)).orderBy(qaReviews.id);

async function sampleNow(rate: number, min: number) {
  const boss = await getBoss();
  const { runId } = await db().transaction((tx) =>
    startQaSampling(tx, boss, {
      week: WEEK,
      settings: { ratePercent: rate, minPerAnalyst: min, enabled: true },
      trigger: 'manual',
      actor: manager,
    }),
  );
  await runQaSampling(db(), runId);
  return runId;
}

beforeAll(async () => {
  await getBoss();
  ({ first, second, other, manager } = await startQaCast(TAG));
  firstIds = await resolvedBy(first, 6, 'decline');
  otherIds = await resolvedBy(other, 1, 'approve');
  // WEEK was read when the file loaded, the resolutions come seconds later: should a week have
  // turned in between (Monday 00:00 UTC), they would fall outside the week every draw here
  // samples. Kept in WEEK (a no-op on any other day).
  await keepResolvedInWeek([...firstIds, ...otherIds], WEEK);
  await addNote(first, { executionId: firstIds[0], body: 'I declined it: forged.' });
});
afterAll(async () => {
  await stopBoss();
});

describe('sampling', () => {
  it('draws the rate per person with the minimum, once, and the same draw on a rerun', async () => {
    const runId = await sampleNow(50, 1);
    const [run] = await db().select().from(qaSampleRuns).where(eq(qaSampleRuns.id, runId));
    // Other files' analysts resolved cases this week too (one database per run): they are drawn
    // as well, so the run counts at least this file's four.
    expect(run.state).toBe('completed');
    expect(run.sampled).toBeGreaterThanOrEqual(4);
    expect(run.done).toBe(run.total);
    // 50 % of 6 is 3; 50 % of 1 rounds up to 1 (and the minimum is 1).
    const a = await reviewsOf(firstIds);
    expect(a).toHaveLength(3);
    expect(await reviewsOf(otherIds)).toHaveLength(1);
    expect(a.every((r) => r.state === 'open' && r.firstOutcome === 'decline' && r.week === WEEK)).toBe(true);

    // A rerun, even at a higher minimum that is already met, adds nothing and changes nothing.
    await sampleNow(50, 3);
    expect((await reviewsOf(firstIds)).map((r) => r.id)).toEqual(a.map((r) => r.id));
    // Raising the rate adds the next cases of the same deterministic order, never a sampled one twice.
    await sampleNow(100, 1);
    const all = await reviewsOf(firstIds);
    expect(all).toHaveLength(6);
    expect(new Set(all.map((r) => r.caseId)).size).toBe(6);
    const events = await db()
      .select({ n: count() })
      .from(caseEvents)
      .where(and(inArray(caseEvents.executionId, firstIds), eq(caseEvents.type, 'qa_sampled')));
    expect(events[0].n).toBe(6);
    const audited = await db()
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'qa.sampled'), inArray(auditLog.targetId, firstIds)));
    expect(audited[0].n).toBe(6);
  });

  it('refuses a week that is not a Monday and a manager-only start from an analyst, writing nothing', async () => {
    const before = (await db().select({ n: count() }).from(qaSampleRuns))[0].n;
    await signInAs(manager);
    expect(await actions.startQaSamplingAction({ week: '2026-11-25' })).toMatchObject({
      ok: false,
      code: 'INVALID',
      error: 'A week starts on a Monday.',
    });
    expect(await actions.startQaSamplingAction({ week: 'last week' })).toMatchObject({ ok: false, code: 'INVALID' });
    await signInAs(second);
    expect(await actions.startQaSamplingAction({})).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect(await actions.saveQaSettingsAction({ ratePercent: 10, minPerAnalyst: 1, enabled: true })).toMatchObject({
      ok: false,
      code: 'FORBIDDEN',
    });
    expect((await db().select({ n: count() }).from(qaSampleRuns))[0].n).toBe(before);
  });

  it('validates and audits the rate', async () => {
    await signInAs(manager);
    const bad = await actions.saveQaSettingsAction({ ratePercent: 0, minPerAnalyst: -1, enabled: true });
    expect(bad).toMatchObject({
      ok: false,
      code: 'INVALID',
      fieldErrors: { ratePercent: ['The rate is 0.1 to 100 %.'], minPerAnalyst: ['The minimum is 0 to 50 cases.'] },
    });
    const ok = await actions.saveQaSettingsAction({ ratePercent: '7.5', minPerAnalyst: '2', enabled: 'on' } as never);
    expect(ok).toMatchObject({ ok: true, data: { changed: true } });
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'settings.change'), eq(auditLog.targetId, 'qa.sampling')));
    expect(entry.details).toMatchObject({ after: { ratePercent: 7.5, minPerAnalyst: 2, enabled: true } });
  });
});

describe('the blind re-review', () => {
  it('seals the first outcome from everyone but the first analyst in every read function', async () => {
    const ex = firstIds[0];
    const sealed = await getCaseOfExecution(ex, second);
    expect(sealed).toMatchObject({ state: 'resolved', sealed: true, outcome: null, reason: null, comment: null });
    expect(await getCaseOfExecution(ex, first)).toMatchObject({ sealed: false, outcome: 'decline' });
    // The notes: only one's own while sealed.
    expect(await listNotes(ex, second.id)).toEqual([]);
    expect(await listNotes(ex, first.id)).toHaveLength(1);
    const qa = await getQaOfExecution(ex, second.id);
    expect(qa).toMatchObject({ sealed: true, first: null, review: null, withheldNotes: 1 });
    // The audit trail of the detail page: the resolution is there, its outcome and reason are not.
    const detail = await getExecutionDetail(ex, second, { record: false });
    const resolved = detail!.audit.find((e) => e.action === 'case.resolve');
    expect(resolved?.details).toMatchObject({ sealed: true });
    expect(JSON.stringify(detail!.audit)).not.toMatch(/DOCUMENT_FORGED|"decline"/);
    // The list cannot tell sealed cases apart by filtering on the outcome.
    const list = (u: TestUser) => listExecutions(parseListParams({ criteria: TAG, outcome: 'decline' }), u.id);
    expect((await list(second)).rows).toHaveLength(0);
    expect((await list(first)).rows).toHaveLength(6);
    // The reviews list a manager opens keeps it sealed too.
    const rows = await listQaReviews({ analyst: first.id }, manager.id);
    expect(rows.every((r) => r.first === null)).toBe(true);
  });

  it('never gives the first analyst their own case, and refuses their decision', async () => {
    await signInAs(first);
    for (let i = 0; i < 3; i++) {
      const r = await actions.claimNextQaReviewAction({});
      expect(r.ok).toBe(true);
      if (r.ok && r.data) expect(firstIds).not.toContain(r.data.executionId);
    }
    const [mine] = await reviewsOf([firstIds[1]]);
    const decided = await actions.decideQaReviewAction({
      reviewId: mine.id,
      version: mine.version,
      outcome: 'approve',
      reason: 'DOCUMENT_GENUINE',
    });
    expect(decided).toMatchObject({
      ok: false,
      code: 'FORBIDDEN',
      error: expect.stringMatching(/You resolved this case/),
    });
    expect(
      await actions.takeQaReviewAction({ reviewId: mine.id, version: mine.version, assignee: 'me' }),
    ).toMatchObject({
      ok: false,
      code: 'FORBIDDEN',
    });
    expect((await reviewsOf([firstIds[1]]))[0]).toMatchObject({ state: 'open', version: mine.version });
    // The database holds the rule too.
    await expect(
      db().execute(sql`update qa_reviews set reviewer_id = first_analyst_id where id = ${mine.id}`),
    ).rejects.toMatchObject({ cause: { constraint: 'qa_reviews_second_pair_check' } });
  });

  it('records a disagreement, refusing stale and unknown reviews, then shows both outcomes', async () => {
    const [r] = await reviewsOf([firstIds[0]]);
    await signInAs(second);
    const took = await actions.takeQaReviewAction({ reviewId: r.id, version: r.version, assignee: 'me' });
    expect(took).toMatchObject({ ok: true });
    const version = took.ok ? took.data.version : 0;
    const base = { reviewId: r.id, version, outcome: 'approve' as const, reason: 'DOCUMENT_GENUINE' };
    expect(await actions.decideQaReviewAction({ ...base, version: version - 1 })).toMatchObject({
      ok: false,
      code: 'CONFLICT',
    });
    expect(await actions.decideQaReviewAction({ ...base, reviewId: randomUUID() })).toMatchObject({
      ok: false,
      code: 'INVALID',
      error: 'Unknown QA review.',
    });
    expect(await actions.decideQaReviewAction({ ...base, reviewId: 'nope' })).toMatchObject({
      ok: false,
      code: 'INVALID',
    });
    expect(await actions.decideQaReviewAction({ ...base, outcome: 'decline' })).toMatchObject({
      ok: false,
      fieldErrors: { comment: ['A comment is required to decline.'] },
    });
    // Someone else cannot decide a review that is claimed.
    await signInAs(other);
    expect(await actions.decideQaReviewAction(base)).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    await signInAs(second);
    expect(await actions.decideQaReviewAction({ ...base, comment: 'Looks genuine to me.' })).toMatchObject({
      ok: true,
      data: { state: 'disputed' },
    });
    const after = await getQaOfExecution(firstIds[0], second.id);
    expect(after).toMatchObject({
      state: 'disputed',
      sealed: false,
      first: { outcome: 'decline', reason: 'DOCUMENT_FORGED' },
      review: { outcome: 'approve', comment: 'Looks genuine to me.' },
    });
    expect(await getCaseOfExecution(firstIds[0], second)).toMatchObject({ sealed: false, outcome: 'decline' });
    expect(await listNotes(firstIds[0], second.id)).toHaveLength(1);
  });
});

describe('settling a disagreement', () => {
  it('refuses the wrong role, a participant, a stale form, an unknown review and a contradicting label', async () => {
    const [r] = await reviewsOf([firstIds[0]]);
    const base = {
      reviewId: r.id,
      version: r.version,
      outcome: 'approve' as const,
      reason: 'DOCUMENT_GENUINE',
      comment: 'The second look is right.',
    };
    await signInAs(other);
    expect(await actions.settleQaReviewAction(base)).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    await signInAs(manager);
    expect(await actions.settleQaReviewAction({ ...base, version: r.version - 1 })).toMatchObject({
      ok: false,
      code: 'CONFLICT',
    });
    expect(await actions.settleQaReviewAction({ ...base, reviewId: randomUUID() })).toMatchObject({
      ok: false,
      error: 'Unknown QA review.',
    });
    expect(await actions.settleQaReviewAction({ ...base, comment: '' })).toMatchObject({ ok: false, code: 'INVALID' });
    // Approving a case labelled Fraud without correcting the label is refused: nothing sent onward would match.
    expect(await actions.settleQaReviewAction(base)).toMatchObject({
      ok: false,
      code: 'INVALID',
      fieldErrors: { feedbackStatus: [expect.stringMatching(/labelled Fraud/)] },
    });
    // An undecided review has nothing to settle.
    const [open] = await reviewsOf([firstIds[2]]);
    expect(await actions.settleQaReviewAction({ ...base, reviewId: open.id, version: open.version })).toMatchObject({
      ok: false,
      code: 'CONFLICT',
      error: 'There is no disagreement to settle.',
    });
    expect((await reviewsOf([firstIds[0]]))[0]).toMatchObject({ state: 'disputed', version: r.version });
  });

  it('sends the settled outcome onward: case, event, feedback, webhook and audit in one step', async () => {
    const [r] = await reviewsOf([firstIds[0]]);
    const ex = firstIds[0];
    const [latest] = await db()
      .select({ id: feedbackSubmissions.id })
      .from(feedbackSubmissions)
      .where(eq(feedbackSubmissions.executionId, ex));
    await signInAs(manager);
    const out = await actions.settleQaReviewAction({
      reviewId: r.id,
      version: r.version,
      outcome: 'approve',
      reason: 'DOCUMENT_GENUINE',
      comment: 'The second look is right.',
      feedbackStatus: 'NOT_FRAUD',
      feedbackVersion: latest.id,
      idempotencyKey: `settle-${randomUUID()}`,
    });
    expect(out).toMatchObject({ ok: true, data: { changed: true, feedback: { state: expect.any(String) } } });
    const [kase] = await db().select().from(cases).where(eq(cases.executionId, ex));
    expect(kase).toMatchObject({ outcome: 'approve', reason: 'DOCUMENT_GENUINE', resolvedBy: first.id });
    const [settled] = await db()
      .select()
      .from(caseEvents)
      .where(and(eq(caseEvents.executionId, ex), eq(caseEvents.type, 'qa_settled')));
    expect(settled).toMatchObject({ outcome: 'approve', actorId: manager.id });
    const labels = await db().select().from(feedbackSubmissions).where(eq(feedbackSubmissions.executionId, ex));
    expect(labels.map((l) => l.status).sort()).toEqual(['FRAUD', 'NOT_FRAUD']);
    const hooks = await db()
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.type, 'case.resolved'), sql`${webhookEvents.payload}->>'executionId' = ${ex}`));
    expect(hooks.map((h) => (h.payload as { outcome: string }).outcome).sort()).toEqual(['approve', 'decline']);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'qa.settle'), eq(auditLog.targetId, ex)));
    expect(audit.details).toMatchObject({ changed: true, firstOutcome: 'decline', reviewOutcome: 'approve' });
    // A second settlement of the same review is refused.
    expect(
      await actions.settleQaReviewAction({
        reviewId: r.id,
        version: r.version + 1,
        outcome: 'decline',
        reason: 'DOCUMENT_FORGED',
        comment: 'Again.',
      }),
    ).toMatchObject({ ok: false, code: 'CONFLICT', error: 'This disagreement is already settled.' });
  });

  it('counts it on the quality page, with the list behind each number', async () => {
    const page = await getQualityPage(manager.id);
    const row = page.byAnalyst.find((a) => a.key === first.id)!;
    expect(row).toMatchObject({ sampled: 6, decided: 1, agreed: 0, rate: 0, overturned: 1 });
    expect(page.overturned.map((o) => o.executionId)).toContain(firstIds[0]);
    const behind = await listQaReviews({ analyst: first.id, result: 'overturned' }, manager.id);
    expect(behind.map((b) => b.executionId)).toEqual([firstIds[0]]);
    expect(behind[0]).toMatchObject({
      first: { outcome: 'decline', reason: 'DOCUMENT_FORGED' },
      review: { outcome: 'approve' },
      settled: { outcome: 'approve', comment: 'The second look is right.' },
    });
    const week = page.trend.find((w) => w.week === WEEK)!;
    expect(week).toMatchObject({ overturned: expect.any(Number) });
    expect(week.decided).toBeGreaterThanOrEqual(1);
    // Notes were not touched by any of it.
    expect((await db().select({ n: count() }).from(caseNotes).where(eq(caseNotes.executionId, firstIds[0])))[0].n).toBe(
      1,
    );
  });
});
