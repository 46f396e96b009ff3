import { z } from 'zod';
import { blankToUndefined } from '@/lib/utils';
import { CASE_OUTCOMES, NOTE_MAX_CHARS } from '@/lib/db/case-states';
import { COMMENT_MAX_CHARS, COMMENT_REQUIRED, QUEUE_NAME_MAX, REASON_LABEL_MAX } from './form-rules';
import { FEEDBACK_REASONS } from '@/lib/idv/schemas';

/**
 * Inputs of case work, one zod schema each, shared by the forms (for their hints) and the
 * server actions (which parse with them). Browser-safe, but it brings zod: a form that needs only a
 * label or a limit imports ./form-rules.ts.
 */
/** A record's id from a form: a UUID, lower-cased; anything else is an unknown record. */
export const id = (what: string) => z.uuid(`Unknown ${what}.`).transform((s) => s.toLowerCase());
/** The version a form was rendered with (optimistic locking): a stale form is told to reload. */
export const version = z.coerce
  .number({ error: 'Reload the page: the form is out of date.' })
  .int('Reload the page: the form is out of date.')
  .min(1, 'Reload the page: the form is out of date.');

export const nextCaseSchema = z.object({ queueId: z.preprocess(blankToUndefined, id('queue').optional()) });

export const assignCaseSchema = z.object({
  caseId: id('case'),
  version,
  /** `me`, a user id, or empty to unassign. */
  assignee: z.preprocess(blankToUndefined, z.union([z.literal('me'), id('user')]).optional()),
});

export const bulkAssignSchema = z.object({
  executionIds: z
    .array(id('execution'), { error: 'Select executions first.' })
    .min(1, 'Select executions first.')
    .max(400, 'At most 400 executions at once.'),
  assignee: z.union([z.literal('me'), id('user')], { error: 'Choose who gets them.' }),
});

/**
 * Feedback sent in the same step as an outcome (resolving a case, settling a QA review): FRAUD or
 * NOT_FRAUD with the service's reason, the feedback form's version (latest submission id, or
 * "none") and its idempotency key.
 */
export const feedbackStepFields = {
  feedbackStatus: z.preprocess(blankToUndefined, z.enum(['FRAUD', 'NOT_FRAUD']).optional()),
  feedbackReason: z.preprocess(
    blankToUndefined,
    z.enum(FEEDBACK_REASONS, { error: "Choose one of the service's reasons." }).optional(),
  ),
  feedbackVersion: z.preprocess(blankToUndefined, z.string().max(40).optional()),
  idempotencyKey: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,100}$/, 'Reload the page: the form is out of date.')
      .optional(),
  ),
};

/** The rules of those fields: Fraud needs a reason; a label needs the form's version and key. */
export function refineFeedbackStep(
  v: { feedbackStatus?: string; feedbackReason?: string; feedbackVersion?: string; idempotencyKey?: string },
  ctx: z.RefinementCtx,
) {
  if (v.feedbackStatus === 'FRAUD' && (!v.feedbackReason || v.feedbackReason === 'NA'))
    ctx.addIssue({ code: 'custom', path: ['feedbackReason'], message: 'A reason is required for Fraud.' });
  if (v.feedbackStatus && (!v.feedbackVersion || !v.idempotencyKey))
    ctx.addIssue({ code: 'custom', path: ['feedbackStatus'], message: 'Reload the page: the form is out of date.' });
}

export const resolveCaseSchema = z
  .object({
    caseId: id('case'),
    version,
    outcome: z.enum(CASE_OUTCOMES, { error: 'Choose an outcome.' }),
    reason: z.string({ error: 'Choose a reason.' }).trim().min(1, 'Choose a reason.').max(80, 'Choose a reason.'),
    comment: z.preprocess(
      blankToUndefined,
      z
        .string()
        .trim()
        .max(COMMENT_MAX_CHARS, `A comment is at most ${COMMENT_MAX_CHARS.toLocaleString('en')} characters.`)
        .optional(),
    ),
    /**
     * The resolver knows the case is claimed by someone else and resolves it in their place (a
     * checkbox: "on" from a form, true from a script).
     */
    confirmTakeover: z.preprocess(
      blankToUndefined,
      z.union([z.boolean(), z.enum(['on', 'true']).transform(() => true)]).optional(),
    ),
    ...feedbackStepFields,
  })
  .superRefine((v, ctx) => {
    if (COMMENT_REQUIRED.includes(v.outcome) && !v.comment)
      ctx.addIssue({
        code: 'custom',
        path: ['comment'],
        message: `A comment is required to ${v.outcome}.`,
      });
    refineFeedbackStep(v, ctx);
  });
