import type { executions } from '@/lib/db/schema';

/*
 * The execution as Verdict's readers hand it on: the one mapping from a cached `executions` row to
 * its serialized fields (ISO strings for moments), shared by the detail page, the read API's
 * execution and its change feed, so a field is named, typed and formatted in one place.
 */

type Row = typeof executions.$inferSelect;
const iso = (v: Date | null) => v?.toISOString() ?? null;

/** What every reader of an execution says of it: who, what the service decided, when. */
export interface ExecutionCore {
  accountId: string;
  status: string;
  decisionType: string | null;
  decisionLabel: string | null;
  riskScore: number | null;
  definitionKey: string | null;
  customerInternalReference: string | null;
  userReference: string | null;
  createdAt: string;
  completedAt: string | null;
  goneAt: string | null;
}
type CoreRow = Pick<Row, Exclude<keyof ExecutionCore, 'createdAt' | 'completedAt' | 'goneAt'>> &
  Pick<Row, 'createdAt' | 'completedAt' | 'goneAt'>;

export function executionCore(r: CoreRow): ExecutionCore {
  return {
    accountId: r.accountId,
    status: r.status,
    decisionType: r.decisionType,
    decisionLabel: r.decisionLabel,
    riskScore: r.riskScore,
    definitionKey: r.definitionKey,
    customerInternalReference: r.customerInternalReference,
    userReference: r.userReference,
    createdAt: r.createdAt.toISOString(),
    completedAt: iso(r.completedAt),
    goneAt: iso(r.goneAt),
  };
}

/** The core plus what one execution's own page or record adds: its document, purges and wipes. */
export interface ExecutionRecord extends ExecutionCore {
  id: string;
  reportingCriteria: string | null;
  wipedOutAt: string | null;
  hasPersonalData: boolean;
  personalDataPurgedAt: string | null;
  documentType: string | null;
  issuingCountry: string | null;
}

export function executionRecord(r: Row): ExecutionRecord {
  return {
    id: r.id,
    ...executionCore(r),
    reportingCriteria: r.reportingCriteria,
    wipedOutAt: iso(r.wipedOutAt),
    hasPersonalData: r.hasPersonalData,
    personalDataPurgedAt: iso(r.personalDataPurgedAt),
    documentType: r.documentType,
    issuingCountry: r.issuingCountry,
  };
}

/** The analysts' label on the execution and how far its delivery to the service got. */
export interface FeedbackState {
  status: string | null;
  reason: string | null;
  providedAt: string | null;
  delivery: string | null;
}
type FeedbackRow = Pick<Row, 'feedbackStatus' | 'feedbackReason' | 'feedbackProvidedAt' | 'feedbackDelivery'>;

export function feedbackState(r: FeedbackRow): FeedbackState {
  return {
    status: r.feedbackStatus,
    reason: r.feedbackReason,
    providedAt: iso(r.feedbackProvidedAt),
    delivery: r.feedbackDelivery,
  };
}
