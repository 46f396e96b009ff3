/**
 * Acting on a whole ring through the real server actions (session cookie, role check, zod),
 * against a real database and a real simulator over HTTP: labels reach the service once per
 * member, four-eyes holds them, cases open in the Rings queue, a dismissed ring returns when it grows.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db/client';
import { setFourEyes } from '@/lib/feedback/settings';
import { linkHash } from '@/lib/rings/link-keys';
import { replaceLinkKeys } from '@/lib/rings/upkeep';
import {
  createUser,
  newKey,
  serviceFeedback,
  signInAs,
  startFeedbackWorkers,
  startWithUnlabelled,
  stopQueueAndSim,
  until,
  type CachedExecution,
  type Sim,
  type TestUser,
} from '../support/feedback';

vi.mock('next/headers', async () => (await import('../support/next-headers')).nextHeaders);
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const { labelRingAction, openRingCasesAction, dismissRingAction, expandRingAttributeAction } =
  await import('@/lib/actions/rings');
const { previewBulkFeedbackAction, getBatchProgressAction } = await import('@/lib/actions/feedback');

let s: Sim;
let ex: CachedExecution[];
let analyst: TestUser;
let admin: TestUser;

/** Joins `members` into one ring through a shared device, the way ingest would. */
async function ringOf(members: CachedExecution[]): Promise<number> {
  const device = linkHash('device', `ring-test-${randomUUID()}`);
  await db().transaction((tx) =>
    replaceLinkKeys(
      tx,
      members.map((m) => m.id),
      members.map((m) => ({ executionId: m.id, kind: 'device', keyHash: device, evidence: 'test' })),
    ),
  );
  const r = await db().execute<{ ring_id: string }>(
    sql`select distinct ring_id from ring_members where execution_id in ${members.map((m) => m.id)}`,
  );
  expect(r.rows).toHaveLength(1);
  return Number(r.rows[0].ring_id);
}

async function label(ringId: number, members: CachedExecution[]) {
  const preview = await previewBulkFeedbackAction({ executionIds: members.map((m) => m.id) });
  expect(preview.ok, JSON.stringify(preview)).toBe(true);
  if (!preview.ok) throw new Error(preview.error);
  return labelRingAction({
    ringId,
    reason: 'IDENTITY_FRAUD',
    note: 'Shared device across sign-ups',
    versions: preview.data.versions,
    idempotencyKey: newKey(),
  });
}

beforeAll(async () => {
  ({ s, ex } = await startWithUnlabelled('ring-actions', 12));
  analyst = await createUser('analyst');
  admin = await createUser('admin');
  await setFourEyes(admin, false);
});
afterAll(async () => {
  await setFourEyes(admin, false);
  await stopQueueAndSim(s);
});

