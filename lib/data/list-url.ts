/**
 * The one way to link to the executions list with filters. The list page reads exactly these
 * URL parameters; every chart, cell and alert of the trends page builds its link here, so a
 * click lands on exactly the executions behind the number. Browser-safe (no server imports).
 *
 * Meaning of each parameter (what the list must apply):
 * - `decision`: top-level decision type, repeatable (any of them).
 * - `createdFrom` / `createdTo`, `completedFrom` / `completedTo`: inclusive UTC calendar dates.
 * - `riskMin` / `riskMax`: inclusive risk score bounds (-1 is "not executed").
 * - `capability` with `capDecision` or `capLabel`: some entry of that capability has that decision / label.
 * - `feedback`: `FRAUD` / `NOT_FRAUD` (the service's feedback status), `none` (NULL or NA),
 *   `pending` (submitted here, not yet delivered); `feedbackReason`: the service's feedback reason.
 * - `rule`: a rule id that matched.
 */
import { listHref as listPageHref, type ListParams } from '@/lib/executions/list-params';

export const LIST_PATH = '/executions';

export const LIST_PARAMS = [
  'decision', 'status', 'riskMin', 'riskMax', 'createdFrom', 'createdTo', 'completedFrom', 'completedTo',
  'definitionKey', 'capability', 'capDecision', 'capLabel', 'country', 'docType', 'feedback', 'feedbackReason',
  'criteria', 'rule', 'q', 'sort', 'dir', 'size',
] as const;

export type ListParam = (typeof LIST_PARAMS)[number];

export interface ListFilters {
  decision?: string | string[];
  status?: string;
  riskMin?: number;
  riskMax?: number;
  createdFrom?: string;
  createdTo?: string;
  completedFrom?: string;
  completedTo?: string;
  definitionKey?: string;
  capability?: string;
  capDecision?: string;
  capLabel?: string;
  country?: string;
  docType?: string;
  feedback?: 'none' | 'FRAUD' | 'NOT_FRAUD' | 'pending';
  feedbackReason?: string;
  criteria?: string;
  rule?: string;
  q?: string;
  sort?: 'created' | 'completed' | 'risk';
  dir?: 'asc' | 'desc';
  size?: number;
}

/**
 * `/executions?…` with the given filters. It speaks the trends page's vocabulary and hands the
 * URL to the list's own builder (lib/executions/list-params.ts), so there is one URL format.
 */
export function listHref(filters: ListFilters): string {
  const cap =
    filters.capability && filters.capDecision
      ? [`${filters.capability}:${filters.capDecision}`]
      : filters.capability && filters.capLabel
        ? [`${filters.capability}:label:${filters.capLabel}`]
        : [];
  return listPageHref(
    {
      decision: filters.decision === undefined ? [] : Array.isArray(filters.decision) ? filters.decision : [filters.decision],
      status: filters.status ? [filters.status] : [],
      riskMin: filters.riskMin,
      riskMax: filters.riskMax,
      createdFrom: filters.createdFrom,
      createdTo: filters.createdTo,
      completedFrom: filters.completedFrom,
      completedTo: filters.completedTo,
      definition: filters.definitionKey,
      cap,
      country: filters.country,
      docType: filters.docType,
      feedback: filters.feedback ? [filters.feedback] : [],
      feedbackReason: filters.feedbackReason,
      criteria: filters.criteria,
      rule: filters.rule,
      sort: filters.sort,
      dir: filters.dir,
      size: filters.size as ListParams['size'] | undefined,
    },
    { withCursor: false },
  );
}
