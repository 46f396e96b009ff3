import 'server-only';
import { audit } from '@/lib/audit';
import type { ActionResult } from '@/lib/auth/guards';
import { db, type Tx } from '@/lib/db/client';
import { executions, feedbackSubmissions } from '@/lib/db/schema';
import type { FeedbackState } from '@/lib/db/schema/feedback';
import { and, eq, sql } from 'drizzle-orm';
import { isSealedExecution } from '@/lib/qa/seal';
import { deliveryQueue, enqueueDelivery, recordEvent, refreshDeliveryState } from './store';
import {
  type Decision,
  type FeedbackUser,
  REPLACEABLE,
  SEALED_LABEL_MESSAGE,
  type SubmitOutcome,
  describeLabel,
  supersedeOlder,
} from './submit';

/**
 * What happens to a label after it was submitted: a refused one is sent again (`retryFeedback`),
 * one awaiting approval is approved and sent, or rejected with a comment (`decideFeedback`).
 */
async function lockSubmission(tx: Tx, submissionId: string) {
  const [s] = await tx.select().from(feedbackSubmissions).where(eq(feedbackSubmissions.id, submissionId));
  if (!s)
    return {
      s: null,
      error: { ok: false as const, code: 'INVALID' as const, error: 'Unknown feedback.' } satisfies Decision,
    };
  await tx.select({ id: executions.id }).from(executions).where(eq(executions.id, s.executionId)).for('update');
  const [fresh] = await tx.select().from(feedbackSubmissions).where(eq(feedbackSubmissions.id, submissionId));
  return { s: fresh, error: null };
}

const stateConflict = (state: FeedbackState, wanted: string) => ({
  ok: false as const,
  code: 'CONFLICT' as const,
  error: `It is ${state.replace('_', ' ')} now, so it cannot be ${wanted}. Reload to see what changed.`,
});

export async function retryFeedback(actor: FeedbackUser, submissionId: string): Promise<ActionResult<SubmitOutcome>> {
  const boss = await deliveryQueue();
  return db().transaction(async (tx) => {
    const { s, error } = await lockSubmission(tx, submissionId);
    if (!s) return error;
    if (await isSealedExecution(tx, s.executionId, actor.id))
      return { ok: false as const, code: 'FORBIDDEN' as const, error: SEALED_LABEL_MESSAGE };
    if (s.state !== 'failed') return stateConflict(s.state, 'retried');
    await tx
      .update(feedbackSubmissions)
      .set({ state: 'pending', nextAttemptAt: null, updatedAt: sql`now()` })
      .where(eq(feedbackSubmissions.id, s.id));
    await recordEvent(tx, {
      submissionId: s.id,
      executionId: s.executionId,
      kind: 'retried',
      from: 'failed',
      to: 'pending',
      actor,
    });
    await enqueueDelivery(tx, boss, s.id);
    await refreshDeliveryState(tx, [s.executionId]);
    await audit(
      {
        action: 'feedback.retry',
        actor,
        targetType: 'execution',
        targetId: s.executionId,
        details: { submissionId: s.id, lastError: s.lastError ?? null },
      },
      tx,
    );
    return {
      ok: true as const,
      data: { submissionId: s.id, state: 'pending' as const, duplicate: false },
      message: 'Sending it again…',
    };
  });
}

export async function decideFeedback(
  actor: FeedbackUser,
  submissionId: string,
  decision: 'approve' | 'reject',
  comment?: string,
): Promise<ActionResult<SubmitOutcome>> {
  const boss = await deliveryQueue();
  return db().transaction(async (tx) => {
    const { s, error } = await lockSubmission(tx, submissionId);
    if (!s) return error;
    if (s.state !== 'awaiting_approval')
      return stateConflict(s.state, decision === 'approve' ? 'approved' : 'rejected');
    if (s.submittedBy === actor.id)
      return {
        ok: false as const,
        code: 'FORBIDDEN' as const,
        error: 'Four eyes means someone else: you cannot decide on your own feedback.',
      };
    const to: FeedbackState = decision === 'approve' ? 'pending' : 'rejected';
    await tx
      .update(feedbackSubmissions)
      .set({
        state: to,
        decidedBy: actor.id,
        decidedByEmail: actor.email,
        decidedAt: sql`now()`,
        approvalComment: comment ?? null,
        updatedAt: sql`now()`,
      })
      .where(and(eq(feedbackSubmissions.id, s.id), eq(feedbackSubmissions.state, 'awaiting_approval')));
    await recordEvent(tx, {
      submissionId: s.id,
      executionId: s.executionId,
      kind: decision === 'approve' ? 'approved' : 'rejected',
      from: 'awaiting_approval',
      to,
      actor,
      details: comment ? { comment } : undefined,
    });
    if (decision === 'approve') {
      await supersedeOlder(tx, new Map([[s.executionId, s.id]]), REPLACEABLE, actor);
      await enqueueDelivery(tx, boss, s.id);
    }
    await refreshDeliveryState(tx, [s.executionId]);
    await audit(
      {
        action: decision === 'approve' ? 'feedback.approve' : 'feedback.reject',
        actor,
        targetType: 'execution',
        targetId: s.executionId,
        details: {
          submissionId: s.id,
          status: s.status,
          reason: s.reason,
          submittedBy: s.submittedByEmail,
          comment: Boolean(comment),
        },
      },
      tx,
    );
    return {
      ok: true as const,
      data: { submissionId: s.id, state: to, duplicate: false },
      message:
        decision === 'approve'
          ? `Approved: ${describeLabel(s.status, s.reason)} is being sent.`
          : `Rejected; ${s.submittedByEmail} sees your comment.`,
    };
  });
}
