import { z } from 'zod';
import { COMMENT_MAX_CHARS } from '@/lib/cases/form-rules';
import { feedbackStepFields, id, refineFeedbackStep, version } from '@/lib/cases/schema';
import { QA_OUTCOMES } from '@/lib/db/qa-states';
import { blankToUndefined } from '@/lib/utils';

/**
 * Inputs of the blind QA re-review and of settling it, one zod schema each, shared by the forms and
 * the actions. Browser-safe. The sampling's own inputs are in lib/qa/schema.ts.
 */

export const qaRefSchema = z.object({ reviewId: id('QA review'), version });

/** Taking a QA review (`me`) or giving it back (empty). */
export const takeQaReviewSchema = qaRefSchema.extend({
  assignee: z.preprocess(blankToUndefined, z.literal('me').optional()),
});

const outcome = z.enum(QA_OUTCOMES, { error: 'Choose approve or decline.' });
const reason = z.string({ error: 'Choose a reason.' }).trim().min(1, 'Choose a reason.').max(80, 'Choose a reason.');
const comment = z.preprocess(
  blankToUndefined,
  z.string().trim().max(COMMENT_MAX_CHARS, `At most ${COMMENT_MAX_CHARS} characters.`).optional(),
);

export const decideQaReviewSchema = qaRefSchema.extend({ outcome, reason, comment }).superRefine((v, ctx) => {
  if (v.outcome === 'decline' && !v.comment)
    ctx.addIssue({ code: 'custom', path: ['comment'], message: 'A comment is required to decline.' });
});
export type DecideQaReviewInput = z.output<typeof decideQaReviewSchema>;

export const settleQaReviewSchema = qaRefSchema
  .extend({
    outcome,
    reason,
    comment: z
      .string({ error: 'Say why this is the final outcome.' })
      .trim()
      .min(3, 'Say why this is the final outcome.')
      .max(COMMENT_MAX_CHARS, `At most ${COMMENT_MAX_CHARS} characters.`),
    ...feedbackStepFields,
  })
  .superRefine(refineFeedbackStep);
export type SettleQaReviewInput = z.output<typeof settleQaReviewSchema>;

/** Actions that take no input still parse it: anything sent is ignored, never trusted. */
export const noInputSchema = z.object({});
