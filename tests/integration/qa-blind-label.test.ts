/**
 * QA blindness covers the execution's FRAUD / NOT_FRAUD label, against a real database and through
 * the real actions and CSV route: while a sampled case's review is pending, a viewer other than the
 * first analyst gets no label from the detail, the feedback panel, linked records, the blast
 * radius, the list, its label filters, the CSV or the case report, and cannot label it; the first
 * analyst sees everything; once the review is decided, everyone does.
 *
 * The test's own executions share one identity document: A (FRAUD at the service, declined),
 * B (no label, approved), C (approved and labelled NOT_FRAUD in the same step, not delivered) are
 * resolved by the first analyst and sampled; D (FRAUD at the service) has an open case, is never
 * sampled and keeps its label in view: the control that nothing else is withheld.
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db/client';
import { feedbackSubmissions, qaReviews } from '@/lib/db/schema';
import { getBoss, stopBoss } from '@/lib/jobs/boss';
import { getCaseReportData } from '@/lib/evidence/report/case-data';
import { getExecutionDetail } from '@/lib/executions/detail';
import { listExecutions } from '@/lib/executions/queries';
import { getBulkFeedbackPreview, getFeedbackPanel } from '@/lib/feedback/queries';
import { parseListParams, type RawSearchParams } from '@/lib/executions/list-params';
import { SEALED_LABEL_MESSAGE } from '@/lib/feedback/submit';
import { weekOf } from '@/lib/qa/week';
import { ingestMany } from '@/lib/sync/ingest';
import { buildExecution } from '../support/fixtures/execution';
import { signInAs, type TestUser } from '../support/feedback';
import { keepResolvedInWeek, resolveAsFirstAnalyst, sampleWeek, startQaCast } from '../support/qa';

vi.mock('next/headers', async () => (await import('../support/next-headers')).nextHeaders);
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const feedbackActions = await import('@/lib/actions/feedback');
const qaActions = await import('@/lib/actions/qa');
const { GET: exportCsv } = await import('@/app/api/executions/export/route');

const TAG = `qa-label-${randomUUID().slice(0, 8)}`;
// One identity document of the test's own: the four are each other's linked records and blast radius.
const DOCUMENT = `QL${randomUUID().slice(0, 7).toUpperCase()}`;
let first: TestUser;
let second: TestUser;
let other: TestUser;
let manager: TestUser;
const ids = { a: '', b: '', c: '', d: '' };

function ingestOne(feedback?: { status: string; reason?: string }) {
  const x = buildExecution({ decision: 'WARNING', score: 44, documentNumber: DOCUMENT, feedback });
  (x.result as { workflow: { reportingCriteria: string } }).workflow.reportingCriteria = TAG;
  return x;
}

/** The ids of the test's executions a list filter returns for `u`, sorted. */
const listed = async (u: TestUser, filter: RawSearchParams = {}) =>
  (await listExecutions(parseListParams({ criteria: TAG, size: '100', ...filter }), u.id)).rows;
const idsOf = (rows: Array<{ id: string }>) => rows.map((r) => r.id).sort();
const sorted = (...xs: string[]) => [...xs].sort();

/** The CSV export's rows of the test's executions for `u`, by execution id, each cell unquoted. */
async function csvFor(u: TestUser): Promise<Map<string, Record<string, string>>> {
  await signInAs(u);
  const res = await exportCsv(new Request(`http://verdict.test/api/executions/export?criteria=${TAG}`));
  expect(res.status).toBe(200);
  const split = (line: string) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].map((m) => m[1]).slice(0, -1);
  const [header, ...lines] = (await res.text())
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  const cols = split(header);
  return new Map(
    lines.map((l) => {
      const cells = split(l);
      const row = Object.fromEntries(cols.map((c, i) => [c, cells[i] ?? '']));
      return [row.execution_id, row];
    }),
  );
}

