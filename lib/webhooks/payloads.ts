import { z } from 'zod';
import type { WebhookEventType } from './event-types';

/**
 * The payload of each event type, as strict objects: an unknown key is refused, so nothing
 * beyond ids, outcomes, reasons, queues, decisions, timestamps and the acting user's id can
 * reach a receiver. Personal data (names, document numbers, e-mails, images) has no key here.
 */
const id = z.string().min(1).max(100);
const at = z.iso.datetime({ offset: true });
const label = z.string().max(100);

/** What a feedback event says of the submission, delivered or failed alike. */
const feedbackOutcome = {
  feedbackId: id,
  executionId: id,
  outcome: label,
  reason: label.nullable(),
  attempts: z.number().int(),
  submittedAt: at,
};

export const PAYLOAD_SCHEMAS = {
  'case.resolved': z.strictObject({
    caseId: id,
    executionId: id,
    queue: label,
    outcome: label,
    reason: label.nullable(),
    decision: label.nullable(),
    resolvedAt: at,
    actorUserId: id.nullable(),
  }),
  'case.escalated': z.strictObject({
    caseId: id,
    executionId: id,
    queue: label,
    fromQueue: label.nullable(),
    reason: label.nullable(),
    decision: label.nullable(),
    escalatedAt: at,
    actorUserId: id.nullable(),
  }),
  'feedback.delivered': z.strictObject({
    ...feedbackOutcome,
    deliveredAt: at,
    actorUserId: id,
    approvedByUserId: id.nullable(),
  }),
  'feedback.failed': z.strictObject({
    ...feedbackOutcome,
    failedAt: at,
    serviceStatus: z.number().int().nullable(),
    serviceTitle: z.string().max(200).nullable(),
    actorUserId: id,
  }),
  'trend.spike': z.strictObject({
    alertId: z.string().max(300),
    day: z.iso.date(),
    kind: z.enum(['reject_rate', 'label']),
    capability: label.nullable(),
    decision: label.nullable(),
    label: label.nullable(),
    count: z.number().int(),
    total: z.number().int(),
    rate: z.number(),
    baselineMean: z.number(),
    baselineSd: z.number(),
    baselineDays: z.number().int(),
    detectedAt: at,
  }),
  'sync.failed': z.strictObject({
    reason: z.enum(['stuck', 'unreachable']),
    runId: z.number().int().nullable(),
    runKind: label.nullable(),
    since: at,
    error: z.string().max(300).nullable(),
    thresholdMinutes: z.number().int(),
    detectedAt: at,
  }),
  // Counts and link kinds only: the ring's members and the values they share stay in Verdict.
  'ring.detected': z.strictObject({
    ringId: id,
    size: z.number().int(),
    linkKinds: z.array(label).max(20),
    rejected: z.number().int(),
    fraud: z.number().int(),
    score: z.number(),
    firstSeen: at,
    lastSeen: at,
    detectedAt: at,
  }),
} satisfies Record<WebhookEventType, z.ZodType>;

export type WebhookPayload<T extends WebhookEventType> = z.input<(typeof PAYLOAD_SCHEMAS)[T]>;
