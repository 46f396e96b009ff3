import 'server-only';
import { sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import type { Db } from '@/lib/db/client';
import { claimDue, leaseCleared } from '@/lib/jobs/lease';
import { deliveries, enqueueWebhookJobs } from './deliver';

/**
 * The outbox relay: turns due `pending` deliveries into pg-boss jobs (in one transaction with
 * the state change, so a job exists exactly when the row says `queued`), and rescues the ones
 * whose job went missing: `queued` for more than two minutes past their time (a purged or
 * crashed job), or `delivering` past the lease (a worker that died mid-request). The claim in
 * deliver.ts keeps a rescued delivery from ever being sent twice at once. Several workers may
 * pump together: rows are taken with SKIP LOCKED (lib/jobs/lease.ts). The pump hands rows on to
 * the queue rather than working them, so it takes them without a lease of its own.
 */
export async function pumpWebhooks(db: Db, boss: PgBoss, limit = 500): Promise<number> {
  return db.transaction(async (tx) => {
    // The pump reads lapsed leases and stamps none, so the lease's length plays no part here.
    const t = deliveries(0);
    const rows = await claimDue<{ id: string }>(tx, t, {
      due: sql`(state = 'pending' and next_attempt_at <= now())
            or (state = 'queued' and next_attempt_at < now() - interval '2 minutes')`,
      orderBy: sql`next_attempt_at`,
      limit,
      lease: false,
      set: sql`state = 'queued', next_attempt_at = now(), ${leaseCleared(t)}`,
      returning: sql`id`,
    });
    await enqueueWebhookJobs(
      tx,
      boss,
      rows.map((x) => Number(x.id)),
    );
    return rows.length;
  });
}
