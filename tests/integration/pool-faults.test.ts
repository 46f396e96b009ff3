/**
 * The pool when the run's database goes away, through a forwarder that refuses or cuts
 * connections: a refused connection is tried again, a write cut mid-flight is not (it may have
 * committed), a read is. Runs on both databases (Postgres and the embedded PGlite server).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '@/lib/db/client';
import { isDatabaseOutage, retryRead } from '@/lib/db/outage';
import { freePort } from '../support/ports';
import { until } from '../support/wait';

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
