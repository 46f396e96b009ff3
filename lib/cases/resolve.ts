import 'server-only';
import { and, asc, eq, sql, type SQLWrapper } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import type { ActionResult } from '@/lib/auth/guards';
import { db } from '@/lib/db/client';
import { caseQueues, caseReasons, cases, executions, users } from '@/lib/db/schema';
import { emitEvent } from '@/lib/webhooks/outbox';
import { lockCase, nextCaseVersion, recordCaseEvent, STALE_MESSAGE, type CaseUser } from './claim';
import { refusable, refuse, sendFeedbackStep } from './outcome-step';
import { enforce, policed } from './policy';
import { overrideNeedsComment } from './form-rules';
import type { ResolveCaseInput } from './schema';

/**
 * Resolving and reopening a case. One transaction holds the case's row lock and writes the case,
 * its event, the audit entry and (when asked) the feedback with its delivery job
 * (lib/feedback/submit.ts, four-eyes included): all of them, or, on any refusal, nothing.
 */

/** The case arrives in a queue now (escalated, reopened): that queue's SLA runs from this moment. */
const arrivingIn = (queueId: string | SQLWrapper) => ({
  arrivedAt: sql`now()`,
  dueAt: sql`now() + make_interval(hours => (select sla_hours from case_queues where id = ${queueId}))`,
});

export interface ResolveOutcome {
  state: 'resolved' | 'open';
  version: number;
  /** The feedback stored in the same step, if any. */
  feedback?: { submissionId: string; state: string; message?: string };
}

/**
 * Resolves or escalates a case as the case policy allows (./policy.ts: the queue's role, whose
 * claim it is, never an escalation by the one who escalated it); a refusal writes nothing and a
 * forbidden one is audited.
 */
