import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { settings } from '@/lib/db/schema';
import { seedDemoQaHistory } from '@/lib/qa/demo';

/**
 * Demo history of case work, once per demo database: after the first backfill has brought the
 * simulator's executions (and ingest has opened their cases, all arriving "now"), this spreads
 * them over the past weeks so the queues page has something to show: about 45 % resolved by the
 * demo users (approve / decline with reasons, some against the service's decision), 10 % claimed,
 * 15 % overdue, a few escalated to the managers, the rest freshly open; and QA reviews of some of
 * the resolved ones (lib/qa/demo.ts). Each case's share is
 * chosen by a hash of its execution id, so every demo install looks alike.
 */
export const DEMO_CASES_KEY = 'cases.demo_history';

export async function seedDemoCaseHistory(db: Db): Promise<{ seeded: boolean; cases: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${DEMO_CASES_KEY}))`);
    const [done] = await tx.select().from(settings).where(eq(settings.key, DEMO_CASES_KEY));
    if (done) return { seeded: false, cases: 0 };
    const users = await tx.execute<{ id: string; email: string }>(
      sql`select id, email from users where email in ('analyst@verdict.local', 'manager@verdict.local', 'admin@verdict.local')`,
    );
    const analyst = users.rows.find((u) => u.email.startsWith('analyst'))?.id;
    const manager = users.rows.find((u) => u.email.startsWith('manager'))?.id;
    const admin = users.rows.find((u) => u.email.startsWith('admin'))?.id;
    if (!analyst || !manager) return { seeded: false, cases: 0 };

    await tx.execute(sql`create temporary table demo_cases on commit drop as
      select c.id, c.execution_id, c.queue_id, q.sla_hours, e.decision_type,
        (('x' || substr(md5(c.execution_id::text), 1, 8))::bit(32)::int & 2147483647) % 100 as r
      from cases c join case_queues q on q.id = c.queue_id join executions e on e.id = c.execution_id
      where c.state = 'open' and q.kind = 'filter'`);
    // The demo's timeline replaces the "created now" events of the cases it rewrites.
    await tx.execute(sql`delete from case_events where type = 'created' and case_id in (select id from demo_cases)`);

    // Resolved over the past six weeks.
    await tx.execute(sql`
      with d as (
        select *, now() - make_interval(days => 1 + r % 40, hours => (r * 7) % 24) as arrived,
          case when decision_type = 'REJECTED' and r % 5 <> 0 then 'decline'
               when decision_type = 'PASSED' and r % 7 = 0 then 'decline' else 'approve' end as outcome,
          case when r % 3 = 0 then ${manager}::uuid else ${analyst}::uuid end as who
        from demo_cases where r < 45
      )
      update cases c set state = 'resolved', arrived_at = d.arrived,
        due_at = d.arrived + make_interval(hours => d.sla_hours),
        resolved_at = d.arrived + make_interval(hours => 1 + (d.r * 13) % 30, mins => (d.r * 17) % 60),
        resolved_by = d.who, outcome = d.outcome, decision_at_outcome = d.decision_type,
        reason = case when d.outcome = 'decline' then 'DOCUMENT_FORGED' else 'DOCUMENT_GENUINE' end,
        comment = case when d.outcome = 'decline' then 'Demo: the document does not hold up.' end,
        version = c.version + 2
      from d where c.id = d.id`);
    // Claimed a few minutes ago (they return to the queue after CASE_CLAIM_MINUTES).
    await tx.execute(sql`
      update cases c set state = 'in_review', assignee_id = ${analyst}::uuid,
        claimed_at = now() - make_interval(mins => d.r % 20), arrived_at = now() - make_interval(hours => 1),
        due_at = now() - make_interval(hours => 1) + make_interval(hours => d.sla_hours), version = c.version + 1
      from demo_cases d where c.id = d.id and d.r >= 45 and d.r < 55`);
    // Waiting past their SLA.
    await tx.execute(sql`
      update cases c set arrived_at = now() - make_interval(hours => d.sla_hours + 2 + d.r % 30),
        due_at = now() - make_interval(hours => 2 + d.r % 30)
      from demo_cases d where c.id = d.id and d.r >= 55 and d.r < 70`);
    // Escalated to the managers.
    await tx.execute(sql`
      with esc as (select id, sla_hours from case_queues where kind = 'escalation' and not archived
                   order by priority limit 1)
      update cases c set queue_id = esc.id, arrived_at = now() - make_interval(hours => 3),
        due_at = now() - make_interval(hours => 3) + make_interval(hours => esc.sla_hours), version = c.version + 2
      from demo_cases d, esc where c.id = d.id and d.r >= 70 and d.r < 73`);
    // Fresh arrivals.
    await tx.execute(sql`
      update cases c set arrived_at = now() - make_interval(mins => (d.r * 11) % 240),
        due_at = now() - make_interval(mins => (d.r * 11) % 240) + make_interval(hours => d.sla_hours)
      from demo_cases d where c.id = d.id and d.r >= 73`);

    // Their events, at the times above.
    await tx.execute(sql`
      insert into case_events (case_id, execution_id, type, queue_id, at)
      select d.id, d.execution_id, 'created', d.queue_id, c.arrived_at
      from demo_cases d join cases c on c.id = d.id where d.r < 70 or d.r >= 73`);
    await tx.execute(sql`
      insert into case_events (case_id, execution_id, type, actor_id, queue_id, assignee_id, at)
      select c.id, c.execution_id, 'claimed', coalesce(c.resolved_by, c.assignee_id), c.queue_id,
        coalesce(c.resolved_by, c.assignee_id), coalesce(c.claimed_at, c.resolved_at - interval '20 minutes')
      from demo_cases d join cases c on c.id = d.id where d.r < 55`);
    await tx.execute(sql`
      insert into case_events (case_id, execution_id, type, actor_id, queue_id, outcome, reason, comment,
        waited_seconds, at)
      select c.id, c.execution_id, 'resolved', c.resolved_by, c.queue_id, c.outcome, c.reason, c.comment,
        extract(epoch from c.resolved_at - c.arrived_at)::int, c.resolved_at
      from demo_cases d join cases c on c.id = d.id where d.r < 45`);
    await tx.execute(sql`
      insert into case_events (case_id, execution_id, type, actor_id, queue_id, outcome, reason, comment, at)
      select c.id, c.execution_id, 'escalated', ${analyst}::uuid, d.queue_id, 'escalate', 'NEEDS_SENIOR_REVIEW',
        'Demo: needs a second look.', c.arrived_at
      from demo_cases d join cases c on c.id = d.id where d.r >= 70 and d.r < 73`);
    // QA reviews of some of those resolutions, so the quality page has weeks to show.
    if (admin) await seedDemoQaHistory(tx, { analyst, manager, admin });
    const [{ n }] = (await tx.execute<{ n: number }>(sql`select count(*)::int as n from demo_cases`)).rows;
    await tx.insert(settings).values({ key: DEMO_CASES_KEY, value: { at: new Date().toISOString(), cases: n } });
    return { seeded: true, cases: n };
  });
}

/**
 * In demo mode, waits for the first backfill to complete, then seeds the history once. Returns
 * a stop function for the shutdown of `npm start`.
 */
export function startDemoCaseHistory(db: Db, log: (s: string) => void): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    if (stopped) return;
    try {
      const r = await db.execute<{ n: number }>(
        sql`select count(*)::int as n from sync_runs where kind = 'backfill' and state = 'completed'`,
      );
      if (r.rows[0].n > 0) {
        const out = await seedDemoCaseHistory(db);
        if (out.seeded) log(`Demo case history: ${out.cases} cases spread over the past weeks.`);
        return;
      }
    } catch (err) {
      log(`Demo case history not seeded yet (${err instanceof Error ? err.name : 'error'}); trying again.`);
    }
    if (!stopped) timer = setTimeout(() => void tick(), 5000);
  };
  timer = setTimeout(() => void tick(), 2000);
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
