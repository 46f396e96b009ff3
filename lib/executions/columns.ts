/**
 * Columns of the executions list (ids are stored per user in `users.hidden_columns`). Browser-safe.
 * A user who never changed the columns sees DEFAULT_HIDDEN hidden; once they change anything the
 * stored list starts with CUSTOMISED so that "show everything" is remembered too.
 */
export const LIST_COLUMN_IDS = [
  'createdAt',
  'decision',
  'riskScore',
  'status',
  'name',
  'document',
  'definitionKey',
  'references',
  'feedback',
  'case',
  'assignee',
  'due',
  'completedAt',
  'reportingCriteria',
  'id',
  'accountId',
] as const;
export type ListColumnId = (typeof LIST_COLUMN_IDS)[number];

export const LIST_COLUMN_LABELS: Record<ListColumnId, string> = {
  createdAt: 'Created',
  decision: 'Decision',
  riskScore: 'Risk',
  status: 'Status',
  name: 'Name',
  document: 'Document',
  definitionKey: 'Workflow',
  references: 'References',
  feedback: 'Feedback',
  case: 'Case',
  assignee: 'Assignee',
  due: 'Due',
  completedAt: 'Completed',
  reportingCriteria: 'Reporting criteria',
  id: 'Execution id',
  accountId: 'Account id',
};

/** Always shown: the row's link and its decision. */
export const REQUIRED_COLUMNS: ListColumnId[] = ['createdAt', 'decision'];
export const DEFAULT_HIDDEN: ListColumnId[] = ['completedAt', 'reportingCriteria', 'id', 'accountId'];
export const CUSTOMISED = '-';

export function hiddenColumnsOf(stored: string[] | null | undefined): ListColumnId[] {
  if (!stored || !stored.includes(CUSTOMISED)) return DEFAULT_HIDDEN;
  return stored.filter(
    (c): c is ListColumnId =>
      (LIST_COLUMN_IDS as readonly string[]).includes(c) && !REQUIRED_COLUMNS.includes(c as ListColumnId),
  );
}
