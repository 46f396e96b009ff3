/**
 * A database outage under a running console (scripts/console-server.ts, as `npm start` runs it):
 * while its database is stopped, a page answers 503 with Retry-After and the outage error page
 * (never a 500), a route answers 503 problem JSON with Retry-After, sign-in says that the
 * database cannot be reached, readiness says it is down; once the database is back, the same
 * requests answer 200 without a restart. Then the pool's part on its own, through a forwarder
 * that refuses or cuts connections: a refused connection is tried again, a write cut mid-flight
 * is not, a read is.
 *
 * The database is an embedded PGlite server of this test's own, stopped and started again on
 * the same folder and port (its connections are cut as a server's are when it stops); the
 * console runs in development mode (no production build needed), so the page's body is checked
 * for the outage digest its error page shows, not for the production page's words.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { encode } from 'next-auth/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '@/lib/db/client';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '@/lib/db/embedded';
import { runMigrations } from '@/lib/db/migrate';
import { DATABASE_OUTAGE_DIGEST, DATABASE_OUTAGE_RETRY_AFTER_S, isDatabaseOutage, retryRead } from '@/lib/db/outage';
import { ingestExecution } from '@/lib/sync/ingest';
import { buildExecution } from '../fixtures/execution';
import { consoleReady, startScript, type ChildRun } from '../support/processes';
import { until } from '../support/wait';

const SECRET = `outage-test-${randomBytes(16).toString('hex')}`;
let dir = '';
let dataDir = '';
let database: EmbeddedDatabase | undefined;
let dbPort = 0;
let console_: ChildRun | undefined;
let base = '';
let cookie = '';
let executionId = '';

async function freePort(): Promise<number> {
  const s = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => s.once('listening', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

const get = (p: string) => fetch(`${base}${p}`, { headers: { cookie }, redirect: 'manual' });

describe('a database outage under a running console', () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-outage-'));
    dataDir = path.join(dir, 'pglite');
    dbPort = await freePort();
    database = await startEmbeddedDatabase({ dataDir, port: dbPort });
    await runMigrations(database.url);
    const seed = createDb(database.url, 2);
    try {
      const userId = randomUUID();
      const sid = randomBytes(24).toString('base64url');
      await seed.$client.query(
        `insert into users (id, email, name, role) values ($1, $2, 'Outage analyst', 'analyst')`,
        [userId, `outage-${sid.slice(0, 8).toLowerCase()}@verdict.local`],
      );
      await seed.$client.query(
        `insert into user_sessions (id, user_id, expires_at) values ($1, $2, now() + interval '2 hours')`,
        [sid, userId],
      );
      cookie = `next-auth.session-token=${await encode({ token: { sid, sub: userId }, secret: SECRET })}`;
      const x = buildExecution();
      executionId = x.result.workflow.id;
      await ingestExecution(seed, { ...x, fetchedAt: new Date() });
    } finally {
      await seed.$client.end();
    }

    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // `node --import tsx`, as scripts/start.ts runs the console (not the react-server condition).
    console_ = startScript(
      'scripts/console-server.ts',
      {
        DATABASE_URL: database.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        NODE_ENV: 'development',
        NEXTAUTH_SECRET: SECRET,
        IDV_CALLBACK_SECRET: SECRET,
      },
      ['--dev'],
      { reactServer: false },
    );
    await consoleReady(base);
  }, 240_000);

  afterAll(async () => {
    console_?.kill();
    await database?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After (never 500) while the database is down, and 200 once it is back', async () => {
    const page = `/executions/${executionId}`;
    const route = `/api/executions/export?id=${executionId}`;
    // Both compile on first use (development mode) and answer while the database is up.
    expect((await get(page)).status).toBe(200);
    const csv = await get(route);
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain(executionId);

    await database!.close();
    database = undefined;

    const down = await get(page);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe(String(DATABASE_OUTAGE_RETRY_AFTER_S));
    // The error page is told that this is the outage (app/error.tsx shows the words then).
    expect(await down.text()).toContain(DATABASE_OUTAGE_DIGEST);

    const routeDown = await get(route);
    expect(routeDown.status).toBe(503);
    expect(routeDown.headers.get('retry-after')).toBe(String(DATABASE_OUTAGE_RETRY_AFTER_S));
    expect(routeDown.headers.get('content-type')).toBe('application/problem+json');
    expect(await routeDown.json()).toMatchObject({
      status: 503,
      detail: expect.stringMatching(/cannot reach its database/),
    });

    // Sign-in shows the message of what its check threw: the outage, never drizzle's statement.
    const csrf = await fetch(`${base}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const signIn = await fetch(`${base}/api/auth/callback/credentials`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: csrf.headers
          .getSetCookie()
          .map((c) => c.split(';')[0])
          .join('; '),
      },
      body: new URLSearchParams({ csrfToken, email: 'someone@verdict.local', password: 'not-checked', json: 'true' }),
    });
    const { url: signInError } = (await signIn.json()) as { url: string };
    expect(new URL(signInError).searchParams.get('error')).toBe(
      'Verdict cannot reach its database. Try again in a moment.',
    );

    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(503);
    expect(health.headers.get('retry-after')).toBe(String(DATABASE_OUTAGE_RETRY_AFTER_S));
    expect(await health.json()).toMatchObject({ checks: { database: 'DOWN' } });

    // Back on the same folder and port: the pool reconnects by itself, the console keeps running.
    database = await startEmbeddedDatabase({ dataDir, port: dbPort });
    await until(
      () => get(page).then((r) => r.status),
      (s) => s === 200,
      60_000,
      'the page to answer again',
      250,
    );
    expect((await get(route)).status).toBe(200);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    expect(console_!.child.exitCode).toBeNull();
  }, 300_000);
});

/**
 * A TCP forwarder to the run's database that can refuse to exist (not listening yet) and cut a
 * connection right after a statement that contains `marker` went through, dropping the answer:
 * to the client the database went away mid-statement, while the database ran it.
 */