export type ResolveCaseInput = z.output<typeof resolveCaseSchema>;

export const reopenCaseSchema = z.object({
  caseId: id('case'),
  version,
  reason: z
    .string({ error: 'Say why it is reopened.' })
    .trim()
    .min(3, 'Say why it is reopened.')
    .max(COMMENT_MAX_CHARS, `A comment is at most ${COMMENT_MAX_CHARS.toLocaleString('en')} characters.`),
});

const noteBody = z
  .string({ error: 'Write a note first.' })
  .trim()
  .min(1, 'Write a note first.')
  .max(NOTE_MAX_CHARS, `A note is at most ${NOTE_MAX_CHARS.toLocaleString('en')} characters.`);

export const addNoteSchema = z.object({ executionId: id('execution'), body: noteBody });
export const editNoteSchema = z.object({
  noteId: id('note'),
  /** The version being edited: a newer one means someone else's edit would be lost. */
  version,
  body: noteBody,
});

const definition = z
  .string()
  .max(4000, 'The filters are too long for a queue.')
  .default('')
  .transform((s) => s.replace(/^\?/, ''));

const queueFormSchema = z.object({
  name: z
    .string({ error: 'Name the queue.' })
    .trim()
    .min(1, 'Name the queue.')
    .max(QUEUE_NAME_MAX, `A queue name is at most ${QUEUE_NAME_MAX} characters.`),
  priority: z.coerce
    .number({ error: 'Priority is a whole number.' })
    .int('Priority is a whole number.')
    .min(0, 'Priority is 0 to 1000.')
    .max(1000, 'Priority is 0 to 1000.'),
  slaHours: z.coerce
    .number({ error: 'The SLA is a number of hours.' })
    .int('The SLA is a whole number of hours.')
    .min(1, 'The SLA is 1 to 8760 hours.')
    .max(8760, 'The SLA is 1 to 8760 hours.'),
  definition,
  minRole: z.enum(['analyst', 'manager']).default('analyst'),
});
export const createQueueSchema = queueFormSchema;
export const updateQueueSchema = queueFormSchema.extend({ queueId: id('queue') });
export const archiveQueueSchema = z.object({
  queueId: id('queue'),
  archived: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]),
});
export const reorderQueuesSchema = z.object({
  queueIds: z.array(id('queue')).min(1, 'Nothing to reorder.').max(200),
});

/** A resolution reason's code: made by Verdict from the label, never edited. */
const reasonCode = z.string({ error: 'Unknown reason.' }).regex(/^[A-Z0-9_]{1,80}$/, 'Unknown reason.');
const reasonFields = {
  label: z
    .string({ error: 'Give the reason a label.' })
    .trim()
    .min(3, `A label is 3 to ${REASON_LABEL_MAX} characters.`)
    .max(REASON_LABEL_MAX, `A label is 3 to ${REASON_LABEL_MAX} characters.`),
  outcomes: z
    .array(z.enum(CASE_OUTCOMES, { error: 'Choose the outcomes it explains.' }), {
      error: 'Choose the outcomes it explains.',
    })
    .min(1, 'Choose the outcomes it explains.')
    .transform((o) => CASE_OUTCOMES.filter((x) => o.includes(x))),
};
export const createReasonSchema = z.object(reasonFields);
export const updateReasonSchema = z.object({ code: reasonCode, ...reasonFields });
export const setReasonActiveSchema = z.object({ code: reasonCode, active: z.boolean() });
export const reorderReasonsSchema = z.object({
  codes: z.array(reasonCode).min(1, 'Nothing to reorder.').max(200),
});
