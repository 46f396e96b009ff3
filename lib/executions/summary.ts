import 'server-only';
import { asc, eq } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { executions, steps as stepsTable } from '@/lib/db/schema';
import { UUID_RE } from '@/lib/executions/list-params';
import { personalContent, type PersonalContent } from '@/lib/executions/content';
import { executionRecord, feedbackState, type ExecutionRecord, type FeedbackState } from './shape';

export interface ExecutionSummary extends PersonalContent, ExecutionRecord {
  feedback: FeedbackState;
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
  return {
    ...executionRecord(row),
    feedback: feedbackState(row),
    ...personalContent(row, stepRows, false),
  };
}
