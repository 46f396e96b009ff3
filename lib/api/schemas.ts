import { z } from 'zod';
import { FEEDBACK_STATES } from '@/lib/db/schema/feedback';
import { CASE_CHANGE_TYPES, CASE_OUTCOMES, CASE_STATES } from '@/lib/db/schema/cases';
import { GRANULARITIES, MAX_RANGE_DAYS, daysBetween } from '@/lib/trends/shared';

/**
 * The read API's wire format: every query it accepts and every body it returns, as zod schemas.
 * Handlers parse with the query schemas and build bodies typed by the response schemas; the
 * OpenAPI document (`lib/api/openapi.ts`) is generated from these same schemas, so the document
 * cannot drift from what the API does.
 */

export const problemSchema = z
  .strictObject({
    title: z.string(),
    status: z.int(),
    detail: z.string(),
  })
  .meta({ id: 'Problem', description: 'Every error: RFC 9457 problem details, `application/problem+json`.' });

const iso = z.iso.datetime({ offset: true });
const isoOrNull = iso.nullable();
const uuid = z.uuid();

export const cursorParam = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .meta({ description: 'Opaque position from `next` of the previous page. Keep it to ask later for newer changes.' });
export const sinceParam = iso.optional().meta({
  description:
    'Without a cursor: start with the rows changed at or after this time (inclusive) instead of the oldest. Ignored with a cursor.',
});
export const limitParam = z.coerce
  .number()
  .int()
  .min(1)
  .max(500)
  .default(100)
  .meta({ description: 'Items per page (1 to 500).' });

export const changesQuerySchema = z.strictObject({ cursor: cursorParam, since: sinceParam, limit: limitParam });

const feedbackSummary = z.strictObject({
  status: z.string().nullable().meta({ description: 'FRAUD, NOT_FRAUD, NA or null; unknown values are kept.' }),
  reason: z.string().nullable(),
  providedAt: isoOrNull,
  delivery: z
    .string()
    .nullable()
    .meta({ description: 'Local delivery state of the latest label: pending, delivered, failed, awaiting_approval.' }),
});

export const executionChangeSchema = z
  .strictObject({
    id: uuid,
    changedAt: iso.meta({
      description: 'When the cached execution last changed. The feed is ordered by the committing transaction.',
    }),
    execution: z.strictObject({
      accountId: uuid,
      status: z.string(),
      decisionType: z.string().nullable().meta({ description: 'PASSED, WARNING, REJECTED, NOT_EXECUTED, or unknown' }),
      decisionLabel: z.string().nullable(),
      riskScore: z.int().nullable(),
      definitionKey: z.string().nullable(),
      customerInternalReference: z.string().nullable(),
      userReference: z.string().nullable(),
      createdAt: iso,
      completedAt: isoOrNull,
      goneAt: isoOrNull.meta({ description: 'Set when the service no longer has the execution.' }),
    }),
    feedback: feedbackSummary,
  })
  .meta({ id: 'ExecutionChange' });

const page = <T extends z.ZodType>(item: T, id: string) =>
  z
    .strictObject({
      data: z.array(item),
      next: z.string().nullable().meta({ description: 'Cursor for the next page, null before the first change.' }),
      hasMore: z.boolean().meta({ description: 'More changes are waiting now: ask again with `next` at once.' }),
    })
    .meta({ id });

export const executionChangesPageSchema = page(executionChangeSchema, 'ExecutionChangesPage');

export const caseChangesQuerySchema = z.strictObject({
  cursor: cursorParam.meta({
    description:
      'Opaque position from `next` of the previous page; without it the feed starts at the oldest change. Keep the last `next` to ask later for newer changes.',
  }),
  limit: limitParam,
});

export const caseChangeSchema = z
  .strictObject({
    caseId: uuid,
    executionId: uuid.meta({ description: 'The workflow execution the case is about.' }),
    change: z.enum(CASE_CHANGE_TYPES).meta({ description: 'What happened; `withdrawn`: the case no longer exists.' }),
    changedAt: iso,
    actorId: uuid.nullable().meta({ description: "The acting user's id; null when Verdict changed it itself." }),
    case: z.strictObject({
      state: z.enum(CASE_STATES).nullable().meta({ description: 'After the change; null once withdrawn.' }),
      queue: z.strictObject({ id: uuid, name: z.string().nullable() }).nullable(),
      outcome: z.enum(CASE_OUTCOMES).nullable(),
      reason: z.string().nullable().meta({ description: 'Reason code of the outcome (e.g. DOCUMENT_FORGED).' }),
      resolvedAt: isoOrNull,
      resolvedBy: uuid.nullable().meta({ description: "The resolving user's id." }),
    }),
  })
  .meta({
    id: 'CaseChange',
    description:
      'One change of a case, with the case as it stood after it. Ids, codes and times only: no personal data, no comments.',
  });

export const caseChangesPageSchema = page(caseChangeSchema, 'CaseChangesPage');

const freeForm = z.record(z.string(), z.unknown());

export const executionIdParams = z.strictObject({ id: uuid.meta({ description: 'Workflow execution id' }) });

