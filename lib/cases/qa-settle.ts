import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import type { ActionResult } from '@/lib/auth/guards';
import { lockCase, nextCaseVersion, recordCaseEvent, STALE_MESSAGE, type CaseUser } from '@/lib/cases/claim';
import { refusable, refuse, sendFeedbackStep } from '@/lib/cases/outcome-step';
import { db } from '@/lib/db/client';
import { caseQueues, caseReasons, cases, executions, qaReviews } from '@/lib/db/schema';
import { latestSubmissionsOf } from '@/lib/feedback/store';
import { emitEvent } from '@/lib/webhooks/outbox';
import { lockQaReview } from '@/lib/cases/qa-review';
import type { SettleQaReviewInput } from '@/lib/cases/qa-schema';
import type { QaOutcome } from '@/lib/db/qa-states';

/**
 * A manager settles a disagreement: the final outcome, with a reason and a comment. The settled
 * outcome is the one sent onward. When it differs from the case's outcome, the case takes it (a
 * `qa_settled` event) and `case.resolved` goes out again with it; when the execution's FRAUD /
 * NOT_FRAUD label says the opposite, the corrected label must go with the settlement, through the
 * feedback pipeline (four-eyes and delivery as usual). One transaction: the review, the case, its
 * event, the feedback and its job, the webhook outbox and the audit entry, or, on any refusal,
 * nothing.
 */

/** The label that contradicts an outcome: approving a case labelled Fraud, declining one labelled Not fraud. */
const CONTRADICTS: Record<QaOutcome, string> = { approve: 'FRAUD', decline: 'NOT_FRAUD' };

export interface SettleOutcome {
  version: number;
  /** The case's outcome changed (and `case.resolved` went out again). */
  changed: boolean;
  feedback?: { submissionId: string; state: string };
}

export function settleQaReview(actor: CaseUser, input: SettleQaReviewInput): Promise<ActionResult<SettleOutcome>> {
  return refusable(() =>
    db().transaction(async (tx) => {
      const r = await lockQaReview(tx, input.reviewId);
      if (!r) return refuse('INVALID', 'Unknown QA review.', 'reviewId');
      if (r.version !== input.version) return refuse('CONFLICT', STALE_MESSAGE);
      if (r.state !== 'disputed')
        return refuse(
          'CONFLICT',
          r.state === 'settled' ? 'This disagreement is already settled.' : 'There is no disagreement to settle.',
        );
      if (actor.id === r.firstAnalystId || actor.id === r.reviewerId)
        return refuse('FORBIDDEN', 'You took part in this review: another manager settles it.');
      const [reason] = await tx
        .select({ outcomes: caseReasons.outcomes })
        .from(caseReasons)
        .where(and(eq(caseReasons.code, input.reason), eq(caseReasons.active, true)));
      if (!reason || !reason.outcomes.includes(input.outcome))
        return refuse('INVALID', 'Choose one of the listed reasons for this outcome.', 'reason');
      const c = await lockCase(tx, r.caseId);
      if (!c || c.state !== 'resolved')
        return refuse('CONFLICT', 'The case was reopened since it was sampled; settle it after it is resolved again.');
      const [kase] = await tx.select({ outcome: cases.outcome }).from(cases).where(eq(cases.id, c.id));
      const changed = kase.outcome !== input.outcome;

      const label =
        (await latestSubmissionsOf(tx, [r.executionId], { effective: true })).get(r.executionId)?.status ??
        (await tx.select({ s: executions.feedbackStatus }).from(executions).where(eq(executions.id, r.executionId)))[0]
          ?.s;
      const sent = input.feedbackStatus ?? label;
      if (sent === CONTRADICTS[input.outcome])
        return refuse(
          'INVALID',
          `The execution is labelled ${sent === 'FRAUD' ? 'Fraud' : 'Not fraud'}: send the corrected label with the settlement.`,
          'feedbackStatus',
        );

      const [after] = await tx
        .update(qaReviews)
        .set({
          state: 'settled',
          settledBy: actor.id,
          settledOutcome: input.outcome,
          settledReason: input.reason,
          settledComment: input.comment,
          settledAt: sql`now()`,
          version: sql`${qaReviews.version} + 1`,
        })
        .where(eq(qaReviews.id, r.id))
        .returning({ version: qaReviews.version });
      if (changed) {
        await tx
          .update(cases)
          .set({
            outcome: input.outcome,
            reason: input.reason,
            comment: input.comment,
            ...nextCaseVersion(),
          })
          .where(eq(cases.id, c.id));
        const [meta] = await tx
          .select({ queue: caseQueues.name, decision: executions.decisionType })
          .from(cases)
          .innerJoin(caseQueues, eq(caseQueues.id, cases.queueId))
          .innerJoin(executions, eq(executions.id, cases.executionId))
          .where(eq(cases.id, c.id));
        await emitEvent(tx, 'case.resolved', {
          caseId: c.id,
          executionId: c.executionId,
          queue: meta?.queue ?? c.queueId,
          outcome: input.outcome,
          reason: input.reason,
          decision: meta?.decision ?? null,
          resolvedAt: new Date().toISOString(),
          actorUserId: actor.id,
        });
      }
      await recordCaseEvent(tx, c, actor, {
        type: 'qa_settled',
        outcome: input.outcome,
        reason: input.reason,
        comment: input.comment,
        details: { reviewId: r.id, firstOutcome: r.firstOutcome, reviewOutcome: r.reviewOutcome, changed },
      });
      const step = await sendFeedbackStep(tx, actor, r.executionId, input);
      const feedback: SettleOutcome['feedback'] = step && { submissionId: step.submissionId, state: step.state };
      await audit(
        {
          action: 'qa.settle',
          actor,
          targetType: 'execution',
          targetId: r.executionId,
          details: {
            reviewId: r.id,
            caseId: c.id,
            outcome: input.outcome,
            reason: input.reason,
            firstOutcome: r.firstOutcome,
            reviewOutcome: r.reviewOutcome,
            changed,
            feedback: input.feedbackStatus ?? null,
          },
        },
        tx,
      );
      return {
        ok: true as const,
        data: { version: after.version, changed, feedback },
        message: changed ? 'Settled: the case now carries this outcome.' : 'Settled: the first outcome stands.',
      };
    }),
  );
}
