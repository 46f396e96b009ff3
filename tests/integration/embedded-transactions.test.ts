/**
 * Nothing waits for a second connection inside a transaction on the embedded database
 * (lib/db/second-connection.ts). The file starts an embedded database of its own, whatever the
 * run's database is: a pool checkout and a job queue start from inside a transaction fail at once
 * with the call that asked, where before they waited forever; the transaction is not harmed; work
 * outside it, and work it left running after it, still connect. On a Postgres server nothing is
 * refused.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '@/lib/db/client';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '@/lib/db/embedded';
import { isEmbeddedUrl, SecondConnectionError } from '@/lib/db/second-connection';
import { createBoss } from '@/lib/jobs/boss';

let embedded: EmbeddedDatabase;
let db: Db;

beforeAll(async () => {
  embedded = await startEmbeddedDatabase({});
  db = createDb(embedded.url, 4);
  await db.execute(sql`create table t (id int primary key, note text)`);
});
afterAll(async () => {
  await db?.$client.end();
  await embedded?.close();
});

/** Fails the test instead of hanging it: the refusal must come at once. */
const within = <T>(ms: number, p: Promise<T>) =>
  Promise.race([
    p,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms)),
  ]);

async function labelInsideTransaction() {
  return db.transaction(async (tx) => {
    await tx.execute(sql`insert into t values (1, 'in the transaction')`);
    // The mistake: the process-wide handle instead of `tx`.
    const refused = await db.execute(sql`select count(*) from t`).then(
      () => null,
      (err: unknown) => err,
    );
    await tx.execute(sql`update t set note = 'committed after the refusal' where id = 1`);
    return refused;
  });
}

describe('the embedded database', () => {
  it('its URL carries the mark', () => {
    expect(isEmbeddedUrl(embedded.url)).toBe(true);
    expect(isEmbeddedUrl('postgres://postgres@127.0.0.1:5432/postgres')).toBe(false);
  });

  it('a second checkout inside a transaction fails at once, naming the call; the transaction still commits', async () => {
    const t0 = Date.now();
    const refused = await within(5_000, labelInsideTransaction());
    expect(Date.now() - t0).toBeLessThan(2_000);
    // drizzle wraps it ("Failed query: …"), with the refusal as the cause.
    const cause = (refused as Error).cause;
    expect(cause).toBeInstanceOf(SecondConnectionError);
    // It names the line that asked: the `db.execute` above, where `tx` was meant.
    const line =
      readFileSync(__filename, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('await db.execute(sql`select count(*) from t`)')) + 1;
    expect((cause as Error).message).toContain(
      `inside a transaction, by tests/integration/embedded-transactions.test.ts:${line}:`,
    );
    const rows = await db.execute<{ note: string }>(sql`select note from t where id = 1`);
    expect(rows.rows[0].note).toBe('committed after the refusal');
  });

  it('starting the job queue inside a transaction fails at once instead of hanging', async () => {
    const attempt = db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      return createBoss({ url: embedded.url, schema: 'jobs_refused', worker: false, max: 1 });
    });
    await expect(within(5_000, attempt)).rejects.toThrow(SecondConnectionError);
  });

  it('other requests wait their turn and connect; work a transaction left running connects after it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // An ordinary concurrent request (its context is outside the transaction): it waits for its turn.
    const outside = gate.then(() => db.$client.query('select count(*)::int as n from t'));
    let later: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into t values (2, 'two')`);
      release();
      // Left running: it connects once the transaction is over.
      later = new Promise((r) => setTimeout(r, 200)).then(() => db.execute(sql`select count(*)::int as n from t`));
      await new Promise((r) => setTimeout(r, 50));
    });
    await expect(within(5_000, later!)).resolves.toBeTruthy();
    const seen = await within(5_000, outside);
    expect(seen.rows[0].n).toBe(2);
  });

  it('the job queue started before the transaction is used inside it', async () => {
    const boss = await createBoss({ url: embedded.url, schema: 'jobs_ready', worker: false, max: 1 });
    try {
      const id = await within(
        5_000,
        db.transaction(async (tx) => {
          const client = (
            tx as unknown as { session: { client: { query(t: string, v: unknown[]): Promise<{ rows: never[] }> } } }
          ).session.client;
          return boss.send('qa.sample', { runId: 'x' }, { db: { executeSql: (t, v) => client.query(t, v ?? []) } });
        }),
      );
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
  });
});

describe.runIf(!isEmbeddedUrl(process.env.DATABASE_URL))('a Postgres server', () => {
  it('refuses nothing: a second connection there waits only for the rows it touches', async () => {
    const pg = createDb(process.env.DATABASE_URL!, 2);
    try {
      const n = await within(
        5_000,
        pg.transaction(async () => (await pg.execute<{ n: number }>(sql`select 1 as n`)).rows[0].n),
      );
      expect(n).toBe(1);
    } finally {
      await pg.$client.end();
    }
  });
});
