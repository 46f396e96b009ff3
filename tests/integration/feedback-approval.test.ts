/**
 * Four-eyes approval, bulk labelling with its confirmation data and progress, and the blast
 * radius (executions sharing the identity document), against a real database and simulator.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db/client';
import { auditLog, executions, users } from '@/lib/db/schema';
import { deliverFeedback } from '@/lib/feedback/deliver';
import { IdvHttpError } from '@/lib/idv';
import {
  getBatchProgress,
  getBlastRadius,
  getBulkFeedbackPreview,
  getFeedbackDeliveryStats,
  getFeedbackPanel,
  listAwaitingApproval,
} from '@/lib/feedback/queries';
import { bulkFeedbackSchema, rejectSchema } from '@/lib/feedback/schema';
import { getFourEyes, setFourEyes } from '@/lib/feedback/settings';
import { decideFeedback } from '@/lib/feedback/decide';
import { submitBulkFeedback, submitFeedback } from '@/lib/feedback/submit';
import { ingestExecution } from '@/lib/sync/ingest';
import { buildExecution } from '../support/fixtures/execution';
import {
  createUser,
  firstLabel,
  footprint,
  newKey,
  serviceFeedback,
  startFeedbackWorkers,
  startWithUnlabelled,
  stateOf,
  stopQueueAndSim,
  until,
  untilDelivered,
  type CachedExecution,
  type Sim,
  type TestUser,
} from '../support/feedback';

let s: Sim;
let ex: CachedExecution[];
let analyst: TestUser;
let analyst2: TestUser;
let manager: TestUser;
let admin: TestUser;

const delivery = async (id: string) =>
  (await db().select({ d: executions.feedbackDelivery }).from(executions).where(eq(executions.id, id)))[0].d;

async function withWorkers<T>(fn: () => Promise<T>): Promise<T> {
  const stop = await startFeedbackWorkers();
  try {
    return await fn();
  } finally {
    await stop();
  }
}

beforeAll(async () => {
  ({ s, ex } = await startWithUnlabelled('feedback-approval', 16));
  [analyst, analyst2, manager, admin] = [
    await createUser('analyst'),
    await createUser('analyst', 'analyst2'),
    await createUser('manager'),
    await createUser('admin'),
  ];
});
afterAll(async () => {
  await setFourEyes(admin, false);
  await stopQueueAndSim(s);
});

describe('four-eyes', () => {
  it('is off until an admin turns it on, and the change is audited', async () => {
    expect((await getFourEyes()).enabled).toBe(false);
    await setFourEyes(admin, true);
    expect((await getFourEyes()).enabled).toBe(true);
    const [a] = await db()
      .select()
      .from(auditLog)
      .where(sql`${auditLog.action} = 'settings.change' and ${auditLog.actorId} = ${admin.id}`);
    expect(a.details).toEqual({ before: false, after: true });
  });

  it('holds an analyst’s FRAUD until a manager approves it, then delivers it', async () => {
    const e = ex[0];
    const r = await submitFeedback(analyst, {
      executionId: e.id,
      status: 'FRAUD',
      reason: 'THIRD_PARTY_FRAUD',
      note: 'Same device as a known ring',
      version: 'none',
      idempotencyKey: newKey(),
    });
    expect(r.ok && r.data.state).toBe('awaiting_approval');
    const id = r.ok ? r.data.submissionId : '';
    expect(await footprint([e.id])).toMatchObject({ submissions: 1, jobs: 0 });
    expect(await delivery(e.id)).toBe('awaiting_approval');
    const queue = await listAwaitingApproval();
    expect(queue.items.find((i) => i.id === id)).toMatchObject({
      status: 'FRAUD',
      reason: 'THIRD_PARTY_FRAUD',
      note: 'Same device as a known ring',
      submittedByEmail: analyst.email,
    });

    // Nothing reaches the service while it waits, even with workers running.
    await withWorkers(async () => {
      await new Promise((r) => setTimeout(r, 1500));
      expect(s.writes.get(e.id)).toBeUndefined();
      const ok = await decideFeedback(manager, id, 'approve', 'Checked the device graph');
      expect(ok.ok && ok.data.state).toBe('pending');
      await untilDelivered(id, 'delivery after approval');
    });
    expect(await serviceFeedback(e)).toMatchObject({ status: 'FRAUD', reason: 'THIRD_PARTY_FRAUD' });
    expect(s.writes.get(e.id)).toBe(1);
    expect(await stateOf(id)).toMatchObject({
      decidedBy: manager.id,
      decidedByEmail: manager.email,
      approvalComment: 'Checked the device graph',
    });
    expect((await listAwaitingApproval()).items.find((i) => i.id === id)).toBeUndefined();
    // A decision is final: approving or rejecting again is refused.
    expect(await decideFeedback(manager, id, 'reject', 'late')).toMatchObject({ ok: false, code: 'CONFLICT' });
  });

  it('a rejection needs a comment, is kept in history, and sends nothing', async () => {
    const e = ex[1];
    expect(
      rejectSchema.safeParse({ submissionId: '7d1e7a52-3f7c-4b55-9f3e-000000000000', comment: '   ' }).success,
    ).toBe(false);
    const r = await submitFeedback(analyst, firstLabel(e.id, 'NOT_FRAUD'));
    const id = r.ok ? r.data.submissionId : '';
    expect(await delivery(e.id)).toBe('awaiting_approval');
    const rej = await decideFeedback(
      manager,
      id,
      'reject',
      'The selfie is a printed photo: this is not a genuine customer',
    );
    expect(rej.ok && rej.data.state).toBe('rejected');
    expect(await delivery(e.id)).toBeNull();
    const panel = await getFeedbackPanel(e.id, analyst.id);
    expect(panel?.latest).toMatchObject({
      state: 'rejected',
      approvalComment: 'The selfie is a printed photo: this is not a genuine customer',
      decidedByEmail: manager.email,
    });
    expect(panel?.latest?.events.map((x) => x.kind)).toEqual(['submitted', 'rejected']);
    expect(await footprint([e.id])).toMatchObject({ jobs: 0 });
    expect(await decideFeedback(manager, id, 'approve')).toMatchObject({ ok: false, code: 'CONFLICT' });
  });

  it('NA from an analyst, and any label from a manager, go straight out', async () => {
    const na = await submitFeedback(analyst, firstLabel(ex[2].id, 'NA'));
    expect(na.ok && na.data.state).toBe('pending');
    const m = await submitFeedback(manager, firstLabel(ex[3].id, 'FRAUD', 'MONEY_LAUNDERING'));
    expect(m.ok && m.data.state).toBe('pending');
  });

  it('nobody decides on their own label', async () => {
    const r = await submitFeedback(analyst2, firstLabel(ex[4].id, 'FRAUD', 'PHISHING'));
    const id = r.ok ? r.data.submissionId : '';
    await db().update(users).set({ role: 'manager' }).where(eq(users.id, analyst2.id));
    expect(await decideFeedback({ ...analyst2, role: 'manager' }, id, 'approve')).toMatchObject({
      ok: false,
      code: 'FORBIDDEN',
    });
    await db().update(users).set({ role: 'analyst' }).where(eq(users.id, analyst2.id));
    expect((await stateOf(id)).state).toBe('awaiting_approval');
  });

  it('a newer label waiting for approval replaces the older waiting one; an approved label replaces what was not sent yet', async () => {
    const e = ex[5];
    const a = await submitFeedback(analyst, firstLabel(e.id));
    const aId = a.ok ? a.data.submissionId : '';
    const b = await submitFeedback(analyst2, {
      executionId: e.id,
      status: 'NOT_FRAUD',
      version: aId,
      idempotencyKey: newKey(),
    });
    const bId = b.ok ? b.data.submissionId : '';
    expect((await stateOf(aId)).state).toBe('superseded');
    expect((await listAwaitingApproval()).items.filter((i) => i.executionId === e.id).map((i) => i.id)).toEqual([bId]);
    expect(await decideFeedback(manager, aId, 'approve')).toMatchObject({ ok: false, code: 'CONFLICT' });
  });

  it('turned off, analyst labels go out at once; labels already waiting stay in the queue', async () => {
    await setFourEyes(admin, false);
    const r = await submitFeedback(analyst, firstLabel(ex[6].id, 'FRAUD', 'INSIDER_FRAUD'));
    expect(r.ok && r.data.state).toBe('pending');
    expect((await listAwaitingApproval()).total).toBeGreaterThanOrEqual(2);
  });
});

describe('bulk', () => {
  it('labels each selected execution on its own, skips those that changed since the confirmation, and reports progress', async () => {
    const sel = ex.slice(7, 11);
    const ids = sel.map((e) => e.id);
    const preview = await getBulkFeedbackPreview(ids, analyst.id);
    expect(preview).toMatchObject({ count: 4, missing: [] });
    expect(Object.values(preview.versions)).toEqual(['none', 'none', 'none', 'none']);

    // Another analyst labels one of them while the confirmation is open.
    const other = await submitFeedback(analyst2, firstLabel(sel[2].id, 'NOT_FRAUD'));
    expect(other.ok).toBe(true);

    const input = bulkFeedbackSchema.parse({
      executionIds: ids,
      status: 'FRAUD',
      reason: 'SYNTHETIC_ID_FRAUD',
      note: 'Ring of synthetic IDs',
      versions: preview.versions,
      idempotencyKey: newKey(),
    });
    const r = await submitBulkFeedback(analyst, input);
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (!r.ok) return;
    expect(r.data).toMatchObject({ created: 3, skippedChanged: [sel[2].id], skippedSame: [], duplicate: false });
    expect(r.message).toMatch(/3 stored and being sent; 1 skipped because their feedback changed/);

    // Pressed twice: nothing new.
    const again = await submitBulkFeedback(analyst, input);
    expect(again.ok && again.data).toMatchObject({ batchId: r.data.batchId, duplicate: true });
    expect(await footprint(ids)).toMatchObject({ submissions: 4, jobs: 4 });

    const before = await getBatchProgress(r.data.batchId);
    expect(before).toMatchObject({ total: 3, byState: { pending: 3 }, settled: 0 });
    await withWorkers(() =>
      until(
        () => getBatchProgress(r.data.batchId),
        (p) => p.byState.delivered === 3,
        30_000,
        'batch delivery',
      ),
    );
    for (const e of [sel[0], sel[1], sel[3]]) {
      expect(s.writes.get(e.id)).toBe(1);
      expect(await serviceFeedback(e)).toMatchObject({ status: 'FRAUD', reason: 'SYNTHETIC_ID_FRAUD' });
    }
    const [a] = await db()
      .select()
      .from(auditLog)
      .where(sql`${auditLog.action} = 'feedback.submit_bulk' and ${auditLog.targetId} = ${r.data.batchId}`);
    expect(a.details).toMatchObject({ created: 3, skippedChanged: 1 });
  });

  it('replaces labels of the selection that were not sent yet, each by its own new submission', async () => {
    const [a, b] = [ex[12], ex[13]];
    const old = await Promise.all(
      [a, b].map((e) =>
        submitFeedback(analyst2, { executionId: e.id, status: 'NA', version: 'none', idempotencyKey: newKey() }),
      ),
    );
    const oldIds = old.map((o) => (o.ok ? o.data.submissionId : ''));
    const preview = await getBulkFeedbackPreview([a.id, b.id], analyst.id);
    expect(preview.versions).toEqual({ [a.id]: oldIds[0], [b.id]: oldIds[1] });
    const r = await submitBulkFeedback(
      manager,
      bulkFeedbackSchema.parse({
        executionIds: [a.id, b.id],
        status: 'NOT_FRAUD',
        versions: preview.versions,
        idempotencyKey: newKey(),
      }),
    );
    expect(r.ok && r.data.created).toBe(2);
    for (const [i, e] of [a, b].entries()) {
      const replaced = await stateOf(oldIds[i]);
      const panel = await getFeedbackPanel(e.id, analyst.id);
      expect(replaced).toMatchObject({ state: 'superseded', supersededBy: panel!.latest!.id });
      expect(panel!.latest).toMatchObject({ status: 'NOT_FRAUD', batchId: r.ok ? r.data.batchId : '' });
    }
  });

  it('refuses a selection with an execution that is not in the cache, writing nothing', async () => {
    const ids = [ex[11].id, '7d1e7a52-3f7c-4b55-9f3e-000000000000'];
    expect(await footprint([ex[11].id])).toEqual({ submissions: 0, events: 0, audits: 0, jobs: 0 });
    const r = await submitBulkFeedback(
      analyst,
      bulkFeedbackSchema.parse({
        executionIds: ids,
        status: 'NOT_FRAUD',
        versions: { [ids[0]]: 'none', [ids[1]]: 'none' },
        idempotencyKey: newKey(),
      }),
    );
    expect(r).toMatchObject({ ok: false, code: 'INVALID' });
    expect(await footprint([ex[11].id])).toEqual({ submissions: 0, events: 0, audits: 0, jobs: 0 });
  });

  it('validates like the single form', () => {
    const id = ex[11].id;
    const base = { executionIds: [id], versions: { [id]: 'none' }, idempotencyKey: newKey() };
    expect(bulkFeedbackSchema.safeParse({ ...base, status: 'FRAUD' }).success).toBe(false);
    expect(bulkFeedbackSchema.safeParse({ ...base, status: 'NOT_FRAUD', note: 'x'.repeat(2001) }).success).toBe(false);
    expect(bulkFeedbackSchema.safeParse({ ...base, status: 'NOT_FRAUD', versions: {} }).success).toBe(false);
    expect(bulkFeedbackSchema.safeParse({ ...base, status: 'NOT_FRAUD', executionIds: [id, id] }).success).toBe(false);
    expect(bulkFeedbackSchema.safeParse({ ...base, status: 'NOT_FRAUD' }).success).toBe(true);
  });
});

describe('blast radius', () => {
  it('lists the other cached executions with the same identity document, marking the later ones', async () => {
    const doc = { firstName: 'Blast', lastName: `Radius${Date.now()}`, documentNumber: `BR${Date.now()}` };
    const other = { firstName: 'Other', lastName: `Person${Date.now()}`, documentNumber: `OP${Date.now()}` };
    const mk = (createdAt: string, who: typeof doc) => buildExecution({ createdAt, ...who });
    const a1 = mk('2026-09-01T10:00:00.000Z', doc);
    const a2 = mk('2026-08-01T10:00:00.000Z', doc);
    const a3 = mk('2026-09-05T10:00:00.000Z', doc);
    const b1 = mk('2026-09-02T10:00:00.000Z', other);
    const b2 = mk('2026-09-03T10:00:00.000Z', other);
    for (const x of [a1, a2, a3, b1, b2])
      await ingestExecution(db(), { result: x.result, steps: x.steps, rules: x.rules, fetchedAt: new Date() });

    const one = await getBlastRadius([a1.id], analyst.id);
    expect(one).toMatchObject({ documentKnown: true, total: 2, later: 1 });
    expect(one.items.map((i) => [i.id, i.later])).toEqual([
      [a3.id, true],
      [a2.id, false],
    ]);
    const combined = await getBlastRadius([a1.id, b1.id], analyst.id);
    expect(combined).toMatchObject({ total: 3, later: 2, documents: 2, withoutDocument: 0 });
    expect(new Set(combined.items.map((i) => i.id))).toEqual(new Set([a2.id, a3.id, b2.id]));

    // Retention purged the document: the panel says so instead of claiming "nobody else".
    await db().update(executions).set({ documentKey: null }).where(eq(executions.id, b2.id));
    expect(await getBlastRadius([b2.id], analyst.id)).toMatchObject({
      documentKnown: false,
      total: 0,
      withoutDocument: 1,
    });
  });
});

describe('sync page figures', () => {
  it('counts what is pending, failed and waiting, and names the latest failures with the service’s detail', async () => {
    const pending = await submitFeedback(analyst, firstLabel(ex[14].id, 'NA'));
    const failing = await submitFeedback(analyst, firstLabel(ex[15].id, 'NOT_FRAUD'));
    const failingId = failing.ok ? failing.data.submissionId : '';
    const refuse = () => ({
      setFeedback: async () => {
        throw new IdvHttpError({
          operation: 'R11 setFeedback',
          method: 'PUT',
          url: 'x',
          status: 404,
          body: { title: 'Not Found', status: 404, detail: 'The execution data was deleted; feedback cannot be set' },
          attempts: 1,
        });
      },
    });
    expect(await deliverFeedback(db(), failingId, { idv: refuse as never, log: () => undefined })).toBe('failed');
    const stats = await getFeedbackDeliveryStats();
    expect(pending.ok).toBe(true);
    expect(stats.awaitingApproval).toBeGreaterThanOrEqual(2);
    expect(stats.pending).toBeGreaterThanOrEqual(1);
    expect(stats.failed).toBeGreaterThanOrEqual(1);
    expect(stats.oldestPendingAt).toBeTruthy();
    expect(stats.deliveredLast24h).toBeGreaterThanOrEqual(4);
    expect(stats.lastFailures.find((f) => f.submissionId === failingId)).toMatchObject({
      executionId: ex[15].id,
      status: 'NOT_FRAUD',
      error: { status: 404, detail: 'The execution data was deleted; feedback cannot be set', permanent: true },
    });
  });
});
