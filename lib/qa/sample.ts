import 'server-only';
import { asc, eq, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { audit } from '@/lib/audit';
import { db as defaultDb, type Db, type Tx } from '@/lib/db/client';
import { qaSampleRuns } from '@/lib/db/schema';
import { getBoss, jobDb, QUEUES } from '@/lib/jobs/boss';
import type { QaSettings } from '@/lib/qa/schema';
import { getQaSettings } from './settings';

/**
 * Sampling: each person's cases resolved (approve or decline) in one week (Monday to Monday,
 * UTC), at the manager's rate and at least the minimum, capped at what they resolved. A pg-boss
 * job runs one week person by person, one transaction each, and records its progress in
 * `qa_sample_runs`.
 *
 * The draw is deterministic per week: cases are taken in the order of md5(week, case id), so a
 * rerun (a retried job, a second click, the weekly schedule after a manual run) computes the same
 * draw, finds its target already met and adds nothing. A case is sampled at most once
 * (`qa_reviews_case_key`, `on conflict do nothing`), so concurrent runs cannot double it either.
 */

/**
 * Records a run and queues its job in the caller's transaction (both, or neither). A run of the
 * same week that has not finished is returned instead of a second one.
 */
export async function startQaSampling(
  tx: Tx,
  boss: PgBoss,
  opts: {
    week: string;
    settings: QaSettings;
    trigger: 'manual' | 'schedule';
    actor: { id: string; email: string } | null;
  },
): Promise<{ runId: string; existing: boolean }> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`qa-sample:${opts.week}`}))`);
  const [running] = await tx
    .select({ id: qaSampleRuns.id })
    .from(qaSampleRuns)
    .where(sql`${qaSampleRuns.week} = ${opts.week}::date and ${qaSampleRuns.state} in ('queued', 'running')`)
    .limit(1);
  if (running) return { runId: running.id, existing: true };
  const [run] = await tx
    .insert(qaSampleRuns)
    .values({
      week: opts.week,
      trigger: opts.trigger,
      startedBy: opts.actor?.id ?? null,
      settings: { ratePercent: opts.settings.ratePercent, minPerAnalyst: opts.settings.minPerAnalyst },
    })
    .returning({ id: qaSampleRuns.id });
  await boss.insert([{ name: QUEUES.qaSample, data: { runId: run.id } }], { db: jobDb(tx) });
  await audit(
    {
      action: 'qa.sample_start',
      actor: opts.actor,
      targetType: 'qa_run',
      targetId: run.id,
      details: { week: opts.week, trigger: opts.trigger, ...opts.settings },
    },
    tx,
  );
  return { runId: run.id, existing: false };
}

/** Starts a sampling of `week` at the stored rate (the "Sample now" button, the Monday schedule). */
export async function requestQaSampling(
  db: Db,
  opts: { week: string; trigger: 'manual' | 'schedule'; actor: { id: string; email: string } | null },
  boss?: PgBoss,
): Promise<{ runId: string; existing: boolean }> {
  const settings = await getQaSettings(db);
  const jobs = boss ?? (await getBoss());
  return db.transaction((tx) => startQaSampling(tx, jobs, { ...opts, settings }));
}

/** Runs (or re-runs) one sampling; returns how many cases it added. */
export async function runQaSampling(db: Db, runId: string): Promise<number> {
  const [run] = await db.select().from(qaSampleRuns).where(eq(qaSampleRuns.id, runId));
  if (!run || run.state === 'completed' || !run.settings) return 0;
  const { ratePercent, minPerAnalyst } = run.settings;
  const from = sql`(${run.week}::date)::timestamp at time zone 'UTC'`;
  const to = sql`(${run.week}::date + 7)::timestamp at time zone 'UTC'`;
  try {
    const people = (
      await db.execute<{ id: string }>(sql`
        select resolved_by as id from cases
        where state = 'resolved' and outcome in ('approve', 'decline') and resolved_by is not null
          and resolved_at >= ${from} and resolved_at < ${to}
        group by resolved_by order by resolved_by`)
    ).rows.map((r) => r.id);
    await db
      .update(qaSampleRuns)
      .set({ state: 'running', total: people.length, done: 0 })
      .where(eq(qaSampleRuns.id, runId));
    let sampled = 0;
    for (const [i, person] of people.entries()) {
      sampled += await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`qa-sample:${run.week}:${person}`}))`);
        const rows = await tx.execute<{ id: string; case_id: string; execution_id: string }>(sql`
          with pool as (
            select c.id, c.execution_id, c.queue_id, c.outcome, c.reason, c.comment, c.resolved_at from cases c
            where c.state = 'resolved' and c.resolved_by = ${person}::uuid and c.outcome in ('approve', 'decline')
              and c.resolved_at >= ${from} and c.resolved_at < ${to}
          ), want as (
            select least(count(*), greatest(${minPerAnalyst}::int, ceil(count(*) * ${ratePercent}::numeric / 100)))::int
              - (select count(*) from qa_reviews where week = ${run.week}::date and first_analyst_id = ${person}::uuid)::int as k
            from pool
          ), picked as (
            select p.* from pool p where not exists (select 1 from qa_reviews q where q.case_id = p.id)
            order by md5(${run.week}::text || ':' || p.id::text)
            limit (select greatest(0, k) from want)
          ), ins as (
            insert into qa_reviews (case_id, execution_id, queue_id, week, run_id, first_analyst_id,
              first_outcome, first_reason, first_comment, first_resolved_at)
            select id, execution_id, queue_id, ${run.week}::date, ${runId}::uuid, ${person}::uuid,
              outcome, reason, comment, resolved_at from picked
            on conflict (case_id) do nothing
            returning id, case_id, execution_id
          ), ev as (
            insert into case_events (case_id, execution_id, type, details)
            select case_id, execution_id, 'qa_sampled', jsonb_build_object('reviewId', id, 'week', ${run.week}::text)
            from ins
          )
          select id, case_id, execution_id from ins order by id`);
        for (const r of rows.rows)
          await audit(
            {
              action: 'qa.sampled',
              actor: null,
              targetType: 'execution',
              targetId: r.execution_id,
              // Which review and week only: the first outcome stays sealed, in the log too.
              details: { reviewId: r.id, caseId: r.case_id, week: run.week, runId },
              ip: null,
            },
            tx,
          );
        await tx
          .update(qaSampleRuns)
          .set({ done: i + 1, sampled: sql`${qaSampleRuns.sampled} + ${rows.rows.length}` })
          .where(eq(qaSampleRuns.id, runId));
        return rows.rows.length;
      });
    }
    await db
      .update(qaSampleRuns)
      .set({ state: 'completed', finishedAt: sql`now()` })
      .where(eq(qaSampleRuns.id, runId));
    return sampled;
  } catch (err) {
    await db
      .update(qaSampleRuns)
      .set({
        state: 'failed',
        finishedAt: sql`now()`,
        error: err instanceof Error ? err.message.slice(0, 300) : 'Error',
      })
      .where(eq(qaSampleRuns.id, runId));
    throw err;
  }
}

/** The newest runs, for the progress line of the quality page. */
export async function listQaRuns(d: Db = defaultDb(), limit = 5) {
  return d
    .select()
    .from(qaSampleRuns)
    .orderBy(sql`${qaSampleRuns.createdAt} desc`, asc(qaSampleRuns.id))
    .limit(limit);
}
