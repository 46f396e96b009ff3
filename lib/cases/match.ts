import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@/lib/db/client';
import { auditLog, caseEvents, caseQueues, cases, executions, type CaseEventType } from '@/lib/db/schema';
import { parseQueueDefinition } from '@/lib/executions/list-params';
import { listWhere } from '@/lib/executions/where';

/**
 * Queue matching: which queue an execution's case belongs in. Ingest runs it in the transaction
 * that writes the executions (lib/sync/ingest.ts), and the re-match job (./rematch.ts) after a
 * queue changed, so both follow one rule:
 *
 * - the case goes to the first active filter queue (by priority) whose definition selects the
 *   execution; the definition is compiled by the list's own WHERE builder;
 * - no case yet and a match: a case is opened (`created`);
 * - an unresolved case whose match changed moves (`requeued`), keeping its arrival time;
 * - an open, unclaimed case that matches nothing any more is withdrawn (deleted: nobody worked
 *   on it; the audit log keeps the fact); a claimed one stays where it is;
 * - resolved cases and escalated ones (in an escalation queue) are never touched: a resolved
 *   case stays resolved unless someone reopens it.
 * Idempotent: matching the same executions again changes nothing. No 'server-only' marker:
 * ingest runs in the worker, scripts and the browser tests' seeding too.
 */

export interface MatchQueue {
  id: string;
  slaHours: number;
  where: SQL | undefined;
}

/** Active filter queues in priority order, with their definitions compiled. */
export async function matchQueues(d: DbOrTx): Promise<MatchQueue[]> {
  const rows = await d
    .select({ id: caseQueues.id, slaHours: caseQueues.slaHours, definition: caseQueues.definition })
    .from(caseQueues)
    .where(and(eq(caseQueues.archived, false), eq(caseQueues.kind, 'filter')))
    .orderBy(asc(caseQueues.priority), asc(caseQueues.sortOrder), asc(caseQueues.createdAt), asc(caseQueues.id));
  return rows.map((q) => ({ id: q.id, slaHours: q.slaHours, where: listWhere(parseQueueDefinition(q.definition)) }));
}

export interface MatchResult {
  created: number;
  requeued: number;
  withdrawn: string[];
}

/** Matches the given executions (already written in `tx`) to queues; see the file comment. */
export async function matchCases(tx: Tx, executionIds: string[], queues?: MatchQueue[]): Promise<MatchResult> {
  const result: MatchResult = { created: 0, requeued: 0, withdrawn: [] };
  if (!executionIds.length) return result;
  const qs = queues ?? (await matchQueues(tx));
  const ids = sql`${sql.param(executionIds)}::uuid[]`;

  // The first matching queue of each execution, in one statement.
  const target = new Map<string, string>();
  if (qs.length) {
    const pick = sql.join(
      qs.map((q) => sql`when ${q.where ?? sql`true`} then ${q.id}::uuid`),
      sql` `,
    );
    const rows = await tx.execute<{ id: string; queue_id: string | null }>(
      sql`select ${executions.id} as id, case ${pick} end as queue_id from ${executions} where ${executions.id} = any(${ids})`,
    );
    for (const r of rows.rows) if (r.queue_id) target.set(r.id, r.queue_id);
  }

  const existing = await tx.execute<{
    id: string;
    execution_id: string;
    queue_id: string;
    state: string;
    kind: string;
    archived: boolean;
  }>(
    sql`select c.id, c.execution_id, c.queue_id, c.state, q.kind, q.archived
        from ${cases} c join ${caseQueues} q on q.id = c.queue_id
        where c.execution_id = any(${ids}) for update of c`,
  );
  const byExecution = new Map(existing.rows.map((r) => [r.execution_id, r]));
  const sla = new Map(qs.map((q) => [q.id, q.slaHours]));

  const inserts: Array<{ executionId: string; queueId: string }> = [];
  const moves: Array<{ caseId: string; executionId: string; from: string; to: string }> = [];
  const withdraw: Array<{ caseId: string; executionId: string; queueId: string }> = [];
  for (const executionId of new Set(executionIds)) {
    const want = target.get(executionId);
    const c = byExecution.get(executionId);
    if (!c) {
      if (want) inserts.push({ executionId, queueId: want });
      continue;
    }
    if (c.state === 'resolved' || (c.kind === 'escalation' && !c.archived)) continue;
    if (want && want !== c.queue_id) moves.push({ caseId: c.id, executionId, from: c.queue_id, to: want });
    else if (!want && c.state === 'open') withdraw.push({ caseId: c.id, executionId, queueId: c.queue_id });
  }

  const events: Array<typeof caseEvents.$inferInsert> = [];
  const event = (caseId: string, executionId: string, type: CaseEventType, queueId: string, details?: object) =>
    events.push({ caseId, executionId, type, queueId, details: (details as Record<string, unknown>) ?? null });

  if (inserts.length) {
    const made = await tx
      .insert(cases)
      .values(
        inserts.map((i) => ({
          executionId: i.executionId,
          queueId: i.queueId,
          dueAt: sql`now() + make_interval(hours => ${sla.get(i.queueId)!})`,
        })),
      )
      .onConflictDoNothing({ target: cases.executionId })
      .returning({ id: cases.id, executionId: cases.executionId, queueId: cases.queueId });
    for (const m of made) event(m.id, m.executionId, 'created', m.queueId);
    result.created = made.length;
  }
  for (const m of moves) {
    await tx
      .update(cases)
      .set({
        queueId: m.to,
        dueAt: sql`${cases.arrivedAt} + make_interval(hours => ${sla.get(m.to)!})`,
        version: sql`${cases.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(cases.id, m.caseId));
    event(m.caseId, m.executionId, 'requeued', m.to, { from: m.from });
  }
  result.requeued = moves.length;
  if (withdraw.length) {
    await tx.delete(cases).where(
      inArray(
        cases.id,
        withdraw.map((w) => w.caseId),
      ),
    );
    result.withdrawn = withdraw.map((w) => w.executionId);
    // Written directly, not through lib/audit.ts: ingest runs outside any request (workers,
    // scripts, the browser tests' seeding), where there is no actor and no client address.
    await tx.insert(auditLog).values(
      withdraw.map((w) => ({
        action: 'case.withdrawn',
        targetType: 'execution',
        targetId: w.executionId,
        outcome: 'success' as const,
        details: { caseId: w.caseId, queueId: w.queueId },
      })),
    );
  }
  if (events.length) await tx.insert(caseEvents).values(events);
  return result;
}
