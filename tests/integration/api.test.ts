import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocument } from '@/lib/api/openapi';
import { createApiKey, listApiKeys, revokeApiKey } from '@/lib/api/keys';
import { db } from '@/lib/db/client';
import { apiKeys, auditLog, executions, feedbackSubmissions, users } from '@/lib/db/schema';
import { startApiServer, type ApiServer } from '../support/api-server';
import { ingestGenerated, type GeneratedDoc } from '../support/generated';
import { ingestMany } from '@/lib/sync/ingest';
import { expectValidDocument, responseChecker } from '../support/openapi';

/**
 * The read API over real HTTP: keys, the change feed and its cursor, the masked summary,
 * feedback states, trends, refusals (401, 429, 400, 404), the audit trail, and every response
 * checked against the generated OpenAPI document.
 */
const N = 23;
const seed = `api-${randomUUID().slice(0, 8)}`;
const admin = { id: randomUUID(), email: `api-admin-${Date.now()}@example.test` };
let server: ApiServer;
let key: string;
let keyId: string;
let ids: string[] = [];
let docs: GeneratedDoc[] = [];
let since: string;
const doc = apiDocument();
const checker = responseChecker(doc);

const get = (path: string, k: string | null = key) =>
  fetch(`${server.url}${path}`, { headers: k === null ? {} : { Authorization: `Bearer ${k}` } });

beforeAll(async () => {
  process.env.API_RATE_LIMIT_PER_MINUTE = '1000';
  await db().insert(users).values({ id: admin.id, email: admin.email, name: 'API admin', role: 'admin' });
  const created = await createApiKey({ name: 'integration', days: 30 }, admin);
  key = created.key;
  keyId = created.id;
  since = (
    await db().execute<{ now: string }>(
      sql`select to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as now`,
    )
  ).rows[0].now;
  ({ ids, docs } = await ingestGenerated(seed, N, 20));
  server = await startApiServer();
}, 120_000);

afterAll(async () => {
  await server?.close();
  delete process.env.API_RATE_LIMIT_PER_MINUTE;
});

async function readAll(start: string, limit: number) {
  const seen: string[] = [];
  let next: string | null = null;
  let pages = 0;
  for (;;) {
    const q = next ? `cursor=${encodeURIComponent(next)}` : `since=${encodeURIComponent(start)}`;
    const res = await get(`/executions/changes?${q}&limit=${limit}`);
    expect(res.status).toBe(200);
    const body = (await checker.check('/executions/changes', 'get', res)) as {
      data: Array<{ id: string }>;
      next: string | null;
      hasMore: boolean;
    };
    seen.push(...body.data.map((d) => d.id));
    next = body.next;
    pages++;
    if (!body.hasMore) return { seen, next, pages };
  }
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document, served publicly', async () => {
    await expectValidDocument(doc);
    const res = await get('/openapi.json', null);
    expect(res.status).toBe(200);
    const served = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(served.openapi).toBe('3.1.0');
    expect(Object.keys(served.paths).sort()).toEqual([
      '/cases/changes',
      '/executions/changes',
      '/executions/{id}',
      '/feedback',
      '/trends',
    ]);
  });
});

