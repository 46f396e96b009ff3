import 'server-only';
import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { caseQueues, cases } from '@/lib/db/schema';
import { CLAIM_LAPSE_WARN_MINUTES, SLA_NEAR_MINUTES } from '@/lib/notifications/kinds';
import { notify, type Notice } from '@/lib/notifications/notify';
import { claimMinutes } from './claim';

/**
 * The time-based notices, run every minute by the worker: a claim about to lapse (untouched for
 * CASE_CLAIM_MINUTES minus CLAIM_LAPSE_WARN_MINUTES) and a held case due within SLA_NEAR_MINUTES,
 * each told to the case's holder. Each is sent once: its key names the claim's start or the due
 * time it warns of, so a touched claim that nears lapsing again is a new occurrence, a run that
 * finds the same one again writes nothing (the notices' unique key), and a worker that was down
 * catches up at its next run. Unassigned cases tell nobody: the queues page shows them.
 */
export async function sendCaseReminders(
  db: Db,
  minutes = claimMinutes(),
): Promise<{ claimLapse: number; slaNear: number }> {
  const warnAfter = Math.max(minutes - CLAIM_LAPSE_WARN_MINUTES, 0);
  const out = { claimLapse: 0, slaNear: 0 };
  const lapsing = await db.execute<{ id: string; execution_id: string; assignee_id: string; claimed_at: string }>(sql`
    select id, execution_id, assignee_id, claimed_at::text from ${cases}
    where state = 'in_review' and claimed_at < now() - make_interval(mins => ${warnAfter})
      and claimed_at >= now() - make_interval(mins => ${minutes})
    order by claimed_at limit 500`);
  const nearing = await db.execute<{
    id: string;
    execution_id: string;
    assignee_id: string;
    due_at: string;
    queue: string;
  }>(sql`
    select c.id, c.execution_id, c.assignee_id, c.due_at::text, q.name as queue
    from ${cases} c join ${caseQueues} q on q.id = c.queue_id
    where c.state = 'in_review' and c.due_at > now() and c.due_at <= now() + make_interval(mins => ${SLA_NEAR_MINUTES})
    order by c.due_at limit 500`);
  for (const c of lapsing.rows) out.claimLapse += await remindHolder(db, c, 'claim_lapse', c.claimed_at, { minutes });
  for (const c of nearing.rows)
    out.slaNear += await remindHolder(db, c, 'sla_near', c.due_at, { queue: c.queue, dueAt: c.due_at });
  return out;
}

/** Tells the case's holder once per `kind` and `moment` (the claim's start or the due time it warns of). */
function remindHolder(
  db: Db,
  c: { id: string; execution_id: string; assignee_id: string },
  kind: 'claim_lapse' | 'sla_near',
  moment: string,
  details: Notice['details'],
): Promise<number> {
  return db.transaction((tx) =>
    notify(tx, {
      kind,
      to: [c.assignee_id],
      executionId: c.execution_id,
      caseId: c.id,
      onceKey: `${kind}:${c.id}:${moment}`,
      details,
    }),
  );
}
