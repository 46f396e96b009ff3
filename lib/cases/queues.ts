import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import type { ActionResult } from '@/lib/auth/guards';
import { db, type Tx } from '@/lib/db/client';
import { caseQueues, cases } from '@/lib/db/schema';
import { parseListParams, queueDefinitionOf } from '@/lib/executions/list-params';
import { getBoss } from '@/lib/jobs/boss';
import type { CaseUser } from './claim';
import { startRematch } from './rematch';

/**
 * Queues (managers and admins): create, change, archive, reorder. Every change that can move
 * cases starts a re-match run in the same transaction (./rematch.ts). A definition is stored in
 * its canonical form: the list's own parse and serialization, execution filters only.
 */

export interface QueueInput {
  name: string;
  priority: number;
  slaHours: number;
  definition: string;
  minRole: 'analyst' | 'manager';
}

const canonical = (definition: string) => queueDefinitionOf(parseListParams(new URLSearchParams(definition)));

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return (e.code ?? e.cause?.code) === '23505';
};

async function withNameCheck<T>(name: string, fn: () => Promise<ActionResult<T>>): Promise<ActionResult<T>> {
  try {
    return await fn();
  } catch (err) {
    if (isUniqueViolation(err))
      return {
        ok: false,
        code: 'CONFLICT',
        error: `A queue named "${name}" exists already.`,
        fieldErrors: { name: ['This name is taken.'] },
      };
    throw err;
  }
}

export async function createQueue(
  actor: CaseUser,
  input: QueueInput,
): Promise<ActionResult<{ queueId: string; runId: string }>> {
  const boss = await getBoss();
  return withNameCheck(input.name, () =>
    db().transaction(async (tx) => {
      const [{ next }] = await tx
        .select({ next: sql<number>`coalesce(max(${caseQueues.sortOrder}), 0) + 1` })
        .from(caseQueues);
      const [q] = await tx
        .insert(caseQueues)
        .values({
          name: input.name,
          priority: input.priority,
          slaHours: input.slaHours,
          definition: canonical(input.definition),
          minRole: input.minRole,
          sortOrder: next,
          createdBy: actor.id,
        })
        .returning({ id: caseQueues.id, definition: caseQueues.definition });
      const runId = await startRematch(tx, boss, { queueId: q.id, startedBy: actor.id });
      await audit(
        {
          action: 'queue.create',
          actor,
          targetType: 'queue',
          targetId: q.id,
          details: { ...input, definition: q.definition },
        },
        tx,
      );
      return {
        ok: true as const,
        data: { queueId: q.id, runId },
        message: `Queue "${input.name}" created; matching executions now.`,
      };
    }),
  );
}

async function lockQueue(tx: Tx, id: string) {
  const [q] = await tx.select().from(caseQueues).where(eq(caseQueues.id, id)).for('update');
  return q;
}

export async function updateQueue(
  actor: CaseUser,
  input: QueueInput & { queueId: string },
): Promise<ActionResult<{ runId: string }>> {
  const boss = await getBoss();
  return withNameCheck(input.name, () =>
    db().transaction(async (tx) => {
      const q = await lockQueue(tx, input.queueId);
      if (!q) return { ok: false as const, code: 'INVALID' as const, error: 'Unknown queue.' };
      const definition = q.kind === 'escalation' ? '' : canonical(input.definition);
      await tx
        .update(caseQueues)
        .set({
          name: input.name,
          priority: input.priority,
          slaHours: input.slaHours,
          definition,
          minRole: input.minRole,
          updatedAt: sql`now()`,
        })
        .where(eq(caseQueues.id, q.id));
      if (q.slaHours !== input.slaHours)
        await tx
          .update(cases)
          .set({
            dueAt: sql`${cases.arrivedAt} + make_interval(hours => ${input.slaHours})`,
            version: sql`${cases.version} + 1`,
          })
          .where(and(eq(cases.queueId, q.id), sql`${cases.state} <> 'resolved'`));
      const runId = await startRematch(tx, boss, { queueId: q.id, startedBy: actor.id });
      await audit(
        {
          action: 'queue.update',
          actor,
          targetType: 'queue',
          targetId: q.id,
          details: {
            before: { name: q.name, priority: q.priority, slaHours: q.slaHours, definition: q.definition },
            after: { ...input, definition },
          },
        },
        tx,
      );
      return { ok: true as const, data: { runId }, message: 'Queue saved; matching executions again.' };
    }),
  );
}

export async function archiveQueue(
  actor: CaseUser,
  input: { queueId: string; archived: boolean },
): Promise<ActionResult<{ runId: string | null }>> {
  const boss = await getBoss();
  return db().transaction(async (tx) => {
    const q = await lockQueue(tx, input.queueId);
    if (!q) return { ok: false as const, code: 'INVALID' as const, error: 'Unknown queue.' };
    if (q.archived === input.archived) return { ok: true as const, data: { runId: null } };
    await tx
      .update(caseQueues)
      .set({ archived: input.archived, updatedAt: sql`now()` })
      .where(eq(caseQueues.id, q.id));
    const runId = await startRematch(tx, boss, { queueId: q.id, startedBy: actor.id });
    await audit(
      {
        action: input.archived ? 'queue.archive' : 'queue.restore',
        actor,
        targetType: 'queue',
        targetId: q.id,
      },
      tx,
    );
    return {
      ok: true as const,
      data: { runId },
      message: input.archived ? `"${q.name}" archived; its cases move to other queues.` : `"${q.name}" restored.`,
    };
  });
}

/** The queues page's display order (claims follow priority, not this order). */
export async function reorderQueues(actor: CaseUser, input: { queueIds: string[] }): Promise<ActionResult<null>> {
  return db().transaction(async (tx) => {
    const known = await tx.select({ id: caseQueues.id }).from(caseQueues).where(inArray(caseQueues.id, input.queueIds));
    if (known.length !== new Set(input.queueIds).size)
      return { ok: false as const, code: 'INVALID' as const, error: 'Unknown queue.' };
    for (const [i, id] of input.queueIds.entries())
      await tx
        .update(caseQueues)
        .set({ sortOrder: i + 1 })
        .where(eq(caseQueues.id, id));
    await audit({ action: 'queue.reorder', actor, targetType: 'queue', details: { order: input.queueIds } }, tx);
    return { ok: true as const, data: null };
  });
}
