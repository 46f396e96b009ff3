import 'server-only';
import { sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { db } from '@/lib/db/client';
import { enqueueWebhookJobs } from './deliver';

/**
 * The outbox relay: turns due `pending` deliveries into pg-boss jobs (in one transaction with
 * the state change, so a job exists exactly when the row says `queued`), and rescues the ones
 * whose job went missing: `queued` for more than two minutes past their time (a purged or
 * crashed job), or `delivering` past the lease (a worker that died mid-request). The claim in
 * deliver.ts keeps a rescued delivery from ever being sent twice at once. Several workers may
 * pump together: rows are taken with SKIP LOCKED.
 */
export async function pumpWebhooks(boss: PgBoss, limit = 500): Promise<number> {
  return db().transaction(async (tx) => {
    const r = await tx.execute<{ id: string }>(sql`
      update webhook_deliveries d
         set state = 'queued', next_attempt_at = now(), lease_until = null
       where d.id in (
         select id from webhook_deliveries
          where (state = 'pending' and next_attempt_at <= now())
             or (state = 'queued' and next_attempt_at < now() - interval '2 minutes')
             or (state = 'delivering' and lease_until < now())
          order by next_attempt_at
          limit ${limit}
          for update skip locked)
      returning d.id`);
    await enqueueWebhookJobs(
      tx,
      boss,
      r.rows.map((x) => Number(x.id)),
    );
    return r.rows.length;
  });
}
