import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { claimDue, claimOne, leaseCleared, renewLease, type LeasedTable } from '@/lib/jobs/lease';

/*
 * The claim, lease and rescue of lib/jobs/lease.ts on a table of the test's own, in both of its
 * forms: a lease stamped with its start (`since`, as feedback and the callback inbox keep it) and
 * one stamped with its end (`until`, as webhook deliveries and endpoints keep it).
 */

const since = (ms: number): LeasedTable => ({
  table: 'lease_probe',
  key: 'id',
  lease: 'taken_at',
  holds: 'since',
  ms,
  held: sql`state = 'held'`,
});
const until = (ms: number) => ({
  table: 'lease_probe',
  key: 'id',
  lease: 'lease_until',
  holds: 'until' as const,
  ms,
  held: sql`state = 'held'`,
});

const due = sql`state = 'ready'`;
const take = (t: LeasedTable, limit: number) =>
  claimDue<{ id: number }>(db(), t, { due, orderBy: sql`id`, limit, set: sql`state = 'held'`, returning: sql`id` });
const ids = (rows: { id: number }[]) => rows.map((r) => Number(r.id)).sort((a, b) => a - b);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function seed(n: number): Promise<number[]> {
  const r = await db().execute<{ id: number }>(
    sql`insert into lease_probe (state) select 'ready' from generate_series(1, ${n}) returning id`,
  );
  return ids(r.rows);
}

beforeAll(async () => {
  await db().execute(sql`
    create table if not exists lease_probe (
      id serial primary key, state text not null, taken_at timestamptz, lease_until timestamptz)`);
});
beforeEach(async () => {
  await db().execute(sql`truncate lease_probe`);
});

describe('claim, lease and rescue (lib/jobs/lease.ts)', () => {
  it('claimers running at once never take the same row, and together take every row once', async () => {
    const all = await seed(400);
    const t = since(60_000);
    const claimer = async () => {
      const got: number[] = [];
      for (;;) {
        const rows = await take(t, 25);
        if (!rows.length) return got;
        got.push(...ids(rows));
      }
    };
    const taken = (await Promise.all([claimer(), claimer(), claimer(), claimer()])).flat();
    expect(taken.length).toBe(all.length);
    expect(new Set(taken).size).toBe(all.length);
    // Every row is held now: nothing is due and no lease lapsed.
    expect(await take(t, 1000)).toHaveLength(0);
  });

  it('of two claims of one row by its key, exactly one wins', async () => {
    const [id] = await seed(1);
    const t = until(60_000);
    const tries = await Promise.all(
      Array.from({ length: 6 }, () =>
        claimOne<{ id: number }>(db(), t, id, { free: due, set: sql`state = 'held'`, returning: sql`id` }),
      ),
    );
    expect(tries.filter(Boolean)).toHaveLength(1);
  });

  for (const [form, table] of [
    ['since', since],
    ['until', until],
  ] as const) {
    it(`a lapsed lease is rescued by the next claim; a live one is not (${form})`, async () => {
      const [id] = await seed(1);
      const t = table(400);
      const [first] = await take(t, 10);
      expect(Number(first.id)).toBe(id);
      expect(await take(t, 10)).toHaveLength(0);
      await sleep(700);
      const [again] = await take(t, 10);
      expect(Number(again?.id)).toBe(id);
      // The new holder's stamp is a new token: the first holder can no longer renew.
      expect(again.lease_token).not.toBe(first.lease_token);
      expect(await renewLease(db(), t, id, first.lease_token!)).toBeNull();
    });

    it(`a renewed lease is not rescued when the one beside it lapses (${form})`, async () => {
      const [a, b] = await seed(2);
      const t = table(3_000);
      const claimed = await take(t, 10);
      expect(ids(claimed)).toEqual([a, b]);
      await sleep(2_000);
      const tokenA = claimed.find((r) => Number(r.id) === a)!.lease_token!;
      const renewed = await renewLease(db(), t, a, tokenA);
      expect(renewed).not.toBeNull();
      await sleep(2_000);
      // b's lease ran 4 s of its 3; a's renewed one 2 s of 3.
      expect(ids(await take(t, 10))).toEqual([b]);
      expect(await renewLease(db(), t, a, renewed!)).not.toBeNull();
    });
  }

  it('a released lease is neither renewed nor rescued', async () => {
    const [id] = await seed(1);
    const t = until(200);
    const [row] = await take(t, 10);
    await db().execute(sql`update lease_probe set state = 'done', ${leaseCleared(t)} where id = ${id}`);
    expect(await renewLease(db(), t, id, row.lease_token!)).toBeNull();
    await sleep(400);
    expect(await take(t, 10)).toHaveLength(0);
  });
});