export const executionSummarySchema = z
  .strictObject({
    id: uuid,
    accountId: uuid,
    status: z.string(),
    decisionType: z.string().nullable(),
    decisionLabel: z.string().nullable(),
    riskScore: z.int().nullable(),
    definitionKey: z.string().nullable(),
    userReference: z.string().nullable(),
    customerInternalReference: z.string().nullable(),
    reportingCriteria: z.string().nullable(),
    createdAt: iso,
    completedAt: isoOrNull,
    wipedOutAt: isoOrNull,
    goneAt: isoOrNull,
    hasPersonalData: z.boolean(),
    personalDataPurgedAt: isoOrNull,
    documentType: z.string().nullable(),
    issuingCountry: z.string().nullable(),
    feedback: feedbackSummary,
    name: z.string().nullable().meta({ description: 'Masked (`P•••• S••••`).' }),
    documentNumber: z.string().nullable().meta({ description: 'Masked: the last four characters.' }),
    result: freeForm.meta({ description: "The service's result, personal values masked." }),
    steps: z.array(freeForm),
    ruleExecutions: z.array(freeForm),
    comparison: z.array(
      z.strictObject({
        field: z.string(),
        extracted: z.unknown(),
        supplied: z.unknown(),
        mismatch: z.boolean(),
      }),
    ),
  })
  .meta({
    id: 'ExecutionSummary',
    description: 'One execution exactly as an analyst without a reveal sees it: every personal value masked.',
  });

export const feedbackQuerySchema = z.strictObject({
  cursor: cursorParam,
  since: sinceParam,
  limit: limitParam,
  executionId: uuid.optional().meta({ description: 'Only the feedback of this execution.' }),
});

export const feedbackStateSchema = z
  .strictObject({
    id: uuid,
    executionId: uuid,
    status: z.string(),
    reason: z.string().nullable(),
    state: z.enum(FEEDBACK_STATES),
    submittedAt: iso,
    submittedBy: uuid.meta({ description: "The submitting user's id." }),
    decidedAt: isoOrNull,
    deliveredAt: isoOrNull,
    attempts: z.int(),
    supersededBy: uuid.nullable(),
    changedAt: iso,
  })
  .meta({ id: 'FeedbackState' });

export const feedbackStatesPageSchema = page(feedbackStateSchema, 'FeedbackStatesPage');

const day = z.iso.date();
const dimension = z.string().trim().min(1).max(200).optional();

export const trendsQuerySchema = z
  .strictObject({
    from: day.meta({ description: 'First UTC day (YYYY-MM-DD).' }),
    to: day.meta({ description: 'Last UTC day (YYYY-MM-DD), inclusive.' }),
    granularity: z.enum(GRANULARITIES).optional().meta({ description: 'Bucket size; by default from the range.' }),
    definitionKey: dimension,
    country: dimension,
    docType: dimension,
  })
  .refine((q) => q.from <= q.to, { error: 'from must not be after to', path: ['from'] })
  .refine((q) => q.from > q.to || daysBetween(q.from, q.to) <= MAX_RANGE_DAYS, {
    error: `the range may span at most ${MAX_RANGE_DAYS} days`,
    path: ['to'],
  });

const kpi = z.strictObject({
  executions: z.int(),
  passed: z.int(),
  warning: z.int(),
  rejected: z.int(),
  riskSum: z.number(),
  riskCount: z.int(),
  fraud: z.int(),
});

export const trendsSchema = z
  .strictObject({
    from: day,
    to: day,
    granularity: z.enum(GRANULARITIES),
    filters: z.strictObject({
      definitionKey: z.string().nullable(),
      country: z.string().nullable(),
      docType: z.string().nullable(),
    }),
    kpis: z.strictObject({ current: kpi, previous: kpi }),
    buckets: z.array(
      z.strictObject({
        from: day,
        to: day,
        total: z.int(),
        decisions: z.record(z.string(), z.int()).meta({ description: 'Executions by decision type.' }),
        fraud: z.int(),
        notFraud: z.int(),
        riskScored: z.int(),
        riskSum: z.number(),
        partial: z.boolean().meta({
          description: 'The period holds today (UTC): its figures are so far, not a whole period.',
        }),
      }),
    ),
    alerts: z.array(
      z.strictObject({
        day,
        kind: z.enum(['reject_rate', 'label']),
        capability: z.string().optional(),
        decisionType: z.string().optional(),
        label: z.string().optional(),
        n: z.int(),
        total: z.int(),
        rate: z.number(),
      }),
    ),
    asOf: isoOrNull.meta({ description: 'When the cache last heard from the service.' }),
  })
  .meta({ id: 'Trends', description: 'The daily rollup summed over a range: what the trends page charts.' });

export type CaseChangesPage = z.infer<typeof caseChangesPageSchema>;
export type ExecutionChangesPage = z.infer<typeof executionChangesPageSchema>;
export type FeedbackStatesPage = z.infer<typeof feedbackStatesPageSchema>;
export type TrendsBody = z.infer<typeof trendsSchema>;
