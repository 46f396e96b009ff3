import { randomUUID } from 'node:crypto';
import type PgBoss from 'pg-boss';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db/client';
import { callbacks, executions } from '@/lib/db/schema';
import { parseIpAllowlist } from '@/lib/ip-allowlist';
import { createBoss, QUEUES } from '@/lib/jobs/boss';
import type { RunningSimulator } from '@/lib/simulator';
import { drainCallbacks } from '@/lib/sync/callback-inbox';
import { handleCallback, secretMatches, type CallbackDeps } from '@/lib/sync/callbacks';
import { fetchExecution } from '@/lib/sync/fetch';
import { ingestExecution } from '@/lib/sync/ingest';
import { buildExecution } from '../support/fixtures/execution';
import {
  callbackServer,
  clientFor,
  dropQueueSchema,
  queueSchema,
  resetCache,
  startSim,
  TEST_OPTIONS,
} from '../support/sync';

const SECRET = 'callback-secret-0123456789';
const schema = queueSchema();
let sim: RunningSimulator;
let boss: PgBoss;
let known: { executionId: string; accountId: string };

function deps(over: Partial<CallbackDeps['settings']> = {}): CallbackDeps {
  return { db: db(), settings: { secret: SECRET, allowlist: null, maxBytes: 64 * 1024, ...over } };
}

/** The worker's part: what the stored callbacks turn into. */
function drain(verifyTimeoutMs = 2000) {
  return drainCallbacks({ db: db(), idv: clientFor(sim), boss }, { verifyTimeoutMs });
}

async function fetchJobs() {
  return (
    await db().execute<{ data: Record<string, unknown> }>(
      sql.raw(`select data from "${schema}".job where name = '${QUEUES.fetchExecution}'`),
    )
  ).rows.map((j) => j.data);
}

function allowlist(value: string) {
  const r = parseIpAllowlist(value);
  if (!r.ok) throw new Error(r.error);
  return r.list;
}

function body(ids = known, over: Record<string, unknown> = {}) {
  return {
    callbackSentAt: new Date().toISOString(),
    workflowExecution: {
      id: ids.executionId,
      href: `${sim.url}/api/v1/workflow-executions/${ids.executionId}`,
      definitionKey: '10013',
      status: 'PROCESSED',
    },
    account: { id: ids.accountId, href: `${sim.url}/api/v1/accounts/${ids.accountId}` },
    ...over,
  };
}

