import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiDocument } from '@/lib/api/openapi';
import { createApiKey } from '@/lib/api/keys';
import { resolveCase } from '@/lib/cases/resolve';
import { db } from '@/lib/db/client';
import { caseEvents, cases, executions, users } from '@/lib/db/schema';
import { startApiServer, type ApiServer } from '../support/api-server';
import { ingestGenerated } from '../support/generated';
import { responseChecker } from '../support/openapi';
import { until } from '../support/wait';

/**
 * The read API's case feed over real HTTP: every case ingest opens, a resolution with its
 * outcome, reason, time and actor (and never its comment or a personal value), a withdrawal, and
 * two transactions committing out of order, where a feed paged by time or by sequence alone
 * would skip the one that commits last. Every body is checked against the OpenAPI document.
 */
// The default queues open a case for about 40 % of generated executions (warnings, rejections,
// high-risk passes) and the test needs 4: of 40, fewer than 4 came about once in 200,000 runs;
// of 80, never in practice (below 1e-13).
const N = 80;
const seed = `api-cases-${randomUUID().slice(0, 8)}`;
const analyst = { id: randomUUID(), email: `cases-feed-${Date.now()}@example.test`, role: 'analyst' as const };
const COMMENT = `Comment that stays inside ${randomUUID()}`;
let server: ApiServer;
let key: string;
let ids: string[] = [];
let mine: Array<{ id: string; executionId: string; queueId: string }> = [];
const checker = responseChecker(apiDocument());

interface Change {
  caseId: string;
  executionId: string;
  change: string;
  changedAt: string;
  actorId: string | null;
  case: {
    state: string | null;
    queue: { id: string; name: string | null } | null;
    outcome: string | null;
    reason: string | null;
    resolvedAt: string | null;
    resolvedBy: string | null;
  };
}
interface Page {
  data: Change[];
  next: string | null;
  hasMore: boolean;
}

