/**
 * Calls refused to callers nobody knows do not grow the append-only audit log without bound
 * (lib/auth/denied-calls.ts): 100 bad API keys over real HTTP (the read API's routes) and 20
 * garbage session cookies are counted per address and minute, and once the minute is over they
 * are one audit entry per address with the counts. Nothing is written twice, and nothing lost.
 */
import http from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DENIED_CALLS_ACTION, flushDeniedCalls } from '@/lib/auth/denied-calls';
import { getCurrentUser } from '@/lib/auth/guards';
import { db } from '@/lib/db/client';
import { auditLog, deniedCallCounts } from '@/lib/db/schema';
import { startApiServer, type ApiServer } from '../support/api-server';
import { until } from '../support/wait';
import { request } from '../support/next-headers';

vi.mock('next/headers', async () => (await import('../support/next-headers')).nextHeaders);

let server: ApiServer;
beforeAll(async () => {
  server = await startApiServer();
});
afterAll(async () => {
  await server?.close();
});

/** A GET from a loopback address of its own (all of 127.0.0.0/8 is this machine): the server sees that address. */
function getFrom(address: string, path: string, headers: Record<string, string>): Promise<number> {
  const u = new URL(`${server.url}${path}`);
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: u.hostname, port: u.port, path: u.pathname, headers, localAddress: address },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
  });
}

describe('refused calls of unknown callers', () => {
  it('100 bad API keys and 20 garbage cookies add one audit entry per address and minute, with the counts', async () => {
    const address = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;
    const mine = () => db().select().from(deniedCallCounts).where(eq(deniedCallCounts.ip, address));
    const entries = () => db().select().from(auditLog).where(eq(auditLog.ip, address));

    const statuses = new Set<number>();
    for (let i = 0; i < 100; i++)
      statuses.add(
        await getFrom(address, '/executions/changes', { Authorization: `Bearer vk_${String(i).padStart(43, 'x')}` }),
      );
    expect([...statuses]).toEqual([401]);
    request.ip = address;
    request.cookie = 'not-a-session-token';
    try {
      for (let i = 0; i < 20; i++) expect(await getCurrentUser()).toBeNull();
    } finally {
      request.cookie = '';
      request.ip = '127.0.0.1';
    }

    // Counted, not written: the append-only log has not grown by a row for this address.
    expect(await entries()).toHaveLength(0);
    expect((await mine()).reduce((n, r) => n + r.count, 0)).toBe(120);

    // Once the minute is over (the worker flushes every minute; here the test does), one entry per minute.
    await until(
      async () => {
        await flushDeniedCalls(db());
        return mine();
      },
      (rows) => rows.length === 0,
      130_000,
      'the minutes of the calls to be over and flushed',
      1_000,
    );
    const written = await entries();
    // 120 calls within at most two minutes: at most two entries.
    expect(written.length).toBeGreaterThanOrEqual(1);
    expect(written.length).toBeLessThanOrEqual(2);
    for (const e of written) expect(e).toMatchObject({ action: DENIED_CALLS_ACTION, outcome: 'denied', actorId: null });
    const calls = written.map((e) => e.details as { count: number; minute: string; calls: Record<string, number> });
    expect(calls.reduce((n, c) => n + c.count, 0)).toBe(120);
    const byKind = (k: string) => calls.reduce((n, c) => n + (c.calls[k] ?? 0), 0);
    expect(byKind('api_key')).toBe(100);
    expect(byKind('session_cookie')).toBe(20);
    for (const c of calls) expect(c.minute).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/);

    // A second flush writes nothing more: every count was written once.
    await flushDeniedCalls(db());
    expect(await entries()).toHaveLength(written.length);
  }, 180_000);
});