function post(payload: unknown, opts: { query?: string; headers?: Record<string, string>; raw?: BodyInit } = {}) {
  return new Request(`http://console.test/api/idv/callback${opts.query ?? `?token=${SECRET}`}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9', ...opts.headers },
    body: opts.raw ?? JSON.stringify(payload),
    // Node needs this to send a stream body.
    ...(opts.raw instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
}

async function counts() {
  const [c] = await db().select({ n: count() }).from(callbacks);
  const jobs = await db().execute<{ n: number }>(
    sql.raw(`select count(*)::int as n from "${schema}".job where name = '${QUEUES.fetchExecution}'`),
  );
  return { callbacks: c.n, jobs: jobs.rows[0].n };
}

beforeAll(async () => {
  await resetCache(db());
  sim = await startSim({ executions: 20 });
  boss = await createBoss({ schema, worker: false });
  const page = await clientFor(sim).listExecutions({ page: 3, size: 1 });
  known = { executionId: page.workflowExecutions[0].workflow.id, accountId: page.workflowExecutions[0].account.id };
});
afterAll(async () => {
  await boss?.stop({ graceful: false });
  await dropQueueSchema(db(), schema);
  await sim?.close();
});
beforeEach(async () => {
  await db().delete(callbacks);
  await db().execute(sql.raw(`delete from "${schema}".job`));
});

describe('callback receiver', () => {
  it('group-commits a burst: 100 callbacks at once, each stored once with its own id, in far fewer transactions', async () => {
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => handleCallback(post(body(known, { userReference: `burst-${i}` })), deps())),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(100).fill(200));
    const answered = await Promise.all(responses.map((r) => r.json() as Promise<{ id: number }>));
    const rows = await db().execute<{ id: string; ref: string; tx: string }>(
      sql`select id::text, body->>'userReference' as ref, xmin::text as tx from callbacks`,
    );
    expect(rows.rows).toHaveLength(100);
    // Each answer names the row of its own callback.
    const refOf = new Map(rows.rows.map((r) => [Number(r.id), r.ref]));
    answered.forEach((a, i) => expect(refOf.get(a.id)).toBe(`burst-${i}`));
    // The first is written alone; the ones that came meanwhile share commits.
    expect(new Set(rows.rows.map((r) => r.tx)).size).toBeLessThan(20);
  });

  it('stores a valid callback with one write and answers at once; the drain queues one fetch for repeated callbacks', async () => {
    const started = Date.now();
    const res = await handleCallback(post(body()), deps());
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ received: true });
    expect(Date.now() - started).toBeLessThan(1000);
    const [row] = await db().select().from(callbacks);
    expect(row).toMatchObject({
      executionId: known.executionId,
      accountId: known.accountId,
      status: 'PROCESSED',
      sourceIp: '203.0.113.9',
      processedAt: null,
      dispatchedAt: null,
    });
    // The hot path queues nothing: that is the drain's job.
    expect(await counts()).toEqual({ callbacks: 1, jobs: 0 });
    expect((await handleCallback(post(body()), deps())).status).toBe(200);

    expect(await drain()).toBe(2);
    expect(await fetchJobs()).toEqual([
      { executionId: known.executionId, accountId: known.accountId, reason: 'callback', attempt: 0, hint: 'PROCESSED' },
    ]);
    const rows = await db().select().from(callbacks);
    expect(rows.every((r) => r.dispatchedAt !== null && r.error === null)).toBe(true);
    // A later duplicate while the fetch is still queued adds nothing either; an empty inbox is a no-op.
    expect((await handleCallback(post(body()), deps())).status).toBe(200);
    expect(await drain()).toBe(1);
    expect(await drain()).toBe(0);
    expect(await counts()).toEqual({ callbacks: 3, jobs: 1 });
  });

  it('refuses, after checking, an execution the service does not know and one cached under another account', async () => {
    const unknownId = randomUUID();
    expect(
      (await handleCallback(post(body({ executionId: unknownId, accountId: known.accountId })), deps())).status,
    ).toBe(200);
    const cached = buildExecution();
    await ingestExecution(db(), { result: cached.result, fetchedAt: new Date() });
    expect((await handleCallback(post(body({ executionId: cached.id, accountId: randomUUID() })), deps())).status).toBe(
      200,
    );
    expect(await drain()).toBe(2);
    expect(await fetchJobs()).toEqual([]);
    const rows = await db().select().from(callbacks);
    expect(Object.fromEntries(rows.map((r) => [r.executionId, r.error]))).toEqual({
      [unknownId]: expect.stringContaining('does not know'),
      [cached.id]: expect.stringContaining('another account'),
    });
    expect(rows.every((r) => r.processedAt !== null && r.dispatchedAt !== null)).toBe(true);
  });

  it('a batch claimed by a worker that died is taken over once its claim is old', async () => {
    expect((await handleCallback(post(body()), deps())).status).toBe(200);
    await db()
      .update(callbacks)
      .set({ claimedAt: sql`now()` });
    expect(await drainCallbacks({ db: db(), idv: clientFor(sim), boss }, { claimMs: 60_000 })).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(await drainCallbacks({ db: db(), idv: clientFor(sim), boss }, { claimMs: 200 })).toBe(1);
    expect((await fetchJobs()).length).toBe(1);
  });

  it('accepts both link forms, a bearer secret, and a numeric definitionKey', async () => {
    const docsForm = body(known, {
      workflowExecution: {
        id: known.executionId,
        href: `${sim.url}/api/v1/accounts/${known.accountId}/workflow-executions/${known.executionId}`,
        definitionKey: 10013,
        status: 'PROCESSED',
      },
    });
    expect((await handleCallback(post(docsForm), deps())).status).toBe(200);
    expect(
      (await handleCallback(post(body(), { query: '', headers: { authorization: `Bearer ${SECRET}` } }), deps()))
        .status,
    ).toBe(200);
    expect((await counts()).callbacks).toBe(2);
  });

  it('marks a cached execution stale (in the drain) until its fetch ran', async () => {
    const cached = buildExecution();
    await ingestExecution(db(), { result: cached.result, fetchedAt: new Date() });
    const res = await handleCallback(post(body({ executionId: cached.id, accountId: cached.accountId })), deps());
    expect(res.status).toBe(200);
    await drain();
    const [row] = await db()
      .select({ staleSince: executions.staleSince })
      .from(executions)
      .where(eq(executions.id, cached.id));
    expect(row.staleSince).toBeTruthy();
  });

  it('clears the stale mark when the fetch after the callback finds the execution unchanged', async () => {
    const sync = { db: db(), idv: clientFor(sim), options: TEST_OPTIONS };
    const job = { ...known, reason: 'callback' as const, attempt: 0 };
    await fetchExecution(sync, job);
    expect((await handleCallback(post(body()), deps())).status).toBe(200);
    await drain();
    const staleSince = async () =>
      (await db().select({ s: executions.staleSince }).from(executions).where(eq(executions.id, known.executionId)))[0]
        .s;
    expect(await staleSince()).toBeTruthy();
    expect(await fetchExecution(sync, job)).toMatchObject({ kind: 'stored', outcome: 'unchanged' });
    expect(await staleSince()).toBeNull();
  });

  const bad: Array<[string, () => Request, number, Partial<CallbackDeps['settings']>?]> = [
    ['no secret', () => post(body(), { query: '' }), 401],
    ['a wrong secret', () => post(body(), { query: '?token=wrong-secret-0123456789' }), 401],
    ['a wrong bearer secret', () => post(body(), { query: '', headers: { authorization: 'Bearer nope' } }), 401],
    ['malformed JSON', () => post(undefined, { raw: '{"workflowExecution": {"id": ' }), 400],
    ['JSON that is not a callback', () => post({ hello: 'world' }), 422],
    ['ids that are not UUIDs', () => post(body({ executionId: 'not-a-uuid', accountId: known.accountId })), 422],
    [
      'an href naming another execution',
      () =>
        post(
          body(known, {
            workflowExecution: {
              id: known.executionId,
              href: `${sim.url}/api/v1/workflow-executions/${randomUUID()}`,
              status: 'PROCESSED',
            },
          }),
        ),
      422,
    ],
    ['a huge body (declared)', () => post(body(known, { padding: 'x'.repeat(70 * 1024) })), 413],
    [
      'a huge body (streamed, no length)',
      () => {
        const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
        let sent = 0;
        const stream = new ReadableStream<Uint8Array>({
          pull(c) {
            if (sent++ < 8) c.enqueue(chunk);
            else c.close();
          },
        });
        return post(undefined, { raw: stream });
      },
      413,
    ],
    [
      'a source address outside the allowlist',
      () => post(body()),
      403,
      { allowlist: allowlist('198.51.100.0/24, 2001:db8::/32') },
    ],
    ['no secret configured at all', () => post(body()), 503, { secret: undefined }],
  ];
  for (const [what, request, status, settings] of bad) {
    it(`refuses ${what} with ${status} and changes nothing`, async () => {
      const before = await counts();
      const res = await handleCallback(request(), deps(settings));
      expect(res.status).toBe(status);
      expect(await res.json()).toMatchObject({ status, title: expect.any(String), detail: expect.any(String) });
      expect(await counts()).toEqual(before);
    });
  }

  it("gives the same answers through the console server's own door (before Next)", async () => {
    for (const [what, request, status, settings] of bad) {
      const server = await callbackServer(deps(settings));
      try {
        const before = await counts();
        const req = request();
        const url = new URL(req.url);
        const res = await fetch(server.url('').replace(/\?token=$/, url.search), {
          method: 'POST',
          headers: req.headers,
          body: req.body,
          duplex: 'half',
        } as RequestInit);
        expect({ what, status: res.status }).toEqual({ what, status });
        expect(await res.json()).toMatchObject({ status, detail: expect.any(String) });
        expect(await counts()).toEqual(before);
      } finally {
        await server.close();
      }
    }
  });

  it('over real HTTP, an X-Forwarded-For naming an allowed address does not pass the allowlist', async () => {
    // The request comes from 127.0.0.1 and claims 203.0.113.9 (allowed); the edge step replaces the claim.
    const server = await callbackServer(deps({ allowlist: allowlist('203.0.113.0/24') }));
    try {
      const before = await counts();
      const res = await fetch(server.url(SECRET), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9', 'x-real-ip': '203.0.113.9' },
        body: JSON.stringify(body()),
      });
      expect(res.status).toBe(403);
      expect(await counts()).toEqual(before);
    } finally {
      await server.close();
    }
    const local = await callbackServer(deps({ allowlist: allowlist('127.0.0.1/32') }));
    try {
      const res = await fetch(local.url(SECRET), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.1' },
        body: JSON.stringify(body()),
      });
      expect(res.status).toBe(200);
    } finally {
      await local.close();
    }
  });

  it('lets an allowed source address through', async () => {
    expect((await handleCallback(post(body()), deps({ allowlist: allowlist('203.0.113.0/24') }))).status).toBe(200);
  });

  it('fetches an unknown execution when the service cannot be asked (the fetch job decides later)', async () => {
    const id = randomUUID();
    expect((await handleCallback(post(body({ executionId: id, accountId: known.accountId })), deps())).status).toBe(
      200,
    );
    sim.faults.errorRate = 1;
    try {
      const started = Date.now();
      expect(await drain(300)).toBe(1);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      sim.faults.errorRate = 0;
    }
    expect(await fetchJobs()).toEqual([
      { executionId: id, accountId: known.accountId, reason: 'callback', attempt: 0, hint: 'PROCESSED' },
    ]);
  });
});

describe('callback secret comparison', () => {
  it('matches only the exact secret, whatever the length', () => {
    expect(secretMatches(SECRET, SECRET)).toBe(true);
    expect(secretMatches(`${SECRET}x`, SECRET)).toBe(false);
    expect(secretMatches('', SECRET)).toBe(false);
    expect(secretMatches(SECRET.toUpperCase(), SECRET)).toBe(false);
  });
});
