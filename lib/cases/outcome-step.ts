import 'server-only';
import type { ActionResult } from '@/lib/auth/guards';
import type { Tx } from '@/lib/db/client';
import type { FeedbackFormInput } from '@/lib/feedback/schema';
import { deliveryQueue } from '@/lib/feedback/store';
import { submitFeedback, type FeedbackUser } from '@/lib/feedback/submit';

/**
 * What giving an outcome shares, wherever it is given (resolving a case, lib/cases/resolve.ts;
 * settling a QA review, lib/cases/qa-settle.ts): one transaction that writes everything or, on any
 * refusal, nothing, and the FRAUD / NOT_FRAUD feedback sent in the same step.
 */

/** Carries a refusal out of the transaction so that everything written before it rolls back. */
class Refused extends Error {
  constructor(readonly result: ActionResult<never>) {
    super('refused');
  }
}

/** Refuses the step: thrown inside `refusable`, it rolls the transaction back and becomes the result. */
export const refuse = (code: 'INVALID' | 'CONFLICT' | 'FORBIDDEN', error: string, field?: string): never => {
  throw new Refused({ ok: false, code, error, ...(field ? { fieldErrors: { [field]: [error] } } : {}) });
};

/**
 * Runs `step` (which opens the transaction); a refusal thrown inside it is its result. The job
 * queue is started first: the step may label the execution, whose delivery job is written in the
 * transaction, and starting the queue inside it would wait on the embedded database forever.
 */
export async function refusable<T>(step: () => Promise<ActionResult<T>>): Promise<ActionResult<T>> {
  await deliveryQueue();
  try {
    return await step();
  } catch (err) {
    if (err instanceof Refused) return err.result;
    throw err;
  }
}

/** The feedback fields of an outcome form (lib/cases/schema.ts `feedbackStepFields`), as parsed. */
export interface FeedbackStep {
  feedbackStatus?: 'FRAUD' | 'NOT_FRAUD';
  feedbackReason?: FeedbackFormInput['reason'];
  feedbackVersion?: string;
  idempotencyKey?: string;
}

/**
 * Sends the step's label, if it has one, through the feedback pipeline in `tx` (four-eyes and the
 * delivery job as for any label); a refused label refuses the whole step.
 */
export async function sendFeedbackStep(
  tx: Tx,
  actor: FeedbackUser,
  executionId: string,
  step: FeedbackStep,
): Promise<{ submissionId: string; state: string; message?: string } | undefined> {
  if (!step.feedbackStatus) return undefined;
  const f = await submitFeedback(
    actor,
    {
      executionId,
      status: step.feedbackStatus,
      reason: step.feedbackReason,
      note: undefined,
      version: step.feedbackVersion!,
      idempotencyKey: step.idempotencyKey!,
    },
    tx,
  );
  if (!f.ok) return refuse(f.code === 'CONFLICT' ? 'CONFLICT' : 'INVALID', `Feedback: ${f.error}`);
  return { submissionId: f.data.submissionId, state: f.data.state, message: f.message };
}
