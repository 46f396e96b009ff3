import { sql, type SQL } from 'drizzle-orm';
import { CAPABILITY_LABELS } from '@/lib/idv/schemas';

/**
 * The keys of the trends rollup, in one home for both sides: ingest's rollup (lib/sync/rollup.ts)
 * writes rows keyed by them, and the trends page's queries (lib/trends/queries.ts) read the rollup and,
 * for checks and fallbacks, the raw executions with the same SQL definitions, so the two always
 * agree. No 'server-only': ingest also runs in the worker and scripts.
 */

/**
 * Capability labels counted on the trends page: those of REJECTED and WARNING entries. The
 * cache keeps them as `capability:label:LABEL` tags (what the list's capability filter matches),
 * without the entry's decision, so a documented label takes its documented decision and an
 * unknown one the worst decision (REJECTED, then WARNING) among the capability's tags.
 */
export const KNOWN_LABELS: Array<[capability: string, label: string, decision: string]> = (() => {
  const seen = new Map<string, [string, string, string]>();
  for (const [capability, table] of Object.entries(CAPABILITY_LABELS)) {
    for (const decision of ['REJECTED', 'WARNING', 'NOT_EXECUTED', 'PASSED'] as const) {
      for (const label of table?.[decision] ?? [])
        if (!seen.has(`${capability}:${label}`)) seen.set(`${capability}:${label}`, [capability, label, decision]);
    }
  }
  return [...seen.values()];
})();
/** The documented decision of a capability's label, by `capability:label`. */
export const KNOWN_LABEL_DECISIONS = new Map(KNOWN_LABELS.map(([c, l, d]) => [`${c}:${l}`, d]));

/** Scope bits, numbered as Postgres' GROUPING(definition_key, issuing_country, document_type). */
export const SCOPE = { definitionKey: 4, issuingCountry: 2, documentType: 1 } as const;
/** Added to the scope of the month rows (their `day` is the first of the month). */
export const MONTH_SCOPE = 8;

/**
 * The same keys in SQL, over an executions row aliased `e`: used by the rebuild and by the
 * trends page's raw-table queries. Must mean exactly what `rollupKeysOf` means.
 */
export const rollupColumns = {
  day: sql`(e.created_at at time zone 'UTC')::date`,
  definitionKey: sql`coalesce(e.definition_key, '')`,
  issuingCountry: sql`coalesce(e.issuing_country, '')`,
  documentType: sql`coalesce(e.document_type, '')`,
  decisionType: sql`coalesce(e.decision_type, '')`,
  // The service's "no feedback" is NA; NULL (never given) means the same.
  feedbackStatus: sql`coalesce(nullif(e.feedback_status, 'NA'), '')`,
  feedbackReason: sql`coalesce(nullif(e.feedback_reason, 'NA'), '')`,
};

const knownLabelsValues = sql.raw(
  KNOWN_LABELS.map(([c, l, d]) => `('${c.replace(/'/g, "''")}', '${l.replace(/'/g, "''")}', '${d}')`).join(', '),
);

/** `(capability, decision_type, label)` rows of `e` (for a lateral join), as `labelsOfTags`. */
export const labelsOfExecution = sql`(
  select x.capability, coalesce(k.decision_type,
      case when e.capability_tags @> array[x.capability || ':REJECTED'] then 'REJECTED'
           when e.capability_tags @> array[x.capability || ':WARNING'] then 'WARNING' end) as decision_type, x.label
  from (select distinct split_part(t, ':', 1) as capability, substr(t, length(split_part(t, ':', 1)) + 8) as label
        from unnest(e.capability_tags) t
        where strpos(t, ':') > 0 and substr(t, length(split_part(t, ':', 1)) + 1, 7) = ':label:') x
  left join (values ${knownLabelsValues}) k(capability, label, decision_type) on k.capability = x.capability and k.label = x.label
  where coalesce(k.decision_type,
      case when e.capability_tags @> array[x.capability || ':REJECTED'] then 'REJECTED'
           when e.capability_tags @> array[x.capability || ':WARNING'] then 'WARNING' end) in ('REJECTED', 'WARNING'))`;

/** Distinct matched rule ids of `e` (for a lateral join). */
export const rulesOfExecution = sql`(select distinct r.rule_id from rule_results r where r.execution_id = e.id and r.matched)`;

/** Day bounds of a rebuild or raw query: inclusive UTC dates (YYYY-MM-DD). */
export interface DayRange {
  from?: string;
  to?: string;
}

/** `e.created_at` within the inclusive UTC day range. */
export function createdInRange(range: DayRange): SQL {
  const conds: SQL[] = [sql`true`];
  if (range.from) conds.push(sql`e.created_at >= (${range.from}::date)::timestamp at time zone 'UTC'`);
  if (range.to) conds.push(sql`e.created_at < (${range.to}::date + 1)::timestamp at time zone 'UTC'`);
  return sql.join(conds, sql` and `);
}