export function resolveCase(actor: CaseUser, input: ResolveCaseInput): Promise<ActionResult<ResolveOutcome>> {
  return policed(actor, () =>
    refusable(() =>
      db().transaction(async (tx) => {
        const c = await lockCase(tx, input.caseId);
        if (!c) return refuse('INVALID', 'Unknown case.', 'caseId');
        if (c.version !== input.version) return refuse('CONFLICT', STALE_MESSAGE);
        // A manager resolving a colleague's claim is allowed and recorded (`overrodeClaimOf`).
        const takenOver = enforce(actor, input.outcome === 'escalate' ? 'escalate' : 'resolve', c);
        if (takenOver && !input.confirmTakeover) {
          // Claimed since the page was drawn, or the manager did not say they act in the claimant's place.
          const [holder] = await tx.select({ name: users.name }).from(users).where(eq(users.id, takenOver));
          return refuse(
            'CONFLICT',
            `${holder?.name ?? 'Someone else'} has claimed this case: confirm that you resolve it in their place.`,
            'confirmTakeover',
          );
        }
        const [reason] = await tx
          .select({ code: caseReasons.code, outcomes: caseReasons.outcomes })
          .from(caseReasons)
          .where(and(eq(caseReasons.code, input.reason), eq(caseReasons.active, true)));
        if (!reason || !reason.outcomes.includes(input.outcome))
          return refuse('INVALID', 'Choose one of the listed reasons for this outcome.', 'reason');
        let state: 'resolved' | 'open' = 'resolved';
        let toQueue = c.queueId;
        if (input.outcome === 'escalate') {
          const [esc] = await tx
            .select({ id: caseQueues.id })
            .from(caseQueues)
            .where(and(eq(caseQueues.kind, 'escalation'), eq(caseQueues.archived, false)))
            .orderBy(asc(caseQueues.priority), asc(caseQueues.id))
            .limit(1);
          if (!esc) return refuse('INVALID', 'There is no escalation queue; ask an admin to create one.', 'outcome');
          state = 'open';
          toQueue = esc.id;
        }
        const [ex] = await tx
          .select({ decision: executions.decisionType })
          .from(executions)
          .where(eq(executions.id, c.executionId));
        const override = overrideNeedsComment(input.outcome, ex?.decision);
        if (override && !input.comment) return refuse('INVALID', override, 'comment');
        // Resolution time: from arrival in the queue it leaves to now.
        const [{ waited }] = await tx
          .select({ waited: sql<number>`greatest(0, extract(epoch from now() - ${cases.arrivedAt}))::int` })
          .from(cases)
          .where(eq(cases.id, c.id));
        const [after] = await tx
          .update(cases)
          .set(
            state === 'resolved'
              ? {
                  state,
                  outcome: input.outcome,
                  reason: input.reason,
                  comment: input.comment ?? null,
                  resolvedBy: actor.id,
                  resolvedAt: sql`now()`,
                  decisionAtOutcome: ex?.decision ?? null,
                  assigneeId: null,
                  claimedAt: null,
                  ...nextCaseVersion(),
                }
              : {
                  // Escalated: open again, unassigned, in the managers' queue, with its SLA from now.
                  state,
                  queueId: toQueue,
                  assigneeId: null,
                  claimedAt: null,
                  ...arrivingIn(toQueue),
                  ...nextCaseVersion(),
                },
          )
          .where(eq(cases.id, c.id))
          .returning({ version: cases.version });
        await recordCaseEvent(tx, c, actor, {
          type: state === 'resolved' ? 'resolved' : 'escalated',
          outcome: input.outcome,
          reason: input.reason,
          comment: input.comment ?? null,
          waitedSeconds: Number(waited),
          details: takenOver ? { overrodeClaimOf: takenOver } : null,
        });
        await audit(
          {
            action: state === 'resolved' ? 'case.resolve' : 'case.escalate',
            actor,
            targetType: 'execution',
            targetId: c.executionId,
            details: {
              caseId: c.id,
              outcome: input.outcome,
              reason: input.reason,
              ...(takenOver ? { overrodeClaimOf: takenOver } : {}),
              feedback: input.feedbackStatus ?? null,
            },
          },
          tx,
        );
        // The customer's systems learn the outcome through the outbox, in this same transaction:
        // ids, outcome, reason, queue and decision only, never personal data.
        const queueNames = new Map(
          (
            await tx
              .select({ id: caseQueues.id, name: caseQueues.name })
              .from(caseQueues)
              .where(sql`${caseQueues.id} in (${c.queueId}, ${toQueue})`)
          ).map((q) => [q.id, q.name]),
        );
        const now = new Date().toISOString();
        if (state === 'resolved')
          await emitEvent(tx, 'case.resolved', {
            caseId: c.id,
            executionId: c.executionId,
            queue: queueNames.get(c.queueId) ?? c.queueId,
            outcome: input.outcome,
            reason: input.reason,
            decision: ex?.decision ?? null,
            resolvedAt: now,
            actorUserId: actor.id,
          });
        else
          await emitEvent(tx, 'case.escalated', {
            caseId: c.id,
            executionId: c.executionId,
            queue: queueNames.get(toQueue) ?? toQueue,
            fromQueue: queueNames.get(c.queueId) ?? null,
            reason: input.reason,
            decision: ex?.decision ?? null,
            escalatedAt: now,
            actorUserId: actor.id,
          });

        const feedback = await sendFeedbackStep(tx, actor, c.executionId, input);
        return {
          ok: true as const,
          data: { state, version: after.version, feedback },
          message:
            (state === 'resolved' ? 'Resolved.' : 'Escalated to the managers.') +
            (feedback?.message ? ` ${feedback.message}` : ''),
        };
      }),
    ),
  );
}

/** Reopens a resolved case in its queue, unassigned, with a new due time; the reason is recorded. */
export async function reopenCase(
  actor: CaseUser,
  input: { caseId: string; version: number; reason: string },
): Promise<ActionResult<{ version: number }>> {
  return policed(actor, () =>
    db().transaction(async (tx) => {
      const c = await lockCase(tx, input.caseId);
      if (!c) return { ok: false as const, code: 'INVALID' as const, error: 'Unknown case.' };
      if (c.version !== input.version) return { ok: false as const, code: 'CONFLICT' as const, error: STALE_MESSAGE };
      enforce(actor, 'reopen', c);
      const [after] = await tx
        .update(cases)
        .set({
          state: 'open',
          outcome: null,
          reason: null,
          comment: null,
          resolvedBy: null,
          resolvedAt: null,
          decisionAtOutcome: null,
          ...arrivingIn(cases.queueId),
          ...nextCaseVersion(),
        })
        .where(eq(cases.id, c.id))
        .returning({ version: cases.version });
      await recordCaseEvent(tx, c, actor, {
        type: 'reopened',
        comment: input.reason,
      });
      await audit(
        {
          action: 'case.reopen',
          actor,
          targetType: 'execution',
          targetId: c.executionId,
          details: { caseId: c.id },
        },
        tx,
      );
      return { ok: true as const, data: { version: after.version }, message: 'Reopened.' };
    }),
  );
}
