/**
 * Inputs of the feedback feature: one zod schema per input, shared by the forms (hints) and the
 * server actions (the real check). Browser-safe: no server imports.
 */
import { z } from 'zod';
import { FEEDBACK_REASONS, FEEDBACK_STATUSES, type FeedbackReason, type FeedbackStatus } from '@/lib/idv/schemas';

export { FEEDBACK_REASONS, FEEDBACK_STATUSES, type FeedbackReason, type FeedbackStatus };

export const NOTE_MAX = 2000;
export const COMMENT_MAX = 1000;
/** A bulk action labels at most this many executions at once (four pages of the list at its largest size). */
export const BULK_MAX = 400;

export const STATUS_LABELS: Record<FeedbackStatus, string> = {
  FRAUD: 'Fraud',
  NOT_FRAUD: 'Not fraud',
  NA: 'NA (no label)',
};

export const STATUS_HINTS: Record<FeedbackStatus, string> = {
  FRAUD: 'Confirmed fraud. The service applies it to later transactions with the same identity document.',
  NOT_FRAUD: 'Checked: a genuine customer.',
  NA: 'Withdraw a label or record that no judgement is possible.',
};

export const REASON_LABELS: Record<FeedbackReason, string> = {
  NA: 'NA (none)',
  ACCOUNT_TAKEOVER: 'Account takeover',
  COMPANY_POLICY: 'Company policy',
  FIRST_PARTY_FRAUD: 'First-party fraud',
  GOVERNMENT_REGULATIONS: 'Government regulations',
  IDENTITY_FRAUD: 'Identity fraud',
  INSIDER_FRAUD: 'Insider fraud',
  MONEY_LAUNDERING: 'Money laundering',
  PAYMENT_FRAUD: 'Payment fraud',
  PHISHING: 'Phishing',
  SYNTHETIC_ID_FRAUD: 'Synthetic ID fraud',
  THIRD_PARTY_FRAUD: 'Third-party fraud',
};

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const trimmedOrUndefined = (v: unknown) =>
  typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v === null ? undefined : v;

const statusField = z.enum(FEEDBACK_STATUSES, { error: 'Choose Fraud, Not fraud or NA.' });
export const reasonField = z.preprocess(
  emptyToUndefined,
  z.enum(FEEDBACK_REASONS, { error: 'Choose one of the listed reasons.' }).optional(),
);
export const noteField = z.preprocess(
  trimmedOrUndefined,
  z
    .string({ error: 'The note must be text.' })
    .max(NOTE_MAX, `Notes are at most ${NOTE_MAX.toLocaleString('en-US')} characters.`)
    .optional(),
);
/** The latest submission the form was opened on, or "none". */
export const versionField = z.union([z.literal('none'), z.uuid()], {
  error: 'Reload the page: the form is out of date.',
});
export const idempotencyField = z
  .string({ error: 'Reload the page: the form is out of date.' })
  .regex(/^[A-Za-z0-9_-]{8,100}$/, 'Reload the page: the form is out of date.');

/** The service demands a reason with FRAUD (service-facts); NA is not a reason for fraud. */
function requireFraudReason(v: { status: FeedbackStatus; reason?: FeedbackReason }, ctx: z.RefinementCtx) {
  if (v.status === 'FRAUD' && (!v.reason || v.reason === 'NA'))
    ctx.addIssue({ code: 'custom', path: ['reason'], message: 'A reason is required for Fraud.' });
}

export const feedbackFormSchema = z
  .object({
    executionId: z.uuid('Unknown execution.').transform((s) => s.toLowerCase()),
    status: statusField,
    reason: reasonField,
    note: noteField,
    version: versionField,
    idempotencyKey: idempotencyField,
  })
  .superRefine(requireFraudReason);
export type FeedbackFormInput = z.output<typeof feedbackFormSchema>;

/** A bulk action's selection: at least one execution, at most BULK_MAX, ids in lower case. */
const executionIdsField = z
  .array(
    z.uuid('Unknown execution.').transform((s) => s.toLowerCase()),
    { error: 'Select executions first.' },
  )
  .min(1, 'Select executions first.')
  .max(BULK_MAX, `At most ${BULK_MAX} executions at once.`);

export const bulkFeedbackSchema = z
  .object({
    executionIds: executionIdsField,
    status: statusField,
    reason: reasonField,
    note: noteField,
    /** Latest submission id per execution, as the confirmation showed them. */
    versions: z.record(z.string(), versionField, { error: 'Reload the page: the form is out of date.' }),
    idempotencyKey: idempotencyField,
  })
  .superRefine(requireFraudReason)
  .superRefine((v, ctx) => {
    if (new Set(v.executionIds).size !== v.executionIds.length)
      ctx.addIssue({ code: 'custom', path: ['executionIds'], message: 'An execution is listed twice.' });
    if (v.executionIds.some((id) => !(id in v.versions)))
      ctx.addIssue({ code: 'custom', path: ['versions'], message: 'Reopen the dialog: the selection changed.' });
  });
export type BulkFeedbackInput = z.output<typeof bulkFeedbackSchema>;

export const executionIdsSchema = z.object({ executionIds: executionIdsField });

export const executionIdSchema = z.object({
  executionId: z.uuid('Unknown execution.').transform((s) => s.toLowerCase()),
});
export const submissionIdSchema = z.object({
  submissionId: z.uuid('Unknown feedback.').transform((s) => s.toLowerCase()),
});
export const batchIdSchema = z.object({ batchId: z.uuid('Unknown batch.').transform((s) => s.toLowerCase()) });

export const approveSchema = z.object({
  submissionId: z.uuid('Unknown feedback.').transform((s) => s.toLowerCase()),
  comment: z.preprocess(
    trimmedOrUndefined,
    z.string().max(COMMENT_MAX, `Comments are at most ${COMMENT_MAX} characters.`).optional(),
  ),
});

export const rejectSchema = z.object({
  submissionId: z.uuid('Unknown feedback.').transform((s) => s.toLowerCase()),
  comment: z.preprocess(
    trimmedOrUndefined,
    z
      .string({ error: 'Say why it is rejected: the analyst reads this.' })
      .min(1, 'Say why it is rejected: the analyst reads this.')
      .max(COMMENT_MAX, `Comments are at most ${COMMENT_MAX} characters.`),
  ),
});

export const fourEyesSchema = z.object({
  enabled: z.enum(['true', 'false'], { error: 'Choose on or off.' }).transform((v) => v === 'true'),
});
