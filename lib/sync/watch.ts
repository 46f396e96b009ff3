import 'server-only';
import { sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import type { Db } from '@/lib/db/client';
import { webhookAnnouncements } from '@/lib/db/schema';
import { QUEUES } from '@/lib/jobs/boss';
import { spikeAlertsBetween } from '@/lib/trends/alerts';
import { SERVICE_COUNT_KEY } from '@/lib/sync/runs';
import { addDays, isoDay, type SpikeAlert } from '@/lib/trends/shared';
import { emitEvent } from '@/lib/webhooks/outbox';

/**
 * Things that become webhooks by being noticed rather than done: a spike alert that appears,
 * and a sync that is stuck or cannot reach the service. The worker runs both every minute. Each
 * thing has a key in `webhook_announcements`; the key and the event are written in one
 * transaction, so each is announced exactly once, however many workers look.
 */

/** Announces once in `key`'s name, in one transaction; true when this call announced it. */
async function announceOnce(
  database: Db,
  key: string,
  emit: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<string>,
) {
  return database.transaction(async (tx) => {
    const r = await tx
      .insert(webhookAnnouncements)
      .values({ key })
      .onConflictDoNothing()
      .returning({ key: webhookAnnouncements.key });
    if (!r.length) return false;
    const eventId = await emit(tx);
    await tx.execute(sql`update webhook_announcements set event_id = ${eventId} where key = ${key}`);
    return true;
  });
}

export const spikeKey = (a: SpikeAlert) =>
  `trend.spike:${a.day}:${a.kind}:${a.capability ?? ''}:${a.decisionType ?? ''}:${a.label ?? ''}`;

/**
 * Spike alerts of the last `days` days (today included: a day's spike can appear as its
 * executions arrive, and late ones land on the day before) that were never announced.
 */
export async function announceSpikes(database: Db, opts: { now?: Date; days?: number } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const to = isoDay(now);
  const alerts = await spikeAlertsBetween(database, addDays(to, -((opts.days ?? 3) - 1)), to);
  let n = 0;
  for (const a of alerts) {
    const key = spikeKey(a);
    const sent = await announceOnce(database, key, (tx) =>
      emitEvent(tx, 'trend.spike', {
        alertId: key,
        day: a.day,
        kind: a.kind,
        capability: a.capability || null,
        decision: a.decisionType || null,
        label: a.label || null,
        count: a.n,
        total: a.total,
        rate: a.rate,
        baselineMean: a.mean,
        baselineSd: a.sd,
        baselineDays: a.baselineDays,
        detectedAt: now.toISOString(),
      }),
    );
    if (sent) n++;
  }
  return n;
}

/**
 * `sync.failed`, once per incident:
 * - stuck: an open backfill, reconciliation or poll without progress (no page, no lease renewal)
 *   for `thresholdMinutes` (failed runs stay open to resume, so a failed run counts too);
 * - unreachable: the service has not answered the sync (a walk's or the poll's count of its
 *   executions, lib/sync/runs.ts) for `thresholdMinutes`. The poll asks every SYNC_POLL_MINUTES,
 *   so the setting should be longer than that. Once per last answer: the next outage is a new one.
 */
export async function announceSyncFailures(
  database: Db,
  thresholdMinutes: number,
  opts: { now?: Date } = {},
): Promise<number> {
  const now = opts.now ?? new Date();
  const cutoff = new Date(now.getTime() - thresholdMinutes * 60_000).toISOString();
  let n = 0;
  const stuck = await database.execute<{ id: string; kind: string; error: string | null; updated_at: string }>(sql`
    select id, kind, error, updated_at from sync_runs
     where finished_at is null and updated_at < ${cutoff}
     order by id limit 20`);
  for (const r of stuck.rows) {
    const sent = await announceOnce(database, `sync.failed:run:${r.id}`, (tx) =>
      emitEvent(tx, 'sync.failed', {
        reason: 'stuck',
        runId: Number(r.id),
        runKind: r.kind,
        since: new Date(r.updated_at).toISOString(),
        error: r.error?.slice(0, 300) ?? null,
        thresholdMinutes,
        detectedAt: now.toISOString(),
      }),
    );
    if (sent) n++;
  }
  const contact = await database.execute<{ at: string | null }>(
    sql`select value->>'at' as at from settings where key = ${SERVICE_COUNT_KEY}`,
  );
  const last = contact.rows[0]?.at;
  if (last && last < cutoff) {
    const failing = await database.execute<{ error: string | null }>(sql`
      select error from sync_failures where resolved_at is null order by last_at desc limit 1`);
    const sent = await announceOnce(database, `sync.failed:unreachable:${last}`, (tx) =>
      emitEvent(tx, 'sync.failed', {
        reason: 'unreachable',
        runId: null,
        runKind: null,
        since: new Date(last).toISOString(),
        error: failing.rows[0]?.error?.slice(0, 300) ?? null,
        thresholdMinutes,
        detectedAt: now.toISOString(),
      }),
    );
    if (sent) n++;
  }
  return n;
}

/**
 * The minute's watch on a started pg-boss: spikes of the trends and sync incidents become
 * events (a pg-boss schedule: one run per minute across all workers), on the database it is given.
 */
export async function registerWatchWorker(
  boss: PgBoss,
  options: { db: Db; syncFailedAfterMinutes: number },
): Promise<string> {
  await boss.schedule(QUEUES.webhookWatch, '* * * * *');
  return boss.work(QUEUES.webhookWatch, async () => {
    await announceSpikes(options.db);
    await announceSyncFailures(options.db, options.syncFailedAfterMinutes);
  });
}
