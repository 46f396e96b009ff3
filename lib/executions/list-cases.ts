import 'server-only';
import { aliasedTable, eq, inArray, sql } from 'drizzle-orm';
import { db, type Db } from '@/lib/db/client';
import type { CaseState } from '@/lib/db/case-states';
import { caseQueues, cases, users } from '@/lib/db/schema';

/*
 * The case columns of the executions list (state, queue, assignee, due): one read of the case
 * rows of a page, here beside the list rather than in lib/cases, which sits above the list (a
 * queue is a saved list filter) and must not be imported from below.
 */

const assignee = aliasedTable(users, 'assignee');

export interface ListCase {
  state: CaseState;
  queueId: string;
  queueName: string;
  assigneeId: string | null;
  assigneeName: string | null;
  dueAt: string;
  overdue: boolean;
}

/** The cases of one list page's rows, by execution id. */
export async function getListCases(executionIds: string[], d: Db = db()): Promise<Map<string, ListCase>> {
  if (!executionIds.length) return new Map();
  const rows = await d
    .select({
      executionId: cases.executionId,
      state: cases.state,
      queueId: cases.queueId,
      queueName: caseQueues.name,
      assigneeId: cases.assigneeId,
      assigneeName: assignee.name,
      dueAt: cases.dueAt,
      overdue: sql<boolean>`${cases.state} <> 'resolved' and ${cases.dueAt} < now()`,
    })
    .from(cases)
    .innerJoin(caseQueues, eq(caseQueues.id, cases.queueId))
    .leftJoin(assignee, eq(assignee.id, cases.assigneeId))
    .where(inArray(cases.executionId, executionIds));
  return new Map(rows.map(({ executionId, dueAt, ...r }) => [executionId, { ...r, dueAt: dueAt.toISOString() }]));
}
