import {
  type AnyPgColumn,
  bigint,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/**
 * Daily rollups of the executions cache for the trends page, kept current by ingest in the
 * same transaction (lib/sync/rollup.ts) and rebuilt from raw rows on demand.
 *
 * Every table is a cube over the page's three filters (definition key, issuing country,
 * document type): `scope` is the bitmask of the filters that are aggregated away (4 =
 * definition key, 2 = country, 1 = document type, as Postgres' GROUPING() numbers them) and
 * the aggregated columns hold ''. So any combination of filters, and any breakdown by one of
 * them, reads only its own few rows instead of summing every combination. NULL values are
 * stored as '' too (the page shows them as "Unknown").
 *
 * Each table holds two grains: days (scope 0-7, `day` the UTC day) and months (scope 8-15,
 * `day` the first of the month), so a long range reads a dozen month rows plus the days of
 * its partial months at the edges.
 */
const cubeKeys = () => ({
  scope: smallint('scope').notNull(),
  definitionKey: text('definition_key').notNull(),
  issuingCountry: text('issuing_country').notNull(),
  documentType: text('document_type').notNull(),
  /** UTC calendar day of the execution's created_at; the first of the month for month rows. */
  day: date('day', { mode: 'string' }).notNull(),
});
type CubeKeyColumns = { [K in keyof ReturnType<typeof cubeKeys>]: AnyPgColumn };

/** A cube table's primary key: the cube keys, always in this order, then its own breakdown columns. */
const cubePrimaryKey = (name: string, t: CubeKeyColumns, ...breakdown: AnyPgColumn[]) =>
  primaryKey({ name, columns: [t.scope, t.definitionKey, t.issuingCountry, t.documentType, t.day, ...breakdown] });

/** Executions per day by top-level decision and analyst feedback. */
export const trendDecisions = pgTable(
  'trend_decisions',
  {
    ...cubeKeys(),
    decisionType: text('decision_type').notNull(),
    /** FRAUD, NOT_FRAUD, any unknown value as is; '' for none (NULL or NA). */
    feedbackStatus: text('feedback_status').notNull(),
    feedbackReason: text('feedback_reason').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [cubePrimaryKey('trend_decisions_pk', t, t.decisionType, t.feedbackStatus, t.feedbackReason)],
);

/** Risk score histogram per day: one row per score (-1..100) that occurs; NULL scores are left out. */
export const trendRisk = pgTable(
  'trend_risk',
  {
    ...cubeKeys(),
    riskScore: integer('risk_score').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [cubePrimaryKey('trend_risk_pk', t, t.riskScore)],
);

/**
 * The scores 0..100 of each day-grain cube row of trend_risk, summed up: count, sum and p90
 * (percentile_disc(0.9)), kept with trend_risk in ingest's transaction. A percentile does not
 * add up, so only day buckets read it (one row a day instead of up to 101); weeks and months
 * still walk the histogram. Rows only for keys with at least one such score.
 */
export const trendRiskDays = pgTable(
  'trend_risk_days',
  {
    ...cubeKeys(),
    n: integer('n').notNull(),
    sum: bigint('sum', { mode: 'number' }).notNull(),
    p90: integer('p90').notNull(),
    /**
     * How many scores lie below p90, and at it: enough to tell, from a change's deltas alone,
     * that p90 stays (lib/sync/rollup.ts). NULL on rows written before they existed: the next
     * change walks that key's histogram once.
     */
    belowP90: integer('below_p90'),
    atP90: integer('at_p90'),
  },
  (t) => [cubePrimaryKey('trend_risk_days_pk', t)],
);

/** Executions per day with at least one capability entry REJECTED or WARNING with that label. */
export const trendLabels = pgTable(
  'trend_labels',
  {
    ...cubeKeys(),
    capability: text('capability').notNull(),
    decisionType: text('decision_type').notNull(),
    label: text('label').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    cubePrimaryKey('trend_labels_pk', t, t.capability, t.decisionType, t.label),
    // Each label's days in order, for its series (drizzle/0032_trend_labels_series.sql adds INCLUDE n).
    index('trend_labels_series_idx').on(
      t.scope,
      t.definitionKey,
      t.issuingCountry,
      t.documentType,
      t.capability,
      t.decisionType,
      t.label,
      t.day,
    ),
  ],
);

/** Executions per day in which a rule matched, by analyst feedback (for the rule's precision). */
export const trendRules = pgTable(
  'trend_rules',
  {
    ...cubeKeys(),
    ruleId: text('rule_id').notNull(),
    feedbackStatus: text('feedback_status').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [cubePrimaryKey('trend_rules_pk', t, t.ruleId, t.feedbackStatus)],
);

/** The latest name seen for each rule id, so the page names rules without reading rule_results. */
export const trendRuleNames = pgTable('trend_rule_names', {
  ruleId: text('rule_id').primaryKey(),
  ruleName: text('rule_name'),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
});