beforeAll(async () => {
  const boss = await getBoss();
  ({ first, second, other, manager } = await startQaCast(TAG));
  const xs = [
    ingestOne({ status: 'FRAUD', reason: 'IDENTITY_FRAUD' }),
    ingestOne(),
    ingestOne(),
    ingestOne({ status: 'FRAUD', reason: 'IDENTITY_FRAUD' }),
  ];
  [ids.a, ids.b, ids.c, ids.d] = xs.map((x) => x.id);
  await ingestMany(
    db(),
    xs.map((x) => ({ result: x.result, steps: x.steps, rules: x.rules, fetchedAt: new Date() })),
  );
  const week = weekOf(new Date());
  await resolveAsFirstAnalyst(first, ids.a, 'decline');
  await resolveAsFirstAnalyst(first, ids.b, 'approve');
  await resolveAsFirstAnalyst(first, ids.c, 'approve', { feedbackStatus: 'NOT_FRAUD' });
  // Should a week have turned during the resolutions (Monday 00:00 UTC), they would not all be in
  // the week drawn below: kept in it (a no-op on any other day).
  await keepResolvedInWeek([ids.a, ids.b, ids.c], week);
  // The real weekly draw: at least 3 of each person's resolutions this week, so all of the first
  // analyst's 3 (others' cases resolved this week by earlier files get up to 3 reviews each).
  await sampleWeek(boss, week, manager);
  const reviews = await db()
    .select({ executionId: qaReviews.executionId, state: qaReviews.state })
    .from(qaReviews)
    .where(inArray(qaReviews.executionId, Object.values(ids)));
  expect(reviews.map((r) => r.executionId).sort()).toEqual(sorted(ids.a, ids.b, ids.c));
  expect(reviews.every((r) => r.state === 'open')).toBe(true);
});
afterAll(async () => {
  await stopBoss();
});

