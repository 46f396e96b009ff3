/**
 * The executions list sorted by due time (the SLA left), on a real database: the order is the
 * cases' due times, ties broken by id, executions without an unresolved case last; keyset pages
 * forward and back give the same order as one read. Personal saved views belong to their owner.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db/client';
import { caseQueues, cases } from '@/lib/db/schema';
import { deleteView, listSavedViews, saveView } from '@/lib/executions/saved-views';
import { listExecutions } from '@/lib/executions/queries';
import { getBoss, stopBoss } from '@/lib/jobs/boss';
import { parseListParams } from '@/lib/executions/list-params';
import { ingestMany } from '@/lib/sync/ingest';
import { buildExecution } from '../support/fixtures/execution';
import { createUser } from '../support/feedback';

const TAG = `views-${randomUUID().slice(0, 8)}`;
let user: Awaited<ReturnType<typeof createUser>>;
/** The expected order ascending: by due time, then id; the case-less ones last by id. */
let expected: string[] = [];

beforeAll(async () => {
  await getBoss();
  user = await createUser('analyst');
  await db()
    .insert(caseQueues)
    .values({ name: `Views ${TAG}`, priority: -1000, slaHours: 8, definition: `criteria=${TAG}&decision=WARNING` });
  const withCase = Array.from({ length: 26 }, (_, i) => buildExecution({ decision: 'WARNING', score: i }));
  const without = Array.from({ length: 4 }, (_, i) => buildExecution({ decision: 'PASSED', score: i }));
  for (const x of [...withCase, ...without])
    (x.result as { workflow: { reportingCriteria: string } }).workflow.reportingCriteria = TAG;
  await ingestMany(
    db(),
    [...withCase, ...without].map((x) => ({ result: x.result, steps: x.steps, rules: x.rules, fetchedAt: new Date() })),
  );
  // Due times out of creation order, with pairs that tie (broken by id).
  const dues = withCase.map((x, i) => ({ id: x.id, minutes: ((i * 7) % 13) * 10 - 30 }));
  for (const d of dues)
    await db()
      .update(cases)
      .set({ dueAt: sql`date_trunc('minute', now()) + make_interval(mins => ${d.minutes})` })
      .where(eq(cases.executionId, d.id));
  expected = [
    ...[...dues].sort((a, b) => a.minutes - b.minutes || a.id.localeCompare(b.id)).map((d) => d.id),
    ...without.map((x) => x.id).sort(),
  ];
});
afterAll(async () => {
  await stopBoss();
});

describe('sort by due', () => {
  it('pages forward and back in due order, ties by id, executions without a case last', async () => {
    const p = (extra: Record<string, string> = {}) =>
      parseListParams({ criteria: TAG, sort: 'due', dir: 'asc', size: '25', ...extra });
    const first = await listExecutions(p(), user.id);
    expect(first.rows).toHaveLength(25);
    expect(first.next).not.toBeNull();
    const second = await listExecutions(p({ after: first.next! }), user.id);
    expect(second.rows).toHaveLength(5);
    expect([...first.rows, ...second.rows].map((r) => r.id)).toEqual(expected);
    // Back from the second page: the first page again.
    const back = await listExecutions(p({ before: second.prev! }), user.id);
    expect(back.rows.map((r) => r.id)).toEqual(expected.slice(0, 25));
    // Descending: latest due first, and the case-less ones still last.
    const desc = await listExecutions(p({ dir: 'desc' }), user.id);
    const descNext = await listExecutions(p({ dir: 'desc', after: desc.next! }), user.id);
    const withCaseDesc = expected.slice(0, 26).reverse();
    expect(
      [...desc.rows, ...descNext.rows]
        .map((r) => r.id)
        .slice(0, 26)
        .map((id) => withCaseDesc.indexOf(id) >= 0),
    ).toEqual(Array(26).fill(true));
    expect(
      [...desc.rows, ...descNext.rows]
        .map((r) => r.id)
        .slice(26)
        .sort(),
    ).toEqual(expected.slice(26));
  });
});

describe('personal saved views', () => {
  it('keep a canonical query, refuse a second view of the same name, and belong to their owner', async () => {
    const other = await createUser('analyst', 'other');
    const r = await saveView(user.id, { name: 'Mine by due', query: `assignee=me&sort=due&dir=asc&after=x~y&junk=1` });
    expect(r.ok).toBe(true);
    const [v] = await listSavedViews(user.id);
    expect(v.query).toBe('assignee=me&sort=due&dir=asc');
    expect(await saveView(user.id, { name: 'mine BY due', query: '' })).toMatchObject({ ok: false });
    expect(await listSavedViews(other.id)).toEqual([]);
    expect(await deleteView(other.id, v.id)).toBe(false);
    expect(await deleteView(user.id, v.id)).toBe(true);
  });
});
