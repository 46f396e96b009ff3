/**
 * Feedback submission through the real server actions (session cookie, role check, zod, one
 * transaction), against a real database and a real simulator over HTTP.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db/client';
import { auditLog, executions, feedbackEvents, feedbackSubmissions } from '@/lib/db/schema';
import { stopBoss } from '@/lib/jobs/boss';
import {
  createUser,
  firstLabel,
  footprint,
  newKey,
  serviceFeedback,
  sessionCookieFor,
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

// The actions read the session cookie through next/headers; here it comes from `cookie.value`,
// or, for calls made at the same instant as different users, from the async context of `asUser`.
const cookie = vi.hoisted(() => ({
  value: '' as string,
  als: null as null | { getStore(): string | undefined; run<T>(v: string, fn: () => T): T },
}));
vi.mock('next/headers', async () => {
  const { AsyncLocalStorage } = await import('node:async_hooks');
  cookie.als = new AsyncLocalStorage<string>();
  return {
    cookies: async () => ({
      get: (name: string) => {
        const value = cookie.als?.getStore() ?? cookie.value;
        return name === 'next-auth.session-token' && value ? { name, value } : undefined;
      },
    }),
    headers: async () => new Headers({ 'x-forwarded-for': '127.0.0.1' }),
  };
});
const asUser = <T>(value: string, fn: () => Promise<T>) => cookie.als!.run(value, fn);
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const { submitFeedbackAction, retryFeedbackAction, getFeedbackPanelAction } = await import('@/lib/actions/feedback');
const { approveFeedbackAction } = await import('@/lib/actions/approvals');
const { setFourEyesAction } = await import('@/lib/actions/settings');

let s: Sim;
let ex: CachedExecution[];
let analyst: TestUser;
let analyst2: TestUser;
const as = async (u: { id: string }) => {
  cookie.value = (await sessionCookieFor(u)).value;
};
const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

beforeAll(async () => {
  ({ s, ex } = await startWithUnlabelled('feedback-submit', 12));
  analyst = await createUser('analyst');
  analyst2 = await createUser('analyst', 'analyst2');
});
afterAll(() => stopQueueAndSim(s));

describe('submitting feedback', () => {
  it('stores FRAUD with its job, event and audit entry in one go, then the worker delivers it and the cache is refreshed', async () => {
    const e = ex[0];
    await as(analyst);
    const r = await submitFeedbackAction(
      form({
        executionId: e.id,
        status: 'FRAUD',
        reason: 'IDENTITY_FRAUD',
        note: 'Selfie is a screen photo',
        version: 'none',
        idempotencyKey: newKey(),
      }),
    );
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (!r.ok) return;
    expect(r.data.state).toBe('pending');
    const sub = await stateOf(r.data.submissionId);
    expect(sub).toMatchObject({
      status: 'FRAUD',
      reason: 'IDENTITY_FRAUD',
      note: 'Selfie is a screen photo',
      state: 'pending',
      submittedBy: analyst.id,
      baseSubmissionId: null,
    });
    expect(await footprint([e.id])).toEqual({ submissions: 1, events: 1, audits: 1, jobs: 1 });
    const [row] = await db()
      .select({ delivery: executions.feedbackDelivery })
      .from(executions)
      .where(eq(executions.id, e.id));
    expect(row.delivery).toBe('pending');
    expect(s.writes.get(e.id)).toBeUndefined();

    const stopWorkers = await startFeedbackWorkers();
    try {
      const done = await untilDelivered(r.data.submissionId);
      expect(done.deliveredAt).toBeTruthy();
      expect(done.attempts).toBe(1);
      expect(await serviceFeedback(e)).toMatchObject({ status: 'FRAUD', reason: 'IDENTITY_FRAUD' });
      expect(s.writes.get(e.id)).toBe(1);
      // "then refreshes the execution from the service": the cache now carries the service's own record.
      const refreshed = await until(
        async () => (await db().select().from(executions).where(eq(executions.id, e.id)))[0],
        (x) => x.feedbackStatus === 'FRAUD',
        10_000,
        'refresh',
      );
      expect(refreshed).toMatchObject({
        feedbackStatus: 'FRAUD',
        feedbackReason: 'IDENTITY_FRAUD',
        feedbackDelivery: 'delivered',
      });
      expect(refreshed.feedbackProvidedAt).toBeTruthy();
      const kinds = await until(
        async () =>
          (
            await db()
              .select({ kind: feedbackEvents.kind })
              .from(feedbackEvents)
              .where(eq(feedbackEvents.submissionId, r.data.submissionId))
              .orderBy(feedbackEvents.id)
          ).map((k) => k.kind),
        (k) => k.includes('refreshed'),
        10_000,
        'refresh event',
      );
      expect(kinds).toEqual(['submitted', 'delivered', 'refreshed']);
      const panel = await getFeedbackPanelAction({ executionId: e.id });
      expect(panel.ok && panel.data.latest?.state).toBe('delivered');
      expect(panel.ok && panel.data.version).toBe(r.data.submissionId);
    } finally {
      await stopWorkers();
    }
  });

  it('the first submission of a process starts the job queue before its transaction (the embedded database would wait for ever)', async () => {
    await stopBoss();
    await as(analyst);
    const r = await submitFeedbackAction(
      form({ executionId: ex[6].id, status: 'NOT_FRAUD', reason: '', version: 'none', idempotencyKey: newKey() }),
    );
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(await footprint([ex[6].id])).toMatchObject({ submissions: 1, jobs: 1 });
  }, 15_000);

  it.each([
    ['an unknown status', { status: 'SUSPICIOUS', reason: 'IDENTITY_FRAUD' }, 'status'],
    ['an unknown reason', { status: 'FRAUD', reason: 'BAD_VIBES' }, 'reason'],
    ['FRAUD without a reason', { status: 'FRAUD', reason: '' }, 'reason'],
    ['FRAUD with reason NA', { status: 'FRAUD', reason: 'NA' }, 'reason'],
    ['a note of 100 kB', { status: 'NOT_FRAUD', reason: '', note: 'x'.repeat(100_000) }, 'note'],
    ['an execution id that is not a UUID', { status: 'NOT_FRAUD', executionId: "1' or '1'='1" }, 'executionId'],
    [
      'an execution id that is not in the cache',
      { status: 'NOT_FRAUD', executionId: '7d1e7a52-3f7c-4b55-9f3e-000000000000' },
      'executionId',
    ],
    ['a made-up version', { status: 'NOT_FRAUD', version: 'latest' }, 'version'],
  ])('refuses %s with a form error and writes nothing', async (_what, fields, field) => {
    const e = ex[1];
    await as(analyst);
    const target = (fields as { executionId?: string }).executionId ?? e.id;
    const before = await footprint([e.id, ...(/^[0-9a-f-]{36}$/.test(target) ? [target] : [])]);
    const r = await submitFeedbackAction(
      form({ executionId: e.id, version: 'none', idempotencyKey: newKey(), ...fields }),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe('INVALID');
    expect(Object.keys(r.fieldErrors ?? {})).toContain(field);
    expect(await footprint([e.id, ...(/^[0-9a-f-]{36}$/.test(target) ? [target] : [])])).toEqual(before);
  });

  it('a double click (same idempotency key, even at the same instant) stores and queues one submission', async () => {
    const e = ex[2];
    await as(analyst);
    const key = newKey();
    const f = () => form({ executionId: e.id, status: 'NOT_FRAUD', reason: '', version: 'none', idempotencyKey: key });
    const [a, b] = await Promise.all([submitFeedbackAction(f()), submitFeedbackAction(f())]);
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(a.data.submissionId).toBe(b.data.submissionId);
    expect([a.data.duplicate, b.data.duplicate].sort()).toEqual([false, true]);
    expect(await footprint([e.id])).toEqual({ submissions: 1, events: 1, audits: 1, jobs: 1 });
  });

  it('two analysts labelling the same execution at once: one wins, the other is told it changed (nothing half-written)', async () => {
    const e = ex[3];
    const [ca, cb] = [await sessionCookieFor(analyst), await sessionCookieFor(analyst2)];
    const first = asUser(ca.value, () =>
      submitFeedbackAction(
        form({
          executionId: e.id,
          status: 'FRAUD',
          reason: 'SYNTHETIC_ID_FRAUD',
          version: 'none',
          idempotencyKey: newKey(),
        }),
      ),
    );
    const second = asUser(cb.value, () =>
      submitFeedbackAction(
        form({ executionId: e.id, status: 'NOT_FRAUD', reason: '', version: 'none', idempotencyKey: newKey() }),
      ),
    );
    const results = await Promise.all([first, second]);
    const won = results.filter((r) => r.ok);
    const lost = results.filter((r) => !r.ok);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(!lost[0].ok && lost[0].code).toBe('CONFLICT');
    expect(!lost[0].ok && lost[0].error).toMatch(/changed since you opened it/);
    expect(await footprint([e.id])).toMatchObject({ submissions: 1, jobs: 1 });

    // With the version it now shows, the other analyst's change goes through and both stay in history.
    const winnerId = won[0].ok ? won[0].data.submissionId : '';
    const loserIsB = !results[1].ok;
    const loserLabel = loserIsB
      ? { status: 'NOT_FRAUD', reason: '' }
      : { status: 'FRAUD', reason: 'SYNTHETIC_ID_FRAUD' };
    const again = await asUser(loserIsB ? cb.value : ca.value, () =>
      submitFeedbackAction(form({ executionId: e.id, ...loserLabel, version: winnerId, idempotencyKey: newKey() })),
    );
    expect(again.ok, JSON.stringify(again)).toBe(true);
    const rows = await db()
      .select()
      .from(feedbackSubmissions)
      .where(eq(feedbackSubmissions.executionId, e.id))
      .orderBy(feedbackSubmissions.submittedAt);
    expect(rows.map((r) => r.status)).toEqual(loserIsB ? ['FRAUD', 'NOT_FRAUD'] : ['NOT_FRAUD', 'FRAUD']);
    expect(rows.map((r) => r.submittedBy)).toEqual(loserIsB ? [analyst.id, analyst2.id] : [analyst2.id, analyst.id]);
    // The first was not delivered yet, so it is replaced instead of being sent after the second.
    expect(rows[0].state).toBe('superseded');
    expect(rows[0].supersededBy).toBe(rows[1].id);
    expect(rows[1].baseSubmissionId).toBe(rows[0].id);
  });

  it('the same label again from a second analyst is not stored twice', async () => {
    const e = ex[4];
    await as(analyst);
    const a = await submitFeedbackAction(
      form({ executionId: e.id, status: 'FRAUD', reason: 'PHISHING', version: 'none', idempotencyKey: newKey() }),
    );
    await as(analyst2);
    const b = await submitFeedbackAction(
      form({ executionId: e.id, status: 'FRAUD', reason: 'PHISHING', version: 'none', idempotencyKey: newKey() }),
    );
    expect(a.ok && b.ok).toBe(true);
    expect(b.ok && b.data.duplicate).toBe(true);
    expect(b.ok && b.message).toMatch(/already labelled it Fraud · Phishing/);
    expect(await footprint([e.id])).toMatchObject({ submissions: 1 });
  });

  it('history is never overwritten: events are append-only, a submission keeps its label and cannot be deleted', async () => {
    const e = ex[4];
    const [sub] = await db().select().from(feedbackSubmissions).where(eq(feedbackSubmissions.executionId, e.id));
    await expect(
      db().update(feedbackEvents).set({ kind: 'x' }).where(eq(feedbackEvents.submissionId, sub.id)),
    ).rejects.toThrow();
    await expect(db().delete(feedbackEvents).where(eq(feedbackEvents.submissionId, sub.id))).rejects.toThrow();
    await expect(
      db().update(feedbackSubmissions).set({ status: 'NOT_FRAUD' }).where(eq(feedbackSubmissions.id, sub.id)),
    ).rejects.toThrow();
    await expect(db().delete(feedbackSubmissions).where(eq(feedbackSubmissions.id, sub.id))).rejects.toThrow();
    await expect(
      db().execute(sql`update feedback_submissions set note = 'rewritten' where id = ${sub.id}`),
    ).rejects.toThrow();
    expect((await stateOf(sub.id)).status).toBe('FRAUD');
  });
});

describe('who may submit', () => {
  it('an ended session cannot submit, retry or read the panel, even calling the actions directly', async () => {
    const e = ex[5];
    const c = await sessionCookieFor(analyst);
    await c.end();
    cookie.value = c.value;
    const before = await footprint([e.id]);
    const r = await submitFeedbackAction(firstLabel(e.id));
    expect(r).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    expect(await retryFeedbackAction({ submissionId: '7d1e7a52-3f7c-4b55-9f3e-000000000000' })).toMatchObject({
      ok: false,
      code: 'UNAUTHENTICATED',
    });
    expect(await getFeedbackPanelAction({ executionId: e.id })).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    cookie.value = '';
    expect(await submitFeedbackAction(firstLabel(e.id))).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    expect(await footprint([e.id])).toEqual(before);
  });

  it('an analyst cannot approve feedback or switch four-eyes, and the refusal is audited', async () => {
    await as(analyst);
    const before = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(eq(auditLog.action, 'access.denied'));
    expect(await approveFeedbackAction({ submissionId: '7d1e7a52-3f7c-4b55-9f3e-000000000000' })).toMatchObject({
      ok: false,
      code: 'FORBIDDEN',
    });
    expect(await setFourEyesAction({ enabled: 'true' })).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    const after = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(eq(auditLog.action, 'access.denied'));
    expect(after[0].n - before[0].n).toBe(2);
  });
});
