import 'server-only';
import { asc, eq } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { executions, steps as stepsTable } from '@/lib/db/schema';
import { UUID_RE } from '@/lib/executions/list-params';
import { personalContent, type PersonalContent } from '@/lib/executions/content';

export interface ExecutionSummary extends PersonalContent {
  id: string;
  accountId: string;
  status: string;
  decisionType: string | null;
  decisionLabel: string | null;
  riskScore: number | null;
  definitionKey: string | null;
  userReference: string | null;
  customerInternalReference: string | null;
  reportingCriteria: string | null;
  createdAt: string;
  completedAt: string | null;
  wipedOutAt: string | null;
  goneAt: string | null;
  hasPersonalData: boolean;
  personalDataPurgedAt: string | null;
  documentType: string | null;
  issuingCountry: string | null;
  feedback: { status: string | null; reason: string | null; providedAt: string | null; delivery: string | null };
}

/**
 * One execution for a machine (the read API): the detail page's header, result, steps, rules and
 * comparison, always masked as an analyst without a reveal sees them (a key has no reveal).
 * Null when the id is not a cached execution.
 */
export async function getExecutionSummary(id: string): Promise<ExecutionSummary | null> {
  if (!UUID_RE.test(id)) return null;
  id = id.toLowerCase();
  const d = db();
  const [row] = await d.select().from(executions).where(eq(executions.id, id)).limit(1);
  if (!row) return null;
  const stepRows = row.rawSteps
    ? []
    : await d
        .select({ raw: stepsTable.raw })
        .from(stepsTable)
        .where(eq(stepsTable.executionId, id))
        .orderBy(asc(stepsTable.position));
  const iso = (v: Date | null) => v?.toISOString() ?? null;
  return {
    id: row.id,
    accountId: row.accountId,
    status: row.status,
    decisionType: row.decisionType,
    decisionLabel: row.decisionLabel,
    riskScore: row.riskScore,
    definitionKey: row.definitionKey,
    userReference: row.userReference,
    customerInternalReference: row.customerInternalReference,
    reportingCriteria: row.reportingCriteria,
    createdAt: row.createdAt.toISOString(),
    completedAt: iso(row.completedAt),
    wipedOutAt: iso(row.wipedOutAt),
    goneAt: iso(row.goneAt),
    hasPersonalData: row.hasPersonalData,
    personalDataPurgedAt: iso(row.personalDataPurgedAt),
    documentType: row.documentType,
    issuingCountry: row.issuingCountry,
    feedback: {
      status: row.feedbackStatus,
      reason: row.feedbackReason,
      providedAt: iso(row.feedbackProvidedAt),
      delivery: row.feedbackDelivery,
    },
    ...personalContent(row, stepRows, false),
  };
}
