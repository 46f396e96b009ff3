/**
 * Links from the trends page to the executions list. Trends speak in dimensions (a capability
 * and its decision or label, a workflow definition key, one feedback value); this turns them
 * into the list's own parameters and hands them to the list's URL builder
 * (lib/executions/list-params.ts), so there is one URL format and a click lands on exactly the
 * executions behind the number. Browser-safe (no server imports).
 */
import { listHref as listPageHref, type ListParams } from '@/lib/executions/list-params';

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
      decision:
        filters.decision === undefined ? [] : Array.isArray(filters.decision) ? filters.decision : [filters.decision],
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
