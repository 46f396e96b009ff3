/**
 * A database outage under a running console (scripts/console-server.ts, as `npm start` runs it):
 * while its database is stopped, a page answers 503 with Retry-After and the outage error page
 * (never a 500), a route answers 503 problem JSON with Retry-After, sign-in says that the
 * database cannot be reached, readiness says it is down; once the database is back, the same
 * requests answer 200 without a restart. The pool's part on its own is in pool-faults.test.ts.
 *
 * The database is an embedded PGlite server of this test's own, stopped and started again on
 * the same folder and port (its connections are cut as a server's are when it stops); the
 * console runs in development mode (no production build needed), so the page's body is checked
 * for the outage digest its error page shows, not for the production page's words.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encode } from 'next-auth/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '@/lib/db/client';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '@/lib/db/embedded';
import { runMigrations } from '@/lib/db/migrate';
import { DATABASE_OUTAGE_DIGEST, DATABASE_OUTAGE_RETRY_AFTER_S } from '@/lib/db/outage';
import { ingestExecution } from '@/lib/sync/ingest';
import { buildExecution } from '../support/fixtures/execution';
import { consoleReady, startScript, type ChildRun } from '../support/processes';
import { freePort } from '../support/ports';
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
