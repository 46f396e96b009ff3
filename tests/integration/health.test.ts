import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { GET } from '@/app/api/health/route';
import { db } from '@/lib/db/client';
import { readiness } from '@/lib/server/health';
import { markDraining } from '@/lib/db/shutdown';

describe('/api/health', () => {
  it('liveness answers without the database; readiness checks the database and this build’s migrations', async () => {
    const live = await GET(new Request('http://console.test/api/health?probe=live'));
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'UP' });

    const ready = await GET(new Request('http://console.test/api/health'));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'UP',
      checks: { database: 'UP', migrations: 'UP', process: 'UP' },
    });
  });

  it('is not ready when the newest migration is missing', async () => {
    await db()
      .transaction(async (tx) => {
        await tx.execute(
          sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
        );
        const r = await readiness(tx);
        expect(r).toMatchObject({ status: 'DOWN', checks: { database: 'UP', migrations: 'PENDING' } });
        tx.rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof Error && /rollback/i.test(err.message))) throw err;
      });
    expect((await readiness(db())).checks.migrations).toBe('UP');
  });

  it('turns readiness DOWN while the process drains after SIGTERM; liveness stays UP', async () => {
    markDraining();
    const ready = await GET(new Request('http://console.test/api/health'));
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'DOWN', checks: { process: 'DRAINING', database: 'UP' } });
    expect((await GET(new Request('http://console.test/api/health?probe=live'))).status).toBe(200);
  });
});
