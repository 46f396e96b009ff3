import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { getBoss, jobDb, QUEUES, stopBoss } from '@/lib/jobs/boss';

afterAll(() => stopBoss());

describe('job queue (pg-boss on the same database)', () => {
  it('a job sent inside a transaction exists only if the transaction commits', async () => {
    const boss = await getBoss();
    const committed = await db().transaction(async (tx) =>
      boss.send(QUEUES.retention, { marker: 'commit' }, { db: jobDb(tx) }),
    );
    let rolledBack: string | null = null;
    await expect(
      db().transaction(async (tx) => {
        rolledBack = await boss.send(QUEUES.retention, { marker: 'rollback' }, { db: jobDb(tx) });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(committed).toBeTruthy();
    expect(await boss.getJobById(QUEUES.retention, committed!)).toBeTruthy();
    expect(await boss.getJobById(QUEUES.retention, rolledBack!)).toBeNull();
    const r = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from pgboss.job where name = ${QUEUES.retention} and data->>'marker' = 'rollback'`,
    );
    expect(r.rows[0].n).toBe(0);
  });
});