describe('the change feed', () => {
  it('reads every change since a time, page by page, then pages on from the last cursor', async () => {
    const first = await readAll(since, 5);
    expect(first.pages).toBeGreaterThanOrEqual(Math.ceil(N / 5));
    const mine = first.seen.filter((id) => ids.includes(id));
    expect(new Set(mine).size).toBe(N);
    expect(mine.length).toBe(N);

    // Nothing new: the kept cursor gives an empty page and hands itself back.
    const idle = await get(`/executions/changes?cursor=${encodeURIComponent(first.next!)}`);
    const idleBody = (await checker.check('/executions/changes', 'get', idle)) as { data: unknown[]; next: string };
    expect(idleBody.data.filter((d) => ids.includes((d as { id: string }).id))).toEqual([]);
    expect(idleBody.next).toBe(first.next);

    // A label on one execution moves it to the end of the feed: the kept cursor finds it, once.
    await db()
      .update(executions)
      .set({ feedbackStatus: 'FRAUD', feedbackReason: 'IDENTITY_THEFT', updatedAt: sql`now()` })
      .where(eq(executions.id, ids[3]));
    const res = await get(`/executions/changes?cursor=${encodeURIComponent(first.next!)}&limit=50`);
    const body = (await checker.check('/executions/changes', 'get', res)) as {
      data: Array<{ id: string; feedback: { status: string } }>;
      next: string;
    };
    const changed = body.data.filter((d) => ids.includes(d.id));
    expect(changed.map((d) => d.id)).toEqual([ids[3]]);
    expect(changed[0].feedback.status).toBe('FRAUD');

    // A newer result from the service (the sync's upsert) moves the execution too, once.
    const doc = structuredClone(docs[4]) as GeneratedDoc & { result: { decision?: { details?: { label?: string } } } };
    doc.result.decision = { ...doc.result.decision, details: { label: 'RELABELLED_BY_SERVICE' } };
    await ingestMany(db(), [
      { result: doc.result, steps: doc.steps, rules: doc.rules, fetchedAt: new Date() },
    ] as never);
    const again = await get(`/executions/changes?cursor=${encodeURIComponent(body.next)}&limit=50`);
    const againBody = (await checker.check('/executions/changes', 'get', again)) as {
      data: Array<{ id: string; execution: { decisionLabel: string } }>;
    };
    const moved = againBody.data.filter((d) => ids.includes(d.id));
    expect(moved.map((d) => [d.id, d.execution.decisionLabel])).toEqual([[ids[4], 'RELABELLED_BY_SERVICE']]);
  });

  it('refuses bad input with a 400 problem naming the parameter', async () => {
    for (const [q, what] of [
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=501', 'limit'],
      ['cursor=not-a-cursor', 'cursor'],
      [`cursor=${Buffer.from('{"v":1,"at":"x","id":"y"}').toString('base64url')}`, 'cursor'],
      [`cursor=${Buffer.from('{"v":2,"x":"5","k":"17"}').toString('base64url')}`, 'cursor'],
      ['since=yesterday', 'since'],
      ['colour=blue', 'colour'],
    ]) {
      const res = await get(`/executions/changes?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      const p = (await checker.check('/executions/changes', 'get', res)) as { detail: string };
      expect(p.detail, q).toMatch(new RegExp(`^${what}:`));
    }
  });
});

describe('one execution', () => {
  it('is summarised masked, and the read is audited against the execution', async () => {
    const res = await get(`/executions/${ids[0]}`);
    expect(res.status).toBe(200);
    const body = (await checker.check('/executions/{id}', 'get', res)) as { id: string; name: string | null };
    expect(body.id).toBe(ids[0]);
    const [row] = await db()
      .select({ first: executions.firstName, last: executions.lastName })
      .from(executions)
      .where(eq(executions.id, ids[0]));
    if (row.first) expect(JSON.stringify(body)).not.toContain(row.first);
    const entries = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'api.call'), eq(auditLog.targetType, 'execution'), eq(auditLog.targetId, ids[0])));
    expect(entries.length).toBe(1);
    expect(entries[0].details).toMatchObject({ operation: 'getExecutionSummary', status: 200, keyId });
    expect(entries[0].ip).toBe('127.0.0.1');
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const missing = await get(`/executions/${randomUUID()}`);
    expect(missing.status).toBe(404);
    await checker.check('/executions/{id}', 'get', missing);
    const bad = await get('/executions/12345');
    expect(bad.status).toBe(400);
    expect(((await checker.check('/executions/{id}', 'get', bad)) as { detail: string }).detail).toMatch(/^id:/);
  });
});

describe('feedback states', () => {
  it('lists labels and their delivery states, for one execution too', async () => {
    const [s] = await db()
      .insert(feedbackSubmissions)
      .values({
        executionId: ids[5],
        accountId: randomUUID(),
        status: 'NOT_FRAUD',
        state: 'pending',
        submittedBy: admin.id,
        submittedByEmail: admin.email,
        idempotencyKey: randomUUID(),
        note: 'internal note that never leaves the console',
      })
      .returning({ id: feedbackSubmissions.id });
    const res = await get(`/feedback?executionId=${ids[5]}`);
    expect(res.status).toBe(200);
    const body = (await checker.check('/feedback', 'get', res)) as { data: Array<Record<string, unknown>> };
    expect(body.data.map((d) => d.id)).toEqual([s.id]);
    expect(body.data[0]).toMatchObject({ status: 'NOT_FRAUD', state: 'pending', submittedBy: admin.id });
    expect(JSON.stringify(body)).not.toContain('internal note');
    expect(JSON.stringify(body)).not.toContain(admin.email);
    const bad = await get('/feedback?executionId=nope');
    expect(bad.status).toBe(400);
    await checker.check('/feedback', 'get', bad);
  });
});

describe('trends', () => {
  it('returns the rollup for a range, and refuses a reversed or too long one', async () => {
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 25 * 86_400_000).toISOString().slice(0, 10);
    const res = await get(`/trends?from=${from}&to=${to}&granularity=week`);
    expect(res.status).toBe(200);
    const body = (await checker.check('/trends', 'get', res)) as {
      granularity: string;
      kpis: { current: { executions: number } };
      buckets: Array<{ total: number }>;
    };
    expect(body.granularity).toBe('week');
    expect(body.kpis.current.executions).toBeGreaterThanOrEqual(N);
    expect(body.buckets.reduce((a, b) => a + b.total, 0)).toBe(body.kpis.current.executions);
    for (const q of [
      `from=${to}&to=${from}`,
      'from=2020-01-01&to=2026-01-01',
      `to=${to}`,
      'from=2026-02-30&to=2026-03-01',
    ]) {
      const r = await get(`/trends?${q}`);
      expect(r.status, q).toBe(400);
      await checker.check('/trends', 'get', r);
    }
  });
});

describe('keys', () => {
  it('refuses a missing, wrong, malformed, revoked or expired key with 401', async () => {
    const revoked = await createApiKey({ name: 'to revoke', days: 30 }, admin);
    const expired = await createApiKey({ name: 'to expire', days: 30 }, admin);
    expect((await get('/executions/changes', revoked.key)).status).toBe(200);
    expect(await revokeApiKey(revoked.id, admin)).toBe(true);
    await db()
      .update(apiKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(apiKeys.id, expired.id));
    const cases: Array<[string, string | null]> = [
      ['missing', null],
      ['wrong', `vk_${'A'.repeat(43)}`],
      ['malformed', 'not-a-key'],
      ['almost right', key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A')],
      ['revoked', revoked.key],
      ['expired', expired.key],
    ];
    for (const [what, k] of cases) {
      for (const path of ['/executions/changes', `/executions/${ids[0]}`, '/feedback', '/trends', '/nothing/here']) {
        const res = await get(path, k);
        expect(res.status, `${what} key on ${path}`).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
        if (path !== '/nothing/here') await checker.check(path.replace(ids[0], '{id}'), 'get', res);
      }
    }
  });

  it('answers 404 problem JSON for an unknown path behind a valid key', async () => {
    const res = await get('/nothing/here');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ title: 'Not found', status: 404 });
  });

  it('limits calls per key with 429 and Retry-After, and audits every call', async () => {
    const limited = await createApiKey({ name: 'limited', days: 30 }, admin);
    process.env.API_RATE_LIMIT_PER_MINUTE = '5';
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      // Twelve calls cross at most one minute boundary: at least one window sees its sixth call.
      for (let i = 0; i < 12 && retryAfter === null; i++) {
        const res = await get('/executions/changes?limit=1', limited.key);
        statuses.push(res.status);
        if (res.status === 429) {
          retryAfter = res.headers.get('retry-after');
          await checker.check('/executions/changes', 'get', res);
        } else await res.arrayBuffer();
      }
      expect(statuses).toContain(429);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
      const entries = await db()
        .select({ outcome: auditLog.outcome, details: auditLog.details })
        .from(auditLog)
        .where(and(eq(auditLog.action, 'api.call'), eq(auditLog.targetId, limited.id)));
      expect(entries.length).toBe(statuses.length);
      expect(entries.filter((e) => e.outcome === 'denied').map((e) => e.details)).toEqual([
        { operation: 'listExecutionChanges', status: 429 },
      ]);
    } finally {
      process.env.API_RATE_LIMIT_PER_MINUTE = '1000';
    }
    // The limit is per key: the other key still reads, and the limited one once the limit allows it.
    expect((await get('/executions/changes?limit=1')).status).toBe(200);
  });

  it('shows the last use and stores only a hash', async () => {
    const [view] = (await listApiKeys()).filter((k) => k.id === keyId);
    expect(view.lastUsedAt).not.toBeNull();
    expect(view.lastUsedIp).toBe('127.0.0.1');
    expect(view.state).toBe('active');
    const rows = await db()
      .select()
      .from(apiKeys)
      .where(inArray(apiKeys.id, [keyId]));
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(key.startsWith(view.prefix)).toBe(true);
  });
});
