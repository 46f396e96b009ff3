/**
 * The `executions` columns the benchmarks' seeders write, in one order: each column's name, its
 * Postgres type, and how to read it from a row mapped by ingest's `toRows()`. The INSERT seeder
 * (./seed-worker.ts) and the COPY seeder (./seed-copy-worker.ts) both write these.
 */
import type { toRows } from '@/lib/sync/map';

export const SEP = '\u001f';

// Column name, Postgres array type, and how to read it from a mapped execution row.
export type Row = ReturnType<typeof toRows>['execution'] & { feedbackDelivery?: string | null };
export const COLUMNS: Array<[string, string, (r: Row) => unknown]> = [
  ['id', 'uuid', (r) => r.id],
  ['account_id', 'uuid', (r) => r.accountId],
  ['status', 'text', (r) => r.status],
  ['status_rank', 'int2', (r) => r.statusRank],
  ['decision_type', 'text', (r) => r.decisionType],
  ['decision_label', 'text', (r) => r.decisionLabel],
  ['risk_score', 'int4', (r) => r.riskScore],
  ['definition_key', 'text', (r) => r.definitionKey],
  ['original_definition_key', 'text', (r) => r.originalDefinitionKey],
  ['user_reference', 'text', (r) => r.userReference],
  ['customer_internal_reference', 'text', (r) => r.customerInternalReference],
  ['reporting_criteria', 'text', (r) => r.reportingCriteria],
  ['created_at', 'timestamptz', (r) => r.createdAt],
  ['started_at', 'timestamptz', (r) => r.startedAt],
  ['completed_at', 'timestamptz', (r) => r.completedAt],
  ['wiped_out_at', 'timestamptz', (r) => r.wipedOutAt],
  ['issuing_country', 'text', (r) => r.issuingCountry],
  ['document_type', 'text', (r) => r.documentType],
  ['document_number', 'text', (r) => r.documentNumber],
  ['first_name', 'text', (r) => r.firstName],
  ['last_name', 'text', (r) => r.lastName],
  ['date_of_birth', 'text', (r) => r.dateOfBirth],
  ['document_key', 'text', (r) => r.documentKey],
  ['search_text', 'text', (r) => r.searchText],
  ['search_tokens', 'text', (r) => (r.searchTokens as string[]).join(SEP)],
  ['capability_tags', 'text', (r) => (r.capabilityTags as string[]).join(SEP)],
  ['feedback_status', 'text', (r) => r.feedbackStatus],
  ['feedback_reason', 'text', (r) => r.feedbackReason],
  ['feedback_provided_at', 'timestamptz', (r) => r.feedbackProvidedAt],
  ['feedback_delivery', 'text', (r) => r.feedbackDelivery ?? null],
  ['has_personal_data', 'bool', (r) => r.hasPersonalData],
  ['fetched_at', 'timestamptz', (r) => r.fetchedAt],
  ['content_hash', 'text', (r) => r.contentHash],
];