async function page(cursor: string | null, limit = 100): Promise<Page> {
  const q = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
  const res = await fetch(`${server.url}/cases/changes?${q}`, { headers: { Authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return (await checker.check('/cases/changes', 'get', res)) as Page;
}

/** Pages until `hasMore` is false; returns this file's changes and the cursor to keep. */
async function readAll(cursor: string | null, limit = 100) {
  const out: Change[] = [];
  const caseIds = new Set(mine.map((c) => c.id));
  for (;;) {
    const p = await page(cursor, limit);
    out.push(...p.data.filter((d) => caseIds.has(d.caseId)));
    cursor = p.next;
    if (!p.hasMore) return { changes: out, next: cursor };
  }
}

beforeAll(async () => {
  process.env.API_RATE_LIMIT_PER_MINUTE = '10000';
  await db().insert(users).values({ id: analyst.id, email: analyst.email, name: 'Feed analyst', role: 'analyst' });
  key = (await createApiKey({ name: 'case feed', days: 30 }, analyst)).key;
  ({ ids } = await ingestGenerated(seed, N, 20));
  mine = await db()
    .select({ id: cases.id, executionId: cases.executionId, queueId: cases.queueId })
    .from(cases)
    .where(inArray(cases.executionId, ids))
    .orderBy(cases.id);
  server = await startApiServer();
}, 120_000);

afterAll(async () => {
  await server?.close();
  delete process.env.API_RATE_LIMIT_PER_MINUTE;
});

describe('the case feed', () => {
  it('lists every case ingest opened, then a resolution with outcome, reason, time and actor, then a withdrawal', async () => {
    expect(mine.length).toBeGreaterThanOrEqual(4);
    const first = await readAll(null, 7);
    expect(first.changes.map((c) => c.caseId).sort()).toEqual(mine.map((c) => c.id).sort());
    for (const c of first.changes) {
      expect(c).toMatchObject({ change: 'created', actorId: null, case: { state: 'open', outcome: null } });
      expect(c.case.queue?.name).toBeTruthy();
    }

    // Nothing new: the kept cursor gives an empty page and hands itself back.
    expect(await readAll(first.next)).toEqual({ changes: [], next: first.next });

    const target = mine[0];
    const [{ version }] = await db().select({ version: cases.version }).from(cases).where(eq(cases.id, target.id));
    const done = await resolveCase(analyst, {
      caseId: target.id,
      version,
      outcome: 'decline',
      reason: 'DOCUMENT_FORGED',
      comment: COMMENT,
    });
    expect(done.ok).toBe(true);
    const after = await readAll(first.next);
    expect(after.changes).toHaveLength(1);
    const [resolved] = after.changes;
    expect(resolved).toMatchObject({
      caseId: target.id,
      executionId: target.executionId,
      change: 'resolved',
      actorId: analyst.id,
      case: { state: 'resolved', outcome: 'decline', reason: 'DOCUMENT_FORGED', resolvedBy: analyst.id },
    });
    expect(Date.parse(resolved.case.resolvedAt!)).toBeGreaterThan(Date.now() - 60_000);

    // What never leaves: the comment, e-mail addresses, and every personal value of the executions.
    const pages = JSON.stringify(first.changes) + JSON.stringify(after.changes);
    expect(pages).not.toContain(COMMENT);
    expect(pages).not.toContain(analyst.email);
    const people = await db()
      .select({ f: executions.firstName, l: executions.lastName, d: executions.documentNumber })
      .from(executions)
      .where(inArray(executions.id, ids));
    for (const p of people) for (const v of [p.f, p.l, p.d]) if (v && v.length > 2) expect(pages).not.toContain(v);

    // A case whose execution no longer matches any queue is deleted; the feed says so.
    await db().delete(cases).where(eq(cases.id, mine[1].id));
    const gone = await readAll(after.next);
    expect(gone.changes).toMatchObject([
      { caseId: mine[1].id, change: 'withdrawn', actorId: null, case: { state: null, outcome: null } },
    ]);
  });

  it.skipIf(inject('databaseKind') === 'pglite')(
    'loses nothing when two transactions commit out of order',
    async () => {
      const { next: start } = await readAll(null);
      const [x, y] = mine.slice(2, 4);
      const event = (c: typeof x) => ({
        caseId: c.id,
        executionId: c.executionId,
        type: 'requeued' as const,
        queueId: c.queueId,
      });
      // A writes first (so its sequence number and transaction id are the lower ones) and stays open.
      const a = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await a.connect();
      try {
        await a.query('begin');
        await a.query(
          `insert into case_events (case_id, execution_id, type, queue_id) values ($1, $2, 'requeued', $3)`,
          [x.id, x.executionId, x.queueId],
        );
        // B writes after A and commits first.
        await db().transaction((tx) => tx.insert(caseEvents).values(event(y)));
        // A reader paging by sequence alone would now see B, step past A's number, and never see A.
        const early = await readAll(start);
        expect(early.changes).toEqual([]);
        expect(early.next).toBe(start);
        await a.query('commit');
      } finally {
        await a.end();
      }
      const late = await until(
        () => readAll(start),
        (r) => r.changes.length >= 2,
        10_000,
        'both changes in the feed',
      );
      expect(late.changes.map((c) => c.caseId)).toEqual([x.id, y.id]);
      expect(late.changes.map((c) => c.change)).toEqual(['requeued', 'requeued']);
      expect((await readAll(late.next)).changes).toEqual([]);
    },
  );

  it('refuses a cursor it did not give out and a bad limit with a 400 naming the parameter, and no key with 401', async () => {
    for (const [q, what] of [
      ['cursor=not-a-cursor', 'cursor'],
      [`cursor=${Buffer.from('{"v":2,"x":"-1","k":"1"}').toString('base64url')}`, 'cursor'],
      [`cursor=${Buffer.from('{"v":2,"x":"99999999999999999999","k":"1"}').toString('base64url')}`, 'cursor'],
      // The executions feed's cursor (a uuid key) is not one of this feed's.
      [`cursor=${Buffer.from(`{"v":2,"x":"5","k":"${randomUUID()}"}`).toString('base64url')}`, 'cursor'],
      ['limit=0', 'limit'],
      ['since=2026-01-01T00:00:00Z', 'since'],
    ]) {
      const res = await fetch(`${server.url}/cases/changes?${q}`, { headers: { Authorization: `Bearer ${key}` } });
      expect(res.status, q).toBe(400);
      const p = (await checker.check('/cases/changes', 'get', res)) as { detail: string };
      expect(p.detail, q).toMatch(new RegExp(`^${what}:`));
    }
    const res = await fetch(`${server.url}/cases/changes`);
    expect(res.status).toBe(401);
    await checker.check('/cases/changes', 'get', res);
  });
});