describe('acting on a ring', () => {
  it('labels every member FRAUD through the feedback pipeline: one write per member at the service', async () => {
    const members = ex.slice(0, 4);
    const ringId = await ringOf(members);
    await signInAs(analyst);
    expect(await labelRingAction({ ringId, reason: 'NA', versions: {}, idempotencyKey: newKey() })).toMatchObject({
      ok: false,
      fieldErrors: { reason: ['A reason is required for Fraud.'] },
    });
    const r = await label(ringId, members);
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (!r.ok) return;
    expect(r.data.created).toBe(4);
    // Before delivery: the refresh after it re-ingests the members with the service's own values.
    const [ring] = (await db().execute<{ status: string }>(sql`select status from rings where id = ${ringId}`)).rows;
    expect(ring.status).toBe('labelled');
    // Progress, as the dialog polls it: four submissions of the batch, none settled yet.
    const progress = async () => {
      const p = await getBatchProgressAction({ batchId: r.data.batchId });
      if (!p.ok) throw new Error(p.error);
      return p.data;
    };
    expect(await progress()).toMatchObject({ total: 4, settled: 0 });
    const stopWorkers = await startFeedbackWorkers();
    try {
      await until(
        () => members.map((m) => s.writes.get(m.id) ?? 0),
        (w) => w.every((n) => n >= 1),
        30_000,
        'every member delivered',
      );
      await until(progress, (p) => p.settled === 4, 30_000, 'the batch settled');
      expect((await progress()).byState).toEqual({ delivered: 4 });
      for (const m of members) {
        expect(s.writes.get(m.id)).toBe(1);
        expect(await serviceFeedback(m)).toMatchObject({ status: 'FRAUD', reason: 'IDENTITY_FRAUD' });
      }
    } finally {
      await stopWorkers();
    }
    const audits = await db().execute<{ details: Record<string, unknown> }>(
      sql`select details from audit_log where action = 'ring.label' and target_id = ${String(ringId)}`,
    );
    expect(audits.rows).toHaveLength(1);
    expect(audits.rows[0].details).toMatchObject({ members: 4, batchId: r.data.batchId });
  });

  it('with four-eyes on, the labels wait for approval and nothing reaches the service', async () => {
    const members = ex.slice(4, 6);
    const ringId = await ringOf(members);
    await setFourEyes(admin, true);
    try {
      await signInAs(analyst);
      const r = await label(ringId, members);
      expect(r.ok, JSON.stringify(r)).toBe(true);
      if (!r.ok) return;
      expect(r.data.awaitingApproval).toBe(2);
      for (const m of members) expect(s.writes.get(m.id)).toBeUndefined();
      const rows = await db().execute<{ state: string }>(
        sql`select state from feedback_submissions where execution_id in ${members.map((m) => m.id)}`,
      );
      expect(rows.rows.map((x) => x.state)).toEqual(['awaiting_approval', 'awaiting_approval']);
    } finally {
      await setFourEyes(admin, false);
    }
  });

  it('opens cases for unreviewed members in the Rings queue once, and a dismissed ring returns when it grows', async () => {
    const members = ex.slice(6, 8);
    const ringId = await ringOf(members);
    await signInAs(analyst);
    const first = await openRingCasesAction({ ringId });
    expect(first).toMatchObject({ ok: true, data: { opened: 2 } });
    expect(await openRingCasesAction({ ringId })).toMatchObject({ ok: true, data: { opened: 0 } });
    const q = await db().execute<{ name: string }>(sql`
      select q.name from cases c join case_queues q on q.id = c.queue_id where c.execution_id in ${members.map((m) => m.id)}`);
    expect(q.rows.map((x) => x.name)).toEqual(['Rings', 'Rings']);

    expect(await dismissRingAction({ ringId, reason: ' ' })).toMatchObject({
      ok: false,
      fieldErrors: { reason: expect.any(Array) },
    });
    expect(await dismissRingAction({ ringId, reason: 'Family sharing one tablet' })).toMatchObject({
      ok: true,
      data: { size: 2 },
    });
    const status = async () =>
      (await db().execute<{ status: string }>(sql`select status from rings where id = ${ringId}`)).rows[0]?.status;
    expect(await status()).toBe('dismissed');
    // A third execution on the same device: the ring grows past its size at dismissal and reopens.
    const device = (
      await db().execute<{ key_hash: string }>(
        sql`select key_hash from link_keys where execution_id = ${members[0].id} and kind = 'device'`,
      )
    ).rows[0].key_hash;
    await db().transaction((tx) =>
      replaceLinkKeys(tx, [ex[8].id], [{ executionId: ex[8].id, kind: 'device', keyHash: device, evidence: 'test' }]),
    );
    expect(await status()).toBe('open');
    const audits = await db().execute<{ action: string }>(
      sql`select action from audit_log where target_type = 'ring' and target_id = ${String(ringId)} order by id`,
    );
    expect(audits.rows.map((a) => a.action)).toEqual(['ring.open_cases', 'ring.open_cases', 'ring.dismiss']);
  });

  it("expands a ring's weak link into the other executions holding it, ids only, and only from its own ring", async () => {
    const members = ex.slice(6, 8);
    const ringId = await ringOf(members);
    const others = ex.slice(8, 10);
    // A phone held by one member and two executions outside, counted as weak (past the cut-off).
    const phone = linkHash('phone', `+49301${randomUUID().replace(/\D/g, '').slice(0, 8)}`);
    await db().execute(sql`insert into link_keys (execution_id, kind, key_hash, evidence)
      select x, 'phone', ${phone}, 'test' from unnest(${sql.param([members[0].id, ...others.map((o) => o.id)])}::uuid[]) as x`);
    await db().execute(sql`insert into link_values (kind, key_hash, executions) values ('phone', ${phone}, 500)`);
    await signInAs(analyst);
    const r = await expandRingAttributeAction({ ringId, attributeId: `phone:${phone.slice(0, 10)}` });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (!r.ok) return;
    expect(r.data.executions).toBe(500);
    expect(r.data.holders.map((h) => h.id).sort()).toEqual(others.map((o) => o.id).sort());
    expect(Object.keys(r.data.holders[0]).sort()).toEqual(['decisionType', 'feedbackStatus', 'id', 'ringId']);
    const audits = await db().execute<{ details: Record<string, unknown> }>(
      sql`select details from audit_log where action = 'ring.expand' and target_id = ${String(ringId)}`,
    );
    expect(audits.rows[0]?.details).toMatchObject({ shown: 2, executions: 500 });
    // The same value asked through another ring, or a malformed id: a clear refusal, nothing read.
    const other = await ringOf(ex.slice(10, 12));
    expect(
      await expandRingAttributeAction({ ringId: other, attributeId: `phone:${phone.slice(0, 10)}` }),
    ).toMatchObject({ ok: false, code: 'INVALID' });
    expect(await expandRingAttributeAction({ ringId, attributeId: "phone:' or 1=1 --" })).toMatchObject({
      ok: false,
      code: 'INVALID',
      fieldErrors: { attributeId: ['Unknown attribute.'] },
    });
  });

  it('refuses an unknown ring with a clear error, not a 500', async () => {
    await signInAs(analyst);
    expect(await openRingCasesAction({ ringId: 999_999_999 })).toMatchObject({ ok: false, code: 'INVALID' });
    expect(await dismissRingAction({ ringId: 'x' as unknown as number, reason: 'abc' })).toMatchObject({
      ok: false,
      code: 'INVALID',
    });
  });
});