async function forwarder(opts: { marker?: string; listenAfterMs?: number } = {}) {
  const target = new URL(process.env.DATABASE_URL!);
  const port = await freePort();
  let cuts = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    let cutting = false;
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
    upstream.on('data', (b) => {
      if (!cutting) client.write(b);
    });
    client.on('data', (b) => {
      upstream.write(b);
      if (opts.marker && !cutting && cuts === 0 && b.includes(opts.marker)) {
        cutting = true;
        cuts++;
        // Long enough for the database to run the statement (and commit it), then the client is cut.
        setTimeout(() => client.destroy(), 150);
      }
    });
    client.on('close', () => upstream.end());
    upstream.on('close', () => client.destroy());
  });
  const listen = () => new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  if (opts.listenAfterMs) setTimeout(() => void listen(), opts.listenAfterMs);
  else await listen();
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return { url: url.toString(), cuts: () => cuts, close: () => new Promise((r) => server.close(r)) };
}

describe('the pool when the database goes away', () => {
  const table = `outage_probe_${randomBytes(4).toString('hex')}`;
  let probe: ReturnType<typeof createDb>;
  beforeAll(async () => {
    probe = createDb(process.env.DATABASE_URL!, 1);
    await probe.execute(sql.raw(`create table ${table} (id text primary key)`));
  });
  afterAll(async () => {
    await probe.execute(sql.raw(`drop table if exists ${table}`));
    await probe.$client.end();
  });

  it('tries a refused connection again, briefly: the statement runs once the database listens', async () => {
    const fwd = await forwarder({ listenAfterMs: 300 });
    const pool = createDb(fwd.url, 1);
    try {
      expect((await pool.execute<{ one: number }>(sql`select 1 as one`)).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.$client.end();
      await fwd.close();
    }
  });

  it('never sends a write cut mid-flight again (it may have committed), and sends a read again', async () => {
    const write = await forwarder({ marker: table });
    const pool = createDb(write.url, 1);
    try {
      const id = randomUUID();
      const err = await pool.execute(sql.raw(`insert into ${table} (id) values ('${id}')`)).catch((e: unknown) => e);
      expect(write.cuts()).toBe(1);
      expect(isDatabaseOutage(err)).toBe(true);
      // The database ran it; the pool did not run it again on a new connection (a second insert
      // would have failed on the key, not been reported as the outage). The cut comes 150 ms after
      // the statement went through: on a loaded machine its commit may come later still.
      const rows = await until(
        () => probe.execute<{ n: number }>(sql.raw(`select count(*)::int as n from ${table} where id = '${id}'`)),
        (r) => r.rows[0].n > 0,
        10_000,
        'the cut insert to commit',
      );
      expect(rows.rows[0].n).toBe(1);
    } finally {
      await pool.$client.end();
      await write.close();
    }

    const read = await forwarder({ marker: table });
    const readPool = createDb(read.url, 1);
    try {
      const rows = await retryRead(() =>
        readPool.execute<{ n: number }>(sql.raw(`select count(*)::int as n from ${table}`)),
      );
      expect(read.cuts()).toBe(1);
      expect(rows.rows[0].n).toBe(1);
    } finally {
      await readPool.$client.end();
      await read.close();
    }
  });
});
