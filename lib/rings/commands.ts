import 'server-only';
import { sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import type { ActionResult, SessionUser } from '@/lib/auth/guards';
import { db } from '@/lib/db/client';
import { BULK_MAX } from '@/lib/feedback/schema';
import { submitBulkFeedback, type BulkOutcome } from '@/lib/feedback/submit';
import type { DismissRingInput, LabelRingInput, RingIdInput } from './schema';

/**
 * What an analyst does to a whole ring. The members always come from the database, never from
 * the form: a ring that changed since the page was drawn is acted on as it is now, and the
 * confirmation's versions catch a member added in between. Every step is audited with the ring id.
 */

export const RINGS_QUEUE = 'Rings';

async function memberIds(ringId: number): Promise<string[]> {
  const r = await db().execute<{ execution_id: string }>(
    sql`select execution_id from ring_members where ring_id = ${ringId} order by execution_id`,
  );
  return r.rows.map((x) => x.execution_id);
}

const NOT_FOUND = {
  ok: false as const,
  code: 'INVALID' as const,
  error: 'This ring no longer exists: it merged or fell apart. Reload the page.',
};

/** FRAUD for every member through the feedback pipeline (four-eyes, blast radius, delivery as for one label). */
export async function labelRing(user: SessionUser, input: LabelRingInput): Promise<ActionResult<BulkOutcome>> {
  const ids = await memberIds(input.ringId);
  if (!ids.length) return NOT_FOUND;
  if (ids.length > BULK_MAX)
    return {
      ok: false,
      code: 'INVALID',
      error: `This ring has more than ${BULK_MAX} members; label it from the list in parts.`,
    };
  const r = await submitBulkFeedback(user, {
    executionIds: ids,
    status: 'FRAUD',
    reason: input.reason,
    note: input.note,
    versions: input.versions,
    idempotencyKey: input.idempotencyKey,
  });
  await audit({
    action: 'ring.label',
    actor: user,
    targetType: 'ring',
    targetId: String(input.ringId),
    outcome: r.ok ? 'success' : 'failure',
    details: {
      members: ids.length,
      reason: input.reason,
      ...(r.ok ? { batchId: r.data.batchId } : { error: r.error }),
    },
  });
  if (r.ok)
    await db().execute(sql`update rings set status = 'labelled', updated_at = now() where id = ${input.ringId}`);
  return r;
}

/** Opens a case in the Rings queue for each member nobody has labelled or opened a case for yet. */
export async function openRingCases(user: SessionUser, input: RingIdInput): Promise<ActionResult<{ opened: number }>> {
  return db().transaction(async (tx) => {
    const ring = await tx.execute(sql`select 1 from rings where id = ${input.ringId} for update`);
    if (!ring.rows.length) return NOT_FOUND;
    // An escalation-kind queue: queue matching never withdraws or moves its cases (lib/cases/match.ts).
    await tx.execute(sql`
      insert into case_queues (name, priority, sla_hours, kind, sort_order)
      values (${RINGS_QUEUE}, 50, 24, 'escalation', 50) on conflict do nothing`);
    const opened = await tx.execute<{ id: string; execution_id: string; queue_id: string }>(sql`
      with q as (select id from case_queues where lower(name) = lower(${RINGS_QUEUE}))
      insert into cases (execution_id, queue_id, due_at)
      select m.execution_id, q.id, now() + interval '24 hours'
      from ring_members m cross join q join executions e on e.id = m.execution_id
      where m.ring_id = ${input.ringId} and e.feedback_status is distinct from 'FRAUD'
        and e.feedback_status is distinct from 'NOT_FRAUD'
        and not exists (select 1 from cases c where c.execution_id = m.execution_id)
      on conflict do nothing
      returning id, execution_id, queue_id`);
    if (opened.rows.length)
      await tx.execute(sql`
        insert into case_events (case_id, execution_id, type, actor_id, queue_id, reason)
        select x.id, x.execution_id, 'created', ${user.id}::uuid, x.queue_id, ${`ring ${input.ringId}`}
        from unnest(${sql.param(opened.rows.map((r) => r.id))}::uuid[], ${sql.param(opened.rows.map((r) => r.execution_id))}::uuid[],
          ${sql.param(opened.rows.map((r) => r.queue_id))}::uuid[]) as x(id, execution_id, queue_id)`);
    await audit(
      {
        action: 'ring.open_cases',
        actor: user,
        targetType: 'ring',
        targetId: String(input.ringId),
        outcome: 'success',
        details: { opened: opened.rows.length, queue: RINGS_QUEUE },
      },
      tx,
    );
    return { ok: true as const, data: { opened: opened.rows.length } };
  });
}

/** Dismisses the ring: it leaves the open list until it grows past its size now. */
export async function dismissRing(user: SessionUser, input: DismissRingInput): Promise<ActionResult<{ size: number }>> {
  return db().transaction(async (tx) => {
    const r = await tx.execute<{ size: number }>(sql`
      update rings set status = 'dismissed', dismissed_size = size, dismissed_reason = ${input.reason}, updated_at = now()
      where id = ${input.ringId} returning size`);
    if (!r.rows.length) return NOT_FOUND;
    await audit(
      {
        action: 'ring.dismiss',
        actor: user,
        targetType: 'ring',
        targetId: String(input.ringId),
        outcome: 'success',
        details: { reason: input.reason, size: r.rows[0].size },
      },
      tx,
    );
    return { ok: true as const, data: { size: r.rows[0].size } };
  });
}
