/**
 * SIGTERM to a console process (scripts/console-server.ts, as `npm start` runs it): a request in
 * flight finishes and is answered, new connections are refused, idle keep-alive connections are
 * closed, and the process closes its pools and exits 0 well within its grace time.
 *
 * The console runs in development mode (no production build needed); the request in flight is a
 * callback whose body is held back until after the signal (`Expect: 100-continue` tells when the
 * server has taken the request), so nothing depends on timing.
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { db } from '@/lib/db/client';
import { consoleReady, startScript, type ChildRun } from '../support/processes';
import { freePort } from '../support/ports';
import { until } from '../support/wait';

const SECRET = `drain-test-${randomUUID()}`;
const APP = `verdict-drain-${randomUUID().slice(0, 8)}`;
let console_: ChildRun | undefined;

afterAll(() => console_?.kill());

/** A raw HTTP/1.1 connection: what it received so far, and a wait for a pattern in it. */
function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let closed = false;
  socket.on('data', (b) => (received += b.toString()));
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  return {
    socket,
    received: () => received,
    closed: () => closed,
    ready: new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('error', reject);
    }),
  };
}

describe('console drain on SIGTERM', () => {
  it('finishes the request in flight, refuses new connections, closes its pools and exits 0', async () => {
    const port = await freePort();
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set('application_name', APP);
    // `node --import tsx`, as scripts/start.ts runs the console (not the react-server condition).
    console_ = startScript(
      'scripts/console-server.ts',
      {
        DATABASE_URL: url.toString(),
        PORT: String(port),
        HOST: '127.0.0.1',
        NODE_ENV: 'development',
        NEXTAUTH_SECRET: 'drain-test-secret-0123456789abcdef',
        IDV_CALLBACK_SECRET: SECRET,
        SHUTDOWN_GRACE_MS: '60000',
      },
      ['--dev'],
      { reactServer: false },
    );
    const base = `http://127.0.0.1:${port}`;
    // Readiness reads the database (a pool is open); a wrong-token callback compiles the route.
    await consoleReady(base);
    expect((await fetch(`${base}/api/idv/callback?token=wrong`, { method: 'POST', body: '{}' })).status).toBe(401);
    const connections = () =>
      db()
        .execute<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity where application_name = ${APP}`)
        .then((r) => r.rows[0].n);
    // The embedded database has no pg_stat_activity of its clients: there the log line is the evidence.
    const postgres = inject('databaseKind') === 'postgres';
    if (postgres) expect(await connections()).toBeGreaterThan(0);

    // An idle keep-alive connection, and a request whose body has not arrived yet.
    const idle = connect(port);
    await idle.ready;
    idle.socket.write(`GET /api/health?probe=live HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
    await until(
      idle.received,
      (r) => /"status":"UP"[\s\S]*\r\n0\r\n\r\n$/.test(r),
      10_000,
      'the idle connection’s answer',
    );

    const execution = randomUUID();
    const account = randomUUID();
    const reference = `drain-${randomUUID()}`;
    const body = JSON.stringify({
      callbackSentAt: new Date().toISOString(),
      userReference: reference,
      workflowExecution: { id: execution, definitionKey: '10013', status: 'PROCESSED' },
      account: { id: account },
    });
    const inFlight = connect(port);
    await inFlight.ready;
    inFlight.socket.write(
      `POST /api/idv/callback?token=${encodeURIComponent(SECRET)} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await until(
      inFlight.received,
      (r) => r.startsWith('HTTP/1.1 100 Continue'),
      10_000,
      'the server to take the request',
    );

    console_.child.kill('SIGTERM');
    await console_.waitFor(/SIGTERM: draining the console/, 10_000);
    // New connections are refused (the log line comes just before the listener closes, so ask
    // until it has), while the request in flight is still open.
    const attempt = () =>
      new Promise<string>((resolve) => {
        const s = net.connect(port, '127.0.0.1');
        let got = '';
        s.on('connect', () =>
          s.write('GET /api/health?probe=live HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
        );
        s.on('data', (b) => (got += b.toString()));
        s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
        s.on('close', () => resolve(got.split('\r\n')[0] || 'closed'));
      });
    await until(attempt, (r) => r === 'ECONNREFUSED', 10_000, 'new connections to be refused');
    expect(inFlight.closed()).toBe(false);
    await until(idle.closed, Boolean, 10_000, 'the idle connection to close');

    // The request in flight still completes, and its callback was stored.
    inFlight.socket.write(body);
    await until(inFlight.received, (r) => /HTTP\/1\.1 200 /.test(r) && /"received":true/.test(r), 60_000, 'the answer');
    const stored = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from callbacks where body->>'userReference' = ${reference}`,
    );
    expect(stored.rows[0].n).toBe(1);

    const started = Date.now();
    expect(await console_.exited).toBe(0);
    // Exited through the drain (pools closed), not through the grace-time fallback.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(console_.output()).toMatch(/Console stopped: requests in flight finished, pools closed/);
    if (postgres) expect(await connections()).toBe(0);
    await db().execute(sql`delete from callbacks where body->>'userReference' = ${reference}`);
  }, 240_000);
});