describe('a label under a blind QA review', () => {
  it('is withheld from the detail, its linked records and its audit trail', async () => {
    const blind = (await getExecutionDetail(ids.a, second, { record: false }))!;
    expect(blind.feedback).toEqual({ status: null, reason: null, providedAt: null, delivery: null, sealed: true });
    // The service's copy inside the stored result is withheld too (the raw JSON section shows it).
    expect(blind.result.feedback).toBeUndefined();
    const linked = Object.fromEntries(blind.links.document.map((l) => [l.id, l]));
    expect(linked[ids.b]).toMatchObject({ sealed: true, feedbackStatus: null });
    expect(linked[ids.c]).toMatchObject({ sealed: true, feedbackStatus: null });
    // An execution without a pending review keeps its label in view.
    expect(linked[ids.d]).toMatchObject({ sealed: false, feedbackStatus: 'FRAUD' });
    const { links: _links, ...rest } = blind;
    expect(JSON.stringify(rest)).not.toMatch(/FRAUD/);

    // C's label was given with its resolution: its audit entry keeps the fact, not the label.
    const c = (await getExecutionDetail(ids.c, second, { record: false }))!;
    expect(c.audit.find((e) => e.action === 'feedback.submit')?.details).toMatchObject({ sealed: true });
    const { links: _cLinks, ...cRest } = c;
    expect(JSON.stringify(cRest)).not.toMatch(/FRAUD/);

    // A manager who could take the review is as blind.
    expect((await getExecutionDetail(ids.a, manager, { record: false }))!.feedback.sealed).toBe(true);

    const own = (await getExecutionDetail(ids.a, first, { record: false }))!;
    expect(own.feedback).toMatchObject({ status: 'FRAUD', reason: 'IDENTITY_FRAUD', sealed: false });
    expect(own.result.feedback).toMatchObject({ status: 'FRAUD' });
    expect(Object.fromEntries(own.links.document.map((l) => [l.id, l]))[ids.c]).toMatchObject({ sealed: false });
    const ownC = (await getExecutionDetail(ids.c, first, { record: false }))!;
    expect(ownC.audit.find((e) => e.action === 'feedback.submit')?.details).toMatchObject({ status: 'NOT_FRAUD' });
  });

  it('is withheld from the feedback panel, its blast radius and the bulk confirmation', async () => {
    const blind = (await getFeedbackPanel(ids.c, second.id))!;
    expect(blind).toMatchObject({
      sealed: true,
      service: { status: null, reason: null, providedAt: null },
      delivery: null,
      version: 'none',
      latest: null,
      history: [],
    });
    const blast = Object.fromEntries(blind.blast.items.map((i) => [i.id, i]));
    expect(blast[ids.a]).toMatchObject({ sealed: true, feedbackStatus: null });
    expect(blast[ids.d]).toMatchObject({ sealed: false, feedbackStatus: 'FRAUD' });
    // The same through the action the panel polls with.
    await signInAs(second);
    expect(await feedbackActions.getFeedbackPanelAction({ executionId: ids.c })).toMatchObject({
      ok: true,
      data: { sealed: true, latest: null, history: [] },
    });

    const own = (await getFeedbackPanel(ids.c, first.id))!;
    expect(own).toMatchObject({ sealed: false, latest: { status: 'NOT_FRAUD' } });
    expect(own.history).toHaveLength(1);
    expect(Object.fromEntries(own.blast.items.map((i) => [i.id, i]))[ids.a]).toMatchObject({
      sealed: false,
      feedbackStatus: 'FRAUD',
    });

    // Bulk: a sealed execution is left out of the confirmation whole (counts and versions).
    const preview = await getBulkFeedbackPreview([ids.a, ids.c, ids.d], second.id);
    expect(preview).toMatchObject({ count: 1, alreadyLabelled: 1 });
    expect([...preview.sealed].sort()).toEqual(sorted(ids.a, ids.c));
    expect(Object.keys(preview.versions)).toEqual([ids.d]);
  });

  it('cannot be changed by a blind viewer, and the refusal names no label', async () => {
    const labels = async () =>
      (
        await db()
          .select({ n: count() })
          .from(feedbackSubmissions)
          .where(inArray(feedbackSubmissions.executionId, Object.values(ids)))
      )[0].n;
    const before = await labels();
    await signInAs(second);
    const refused = { ok: false, code: 'FORBIDDEN', error: SEALED_LABEL_MESSAGE };
    // The same label as the one given ("already labelled …") and another one ("changed since …").
    for (const [executionId, status] of [
      [ids.c, 'NOT_FRAUD'],
      [ids.a, 'NOT_FRAUD'],
      [ids.b, 'FRAUD'],
    ] as const)
      expect(
        await feedbackActions.submitFeedbackAction({
          executionId,
          status,
          reason: status === 'FRAUD' ? 'IDENTITY_FRAUD' : undefined,
          version: 'none',
          idempotencyKey: `blind-${randomUUID()}`,
        }),
      ).toEqual(refused);
    const [submission] = await db()
      .select({ id: feedbackSubmissions.id })
      .from(feedbackSubmissions)
      .where(eq(feedbackSubmissions.executionId, ids.c));
    expect(await feedbackActions.retryFeedbackAction({ submissionId: submission.id })).toEqual(refused);
    expect(
      await feedbackActions.submitBulkFeedbackAction({
        executionIds: [ids.a, ids.d],
        status: 'NOT_FRAUD',
        versions: { [ids.a]: 'none', [ids.d]: 'none' },
        idempotencyKey: `blind-bulk-${randomUUID()}`,
      }),
    ).toMatchObject({ ok: false, code: 'FORBIDDEN', error: expect.stringMatching(/^1 of the selected .* sealed/) });
    expect(await labels()).toBe(before);
  });

  it('is blank and marked sealed in the list, and its label filters leave it out', async () => {
    const rows = Object.fromEntries((await listed(second)).map((r) => [r.id, r]));
    for (const id of [ids.a, ids.b, ids.c])
      expect(rows[id]).toMatchObject({
        sealed: true,
        feedbackStatus: null,
        feedbackReason: null,
        feedbackDelivery: null,
        feedbackLabel: null,
      });
    expect(rows[ids.d]).toMatchObject({ sealed: false, feedbackStatus: 'FRAUD', feedbackReason: 'IDENTITY_FRAUD' });
    const own = Object.fromEntries((await listed(first)).map((r) => [r.id, r]));
    expect(own[ids.a]).toMatchObject({ sealed: false, feedbackStatus: 'FRAUD', feedbackReason: 'IDENTITY_FRAUD' });
    expect(own[ids.c]).toMatchObject({
      sealed: false,
      feedbackLabel: 'NOT_FRAUD',
      feedbackDelivery: expect.any(String),
    });

    // Each label filter, including "none" and the delivery states, as the blind viewer and as the first analyst.
    const cases: Array<[RawSearchParams, string[], string[]]> = [
      [{ feedback: 'FRAUD' }, [ids.d], [ids.a, ids.d]],
      // C's label is not at the service yet: "none" there, and pending.
      [{ feedback: 'none' }, [], [ids.b, ids.c]],
      [{ feedback: ['none', 'FRAUD'] }, [ids.d], [ids.a, ids.b, ids.c, ids.d]],
      [{ feedback: 'pending' }, [], [ids.c]],
      [{ feedbackReason: 'IDENTITY_FRAUD' }, [ids.d], [ids.a, ids.d]],
    ];
    for (const [filter, blind, seen] of cases) {
      expect(idsOf(await listed(second, filter)), JSON.stringify(filter)).toEqual(sorted(...blind));
      expect(idsOf(await listed(first, filter)), JSON.stringify(filter)).toEqual(sorted(...seen));
    }
    // Without a label filter every row is listed (only its label is blank).
    expect(idsOf(await listed(second))).toEqual(sorted(...Object.values(ids)));
  });

  it('is blank in the CSV and absent from the case report', async () => {
    const blind = await csvFor(second);
    for (const id of [ids.a, ids.b, ids.c])
      expect(blind.get(id)).toMatchObject({ feedback_status: '', feedback_reason: '', feedback_delivery: '' });
    expect(blind.get(ids.d)).toMatchObject({ feedback_status: 'FRAUD', feedback_reason: 'IDENTITY_FRAUD' });
    const own = await csvFor(first);
    expect(own.get(ids.a)).toMatchObject({ feedback_status: 'FRAUD', feedback_reason: 'IDENTITY_FRAUD' });
    expect(own.get(ids.c)?.feedback_delivery).not.toBe('');

    const report = (await getCaseReportData(ids.c, second))!;
    expect(report.feedback).toEqual([]);
    expect(report.detail.feedback.sealed).toBe(true);
    expect((await getCaseReportData(ids.c, first))!.feedback.map((f) => f.status)).toEqual(['NOT_FRAUD']);
  });

  it('is shown to everyone once the review is decided', async () => {
    const [review] = await db().select().from(qaReviews).where(eq(qaReviews.executionId, ids.a));
    await signInAs(second);
    const took = await qaActions.takeQaReviewAction({ reviewId: review.id, version: review.version, assignee: 'me' });
    expect(took).toMatchObject({ ok: true });
    const decided = await qaActions.decideQaReviewAction({
      reviewId: review.id,
      version: took.ok ? took.data.version : 0,
      outcome: 'decline',
      reason: 'DOCUMENT_FORGED',
      comment: 'Forged, I agree.',
    });
    expect(decided).toMatchObject({ ok: true, data: { state: 'agreed' } });

    for (const u of [second, other]) {
      const d = (await getExecutionDetail(ids.a, u, { record: false }))!;
      expect(d.feedback).toMatchObject({ status: 'FRAUD', reason: 'IDENTITY_FRAUD', sealed: false });
      expect((await getFeedbackPanel(ids.a, u.id))!).toMatchObject({
        sealed: false,
        service: { status: 'FRAUD', reason: 'IDENTITY_FRAUD' },
      });
      const row = (await listed(u)).find((r) => r.id === ids.a);
      expect(row).toMatchObject({ sealed: false, feedbackStatus: 'FRAUD' });
      expect(idsOf(await listed(u, { feedback: 'FRAUD' }))).toEqual(sorted(ids.a, ids.d));
      expect((await csvFor(u)).get(ids.a)).toMatchObject({ feedback_status: 'FRAUD' });
    }
    // B and C are still pending: still sealed.
    expect((await getExecutionDetail(ids.c, second, { record: false }))!.feedback.sealed).toBe(true);
    const stillOpen = await db()
      .select({ n: count() })
      .from(qaReviews)
      .where(and(inArray(qaReviews.executionId, [ids.b, ids.c]), eq(qaReviews.state, 'open')));
    expect(stillOpen[0].n).toBe(2);
  });
});
