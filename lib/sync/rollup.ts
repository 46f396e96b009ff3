import { sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/lib/db/client';
import type { executions } from '@/lib/db/schema';
import {
  createdInRange,
  KNOWN_LABEL_DECISIONS as KNOWN,
  labelsOfExecution,
  MONTH_SCOPE,
  rollupColumns,
  rulesOfExecution,
  SCOPE,
  type DayRange,
} from '@/lib/trends/rollup-keys';

/** The fields of an execution that trends aggregate; ingest passes them before and after a change. */
export type RollupRow = Pick<
  typeof executions.$inferSelect,
  | 'id'
  | 'createdAt'
  | 'status'
  | 'decisionType'
  | 'decisionLabel'
  | 'riskScore'
  | 'definitionKey'
  | 'issuingCountry'
  | 'documentType'
  | 'feedbackStatus'
  | 'feedbackReason'
  | 'capabilityTags'
> & { matchedRuleIds: string[] };

/** The rollup fields of an executions row (as stored, or as ingest is about to write it). */
export function rollupOf(
  e: Pick<RollupRow, 'id' | 'createdAt' | 'status'> & Partial<RollupRow>,
  matchedRuleIds: string[],
): RollupRow {
  return {
    id: e.id,
    createdAt: e.createdAt,
    status: e.status,
    decisionType: e.decisionType ?? null,
    decisionLabel: e.decisionLabel ?? null,
    riskScore: e.riskScore ?? null,
    definitionKey: e.definitionKey ?? null,
    issuingCountry: e.issuingCountry ?? null,
    documentType: e.documentType ?? null,
    feedbackStatus: e.feedbackStatus ?? null,
    feedbackReason: e.feedbackReason ?? null,
    capabilityTags: e.capabilityTags ?? [],
    matchedRuleIds,
  };
}

/**
 * The trends rollup (lib/db/schema/trends.ts), kept current by ingest in the same transaction.
 *
 * Ingest calls `applyRollupChanges` with each changed
 * execution's fields before and after the write: the old keys get -1 and the new ones +1. An
 * unchanged execution is not passed at all and equal keys net to zero, so re-ingest writes
 * nothing; a changed decision, feedback, score, label or rule moves exactly that execution
 * between rows. `rebuildRollup` recomputes the same keys from the raw rows in SQL, and the trends
 * page's raw-table queries use the same SQL definitions, so the three always agree.
 *
 * No 'server-only' here: ingest (and so this module) also runs in the worker and scripts.
 */

/**
 * Every table of the rollup (lib/db/schema/trends.ts): what a reset of the cache must empty
 * together with the executions, and what a rebuild locks.
 */
export const ROLLUP_TABLES = [
  'trend_decisions',
  'trend_risk',
  'trend_risk_days',
  'trend_labels',
  'trend_rules',
  'trend_rule_names',
] as const;
/** `ROLLUP_TABLES` as an SQL list of names. */
export const ROLLUP_TABLE_LIST = ROLLUP_TABLES.join(', ');

export interface RollupKeys {
  day: string;
  definitionKey: string;
  issuingCountry: string;
  documentType: string;
  decisionType: string;
  feedbackStatus: string;
  feedbackReason: string;
  riskScore: number | null;
  labels: Array<{ capability: string; decisionType: string; label: string }>;
  ruleIds: string[];
}

/** The trends labels of one execution, from its capability tags. */
export function labelsOfTags(tags: readonly string[]): RollupKeys['labels'] {
  const types = new Set<string>();
  const labels: Array<[string, string]> = [];
  for (const tag of tags) {
    const i = tag.indexOf(':');
    if (i < 0) continue;
    const capability = tag.slice(0, i);
    const rest = tag.slice(i + 1);
    if (rest.startsWith('label:')) labels.push([capability, rest.slice(6)]);
    else types.add(`${capability}:${rest}`);
  }
  const out: RollupKeys['labels'] = [];
  const seen = new Set<string>();
  for (const [capability, label] of labels) {
    const decisionType =
      KNOWN.get(`${capability}:${label}`) ??
      (types.has(`${capability}:REJECTED`) ? 'REJECTED' : types.has(`${capability}:WARNING`) ? 'WARNING' : null);
    if (decisionType !== 'REJECTED' && decisionType !== 'WARNING') continue;
    const key = `${capability}\u0000${label}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ capability, decisionType, label });
  }
  return out;
}

/** The rollup keys of an executions row as ingest passes it. */
export function rollupKeysOf(row: RollupRow): RollupKeys {
  const fb = row.feedbackStatus && row.feedbackStatus !== 'NA' ? row.feedbackStatus : '';
  return {
    day: row.createdAt.toISOString().slice(0, 10),
    definitionKey: row.definitionKey ?? '',
    issuingCountry: row.issuingCountry ?? '',
    documentType: row.documentType ?? '',
    decisionType: row.decisionType ?? '',
    feedbackStatus: fb,
    feedbackReason: row.feedbackReason && row.feedbackReason !== 'NA' ? row.feedbackReason : '',
    riskScore: row.riskScore,
    labels: labelsOfTags(row.capabilityTags ?? []),
    ruleIds: [...new Set(row.matchedRuleIds)],
  };
}

/** The rollup tables and the columns (with their SQL types) that follow the cube keys in each one's primary key. */
const CUBE_TABLES = {
  decisions: {
    table: 'trend_decisions',
    keys: [
      ['decision_type', 'text'],
      ['feedback_status', 'text'],
      ['feedback_reason', 'text'],
    ],
  },
  risk: { table: 'trend_risk', keys: [['risk_score', 'integer']] },
  labels: {
    table: 'trend_labels',
    keys: [
      ['capability', 'text'],
      ['decision_type', 'text'],
      ['label', 'text'],
    ],
  },
  rules: {
    table: 'trend_rules',
    keys: [
      ['rule_id', 'text'],
      ['feedback_status', 'text'],
    ],
  },
} as const;
type CubeTable = keyof typeof CUBE_TABLES;
const CUBE_KEYS = [
  ['scope', 'smallint'],
  ['definition_key', 'text'],
  ['issuing_country', 'text'],
  ['document_type', 'text'],
  ['day', 'date'],
] as const;

/** Net count changes per rollup row of each table; a row is its primary key values in column order. */
class Deltas {
  private maps = { decisions: new Map(), risk: new Map(), labels: new Map(), rules: new Map() } as Record<
    CubeTable,
    Map<string, { key: Array<string | number>; n: number }>
  >;
  /** `id` identifies `key` within the table (its values joined by NUL, which Postgres text cannot hold). */
  add(table: CubeTable, id: string, key: () => Array<string | number>, n: number) {
    const map = this.maps[table];
    const d = map.get(id);
    if (d) d.n += n;
    else map.set(id, { key: key(), n });
  }
  /** Non-zero deltas of one table in a fixed order, so concurrent transactions lock rollup rows in the same order. */
  of(table: CubeTable) {
    return [...this.maps[table].entries()]
      .filter(([, d]) => d.n !== 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, d]) => d);
  }
}

/** The sixteen cube keys of one execution: each filter kept or aggregated away, by day and by month. */
function cubeOf(k: RollupKeys): Array<[number, string, string, string, string]> {
  const out: Array<[number, string, string, string, string]> = [];
  for (const [grain, day] of [
    [0, k.day],
    [MONTH_SCOPE, `${k.day.slice(0, 7)}-01`],
  ] as const) {
    for (let scope = 0; scope < 8; scope++) {
      out.push([
        grain + scope,
        scope & SCOPE.definitionKey ? '' : k.definitionKey,
        scope & SCOPE.issuingCountry ? '' : k.issuingCountry,
        scope & SCOPE.documentType ? '' : k.documentType,
        day,
      ]);
    }
  }
  return out;
}

/**
 * Applies the change of each execution from `before` (null: new) to `after` to the rollup, in
 * the caller's transaction. This is ingest's change hook. A page's changes are summed per
 * rollup row first (`Deltas`), so a row that many executions share is written once. One
 * statement adds every delta to the four tables, brings the day summaries of the risk scores
 * that moved up to date (`refreshRiskDays`, under the locks of their days: `lockRiskDays`) and
 * keeps `ruleNames` (the names of the rules the written executions matched, in write order: the
 * caller has them, so the statement reads no rule_results); only when some count went down, a
 * second one drops the rows that reached zero. Each table's deltas travel as one JSON parameter
 * (an array of rows, each an array of the key values in column order, then n): a VALUES list of
 * typed placeholders cost more to build and to parse than the database spent on the rows.
 */
export async function applyRollupChanges(
  tx: DbOrTx,
  changes: ReadonlyArray<{ before: RollupRow | null; after: RollupRow | null }>,
  ruleNames: ReadonlyArray<readonly [ruleId: string, name: string | null]> = [],
) {
  const deltas = new Deltas();
  const S = '\u0000';
  const add = (k: RollupKeys, n: number) => {
    for (const cube of cubeOf(k)) {
      const c = cube.join(S);
      deltas.add(
        'decisions',
        `${c}${S}${k.decisionType}${S}${k.feedbackStatus}${S}${k.feedbackReason}`,
        () => [...cube, k.decisionType, k.feedbackStatus, k.feedbackReason],
        n,
      );
      if (k.riskScore != null) deltas.add('risk', `${c}${S}${k.riskScore}`, () => [...cube, k.riskScore!], n);
      for (const l of k.labels)
        deltas.add(
          'labels',
          `${c}${S}${l.capability}${S}${l.decisionType}${S}${l.label}`,
          () => [...cube, l.capability, l.decisionType, l.label],
          n,
        );
      for (const r of k.ruleIds)
        deltas.add('rules', `${c}${S}${r}${S}${k.feedbackStatus}`, () => [...cube, r, k.feedbackStatus], n);
    }
  };
  for (const { before, after } of changes) {
    if (before) add(rollupKeysOf(before), -1);
    if (after) add(rollupKeysOf(after), +1);
  }
  const tables = (Object.keys(CUBE_TABLES) as CubeTable[])
    .map((t) => ({ t, list: deltas.of(t) }))
    .filter((x) => x.list.length > 0);
  const steps: SQL[] = [];
  for (const { t, list } of tables) {
    const { table, names, fromJson } = tableOf(t);
    // Rows are written (and so locked) in the array's sorted order.
    steps.push(sql`${sql.identifier(`up_${t}`)} as (insert into ${sql.identifier(table)} as t (${names}, n)
      select ${fromJson}, (r->>${sql.raw(String(CUBE_TABLES[t].keys.length + CUBE_KEYS.length))})::integer
      from jsonb_array_elements(${JSON.stringify(list.map((d) => [...d.key, d.n]))}::jsonb) with ordinality as j(r, i)
      order by i
      on conflict (${names}) do update set n = t.n + excluded.n)`);
  }
  // Later names of one rule win, as the latest row of rule_results does in the rebuild.
  const names = [...new Map(ruleNames).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (names.length)
    steps.push(
      sql`up_names as (${ruleNamesUpsert(sql`select r->>0, r->>1 from jsonb_array_elements(${JSON.stringify(names)}::jsonb) r`)})`,
    );
  // The day summaries of the day-grain histogram deltas (key, score, n), in the same statement.
  const dayDeltas = (tables.find((x) => x.t === 'risk')?.list ?? [])
    .filter((d) => Number(d.key[0]) < MONTH_SCOPE)
    .map((d) => [...d.key, d.n]);
  steps.push(...refreshRiskDays(dayDeltas));
  await lockRiskDays(tx, [...new Set(dayDeltas.map((d) => String(d[4])))]);
  if (steps.length) await tx.execute(sql`with ${sql.join(steps, sql`, `)} select 1`);
  // Only when some count went down, a second statement (a CTE of the one above would not see
  // the counts it wrote): drop the rows whose count reached zero, which no longer describe any
  // execution.
  const after: SQL[] = [];
  for (const { t, list } of tables) {
    const down = list.filter((d) => d.n < 0);
    if (!down.length) continue;
    const { table, cols, fromJson } = tableOf(t);
    const on = sql.join(
      cols.map((c) => sql`t.${sql.identifier(c)} = x.${sql.identifier(c)}`),
      sql` and `,
    );
    after.push(sql`${sql.identifier(`down_${t}`)} as (delete from ${sql.identifier(table)} t
      using (select ${fromJson} from jsonb_array_elements(${JSON.stringify(down.map((d) => d.key))}::jsonb) r) as x
      where t.n = 0 and ${on})`);
  }
  if (after.length) await tx.execute(sql`with ${sql.join(after, sql`, `)} select 1`);
}

const CUBE_COLUMNS = CUBE_KEYS.map(([c]) => c);
const CUBE_KEY_LIST = sql.raw(CUBE_COLUMNS.join(', '));
const CUBE_KEY_LIST_T = sql.raw(CUBE_COLUMNS.map((c) => `t.${c}`).join(', '));
const CUBE_KEY_LIST_X = sql.raw(CUBE_COLUMNS.map((c) => `x.${c}`).join(', '));
const CUBE_KEY_LIST_D = sql.raw(CUBE_COLUMNS.map((c) => `d.${c}`).join(', '));
/** Equality of the cube keys of two aliases. */
const onKeys = (a: string, b: string) => sql.raw(CUBE_COLUMNS.map((c) => `${a}.${c} = ${b}.${c}`).join(' and '));

/**
 * Count, sum and p90 (percentile_disc(0.9), the first score whose cumulative count reaches
 * ceil(0.9 * n) in float8, as Postgres computes it) of each day-grain cube key of `histogram`
 * (a relation of cube keys, risk_score 0..100 and n > 0), with how many scores lie below p90 and
 * at it.
 */
function riskDaysOf(histogram: SQL): SQL {
  return sql`select ${CUBE_KEY_LIST}, sum(n)::int as n, sum(risk_score::bigint * n)::bigint as sum,
      min(risk_score) filter (where cum >= target) as p90,
      coalesce(max(cum) filter (where cum < target), 0)::int as below_p90,
      (min(cum) filter (where cum >= target) - coalesce(max(cum) filter (where cum < target), 0))::int as at_p90
    from (
      select *, ceil(0.9::float8 * total::float8) as target from (
        select ${CUBE_KEY_LIST_T}, t.risk_score, t.n,
          sum(t.n) over (partition by ${CUBE_KEY_LIST_T} order by t.risk_score rows unbounded preceding) as cum,
          sum(t.n) over (partition by ${CUBE_KEY_LIST_T}) as total
        from ${histogram} t
      ) w
    ) h group by ${CUBE_KEY_LIST}`;
}

/**
 * The class of the advisory locks that serialise the upkeep of one day's trend_risk_days rows
 * (two-key form: a space of its own, apart from the one-key locks ingest takes per execution and
 * the migrations' lock); the second key is the day, as days since 1970-01-01.
 */
const RISK_DAY_LOCK = 72737015;

/**
 * Takes the day locks of `days` (ISO dates) for the rest of the caller's transaction, in sorted
 * order so that two pages touching the same days cannot deadlock, in a statement of its own
 * before the rollup statement.
 *
 * Why: `refreshRiskDays` rebuilds a day's summary from what its statement sees, trend_risk and
 * trend_risk_days as of the statement's start, and then writes absolute values. Without the
 * lock, transaction A writes the day's summary and stays open (ingest goes on with case matching;
 * a fetch with its callback's bookkeeping); B's rollup statement starts meanwhile, computes the
 * day from a snapshot without A's change, waits for A's row lock, and once A commits, replaces
 * A's summary with one that lacks A's change (the histogram itself, written as deltas, stays
 * right). With the lock, B waits before its statement starts, and in READ COMMITTED (ingest's
 * level) that statement's snapshot then includes A's commit.
 */
async function lockRiskDays(tx: DbOrTx, days: string[]) {
  if (!days.length) return;
  await tx.execute(
    sql`select pg_advisory_xact_lock(${RISK_DAY_LOCK}::int, (d - date '1970-01-01')::int)
      from unnest(${sql.param(days.sort())}::date[]) as d order by d`,
  );
}

/**
 * Statement steps that bring the trend_risk_days rows of the day-grain cube keys whose scores
 * moved (`deltas`: key values, score, n) up to date, in the statement that writes the same
 * deltas to trend_risk: it reads trend_risk as it was before and adds the deltas itself.
 *
 * Most changes leave a key's p90 where it was, and the row's counts below and at p90 tell so
 * from the deltas alone: p90 stays exactly when, after the change, fewer than ceil(0.9 * n)
 * scores lie below it and at least that many at or below it. Those rows get their new counts
 * in place; only the others (p90 moved, a new key, a row from before the counts) walk their
 * histogram again, and those left without scores are dropped. Walking every moved key's
 * histogram in every ingest, in a statement of its own, once cost more than the four tables'
 * writes together.
 */
function refreshRiskDays(deltas: Array<Array<string | number>>): SQL[] {
  if (deltas.length === 0) return [];
  const score = `(r->>${CUBE_KEYS.length})::integer`;
  const n = `(r->>${CUBE_KEYS.length + 1})::integer`;
  return [
    sql`rd_d as (select ${fromJsonRow(CUBE_KEYS)}, ${sql.raw(score)} as score, ${sql.raw(n)} as d
      from jsonb_array_elements(${JSON.stringify(deltas)}::jsonb) r where ${sql.raw(score)} >= 0)`,
    sql`rd_cur as (select ${CUBE_KEY_LIST_X}, x.n + sum(d.d) as n, x.sum + sum(d.score::bigint * d.d) as sum,
        x.below_p90 + coalesce(sum(d.d) filter (where d.score < x.p90), 0) as below,
        x.at_p90 + coalesce(sum(d.d) filter (where d.score = x.p90), 0) as at
      from rd_d d join trend_risk_days x on ${onKeys('x', 'd')}
      where x.below_p90 is not null group by ${CUBE_KEY_LIST_X})`,
    sql`rd_fast as (select * from rd_cur
      where below < ceil(0.9::float8 * n::float8) and ceil(0.9::float8 * n::float8) <= below + at)`,
    sql`rd_keys as (select distinct ${CUBE_KEY_LIST} from rd_d d
      where not exists (select 1 from rd_fast f where ${onKeys('f', 'd')}))`,
    sql`rd_hist as (select ${CUBE_KEY_LIST}, risk_score, sum(n) as n from (
        select ${CUBE_KEY_LIST_T}, t.risk_score, t.n from rd_keys k join trend_risk t on ${onKeys('k', 't')}
          where t.risk_score >= 0
        union all select ${CUBE_KEY_LIST_D}, d.score, d.d from rd_keys k join rd_d d on ${onKeys('k', 'd')}) h
      group by ${CUBE_KEY_LIST}, risk_score having sum(n) > 0)`,
    sql`rd_sums as (${riskDaysOf(sql`rd_hist`)})`,
    sql`rd_set as (update trend_risk_days t set n = f.n, sum = f.sum, below_p90 = f.below, at_p90 = f.at
      from rd_fast f where ${onKeys('t', 'f')})`,
    sql`rd_del as (delete from trend_risk_days d using rd_keys k where ${onKeys('d', 'k')} and not exists (select 1 from rd_sums s where ${onKeys('s', 'd')}))`,
    sql`rd_up as (insert into trend_risk_days (${CUBE_KEY_LIST}, n, sum, p90, below_p90, at_p90) select * from rd_sums
      on conflict (${CUBE_KEY_LIST}) do update set n = excluded.n, sum = excluded.sum, p90 = excluded.p90,
        below_p90 = excluded.below_p90, at_p90 = excluded.at_p90)`,
  ];
}

/** Columns read from a JSON array `r` (one row, values in column order) with their SQL types, named as the columns. */
const fromJsonRow = (cols: ReadonlyArray<readonly [string, string]>) =>
  sql.raw(cols.map(([c, type], i) => `(r->>${i})::${type} as ${c}`).join(', '));

/** A table's primary key columns, and the same values read from a JSON array `r` (one row, in column order). */
function tableOf(which: CubeTable) {
  const { table, keys } = CUBE_TABLES[which];
  const all = [...CUBE_KEYS, ...keys];
  const cols = all.map(([c]) => c) as string[];
  return {
    table,
    cols,
    names: sql.join(
      cols.map((c) => sql.identifier(c)),
      sql`, `,
    ),
    fromJson: fromJsonRow(all),
  };
}

/**
 * Keeps the latest name of each matched rule, so the page names rules without reading
 * rule_results. `names` selects (rule id, name) pairs, one per rule.
 */
function ruleNamesUpsert(names: SQL): SQL {
  return sql`insert into trend_rule_names (rule_id, rule_name) ${names}
    on conflict (rule_id) do update set rule_name = excluded.rule_name, seen_at = now()
    where trend_rule_names.rule_name is distinct from excluded.rule_name`;
}

/**
 * Recomputes the rollup from the raw rows, for the whole history or the given days: the repair
 * path, and what tests compare the incremental rollup with. Locks the rollup tables for the
 * duration; an ingest that commits meanwhile waits and then applies its delta on top.
 */
export async function rebuildRollup(database: Db, range: DayRange = {}): Promise<{ executions: number }> {
  return database.transaction(async (tx) => {
    await tx.execute(sql.raw(`lock table ${ROLLUP_TABLE_LIST} in exclusive mode`));
    // The range's day rows (of table alias `a`).
    const days = (a: string) => {
      const d = sql.raw(`${a}.day`);
      const out: SQL[] = [sql.raw(`${a}.scope < ${MONTH_SCOPE}`)];
      if (range.from) out.push(sql`${d} >= ${range.from}::date`);
      if (range.to) out.push(sql`${d} <= ${range.to}::date`);
      return sql.join(out, sql` and `);
    };
    for (const t of Object.values(CUBE_TABLES))
      await tx.execute(sql`delete from ${sql.identifier(t.table)} r where ${days('r')}`);

    const c = rollupColumns;
    const where = createdInRange(range);
    // The normalised columns first, then CUBE over the three filters: one pass per table.
    const base = (extra: SQL) =>
      sql`select ${c.day} as day, ${c.definitionKey} as dk, ${c.issuingCountry} as ic, ${c.documentType} as dt, ${extra} from executions e`;
    const cube = sql`grouping(dk, ic, dt)::smallint, coalesce(dk, ''), coalesce(ic, ''), coalesce(dt, ''), day`;
    const res = await tx.execute<{ n: number }>(sql`
      with ins as (
        insert into trend_decisions (scope, definition_key, issuing_country, document_type, day, decision_type, feedback_status, feedback_reason, n)
        select ${cube}, decision, fb, reason, count(*)::int
        from (${base(sql`${c.decisionType} as decision, ${c.feedbackStatus} as fb, ${c.feedbackReason} as reason`)} where ${where}) x
        group by day, decision, fb, reason, cube(dk, ic, dt)
        returning scope, n
      ) select coalesce(sum(n), 0)::int as n from ins where scope = 7`);
    await tx.execute(sql`
      insert into trend_risk (scope, definition_key, issuing_country, document_type, day, risk_score, n)
      select ${cube}, score, count(*)::int
      from (${base(sql`e.risk_score as score`)} where ${where} and e.risk_score is not null) x
      group by day, score, cube(dk, ic, dt)`);
    await tx.execute(sql`
      insert into trend_labels (scope, definition_key, issuing_country, document_type, day, capability, decision_type, label, n)
      select ${cube}, capability, decision_type, label, count(*)::int
      from (${base(sql`l.capability, l.decision_type, l.label`)} cross join lateral ${labelsOfExecution} l where ${where}) x
      group by day, capability, decision_type, label, cube(dk, ic, dt)`);
    await tx.execute(sql`
      insert into trend_rules (scope, definition_key, issuing_country, document_type, day, rule_id, feedback_status, n)
      select ${cube}, rule_id, fb, count(*)::int
      from (${base(sql`r.rule_id, ${c.feedbackStatus} as fb`)} cross join lateral ${rulesOfExecution} r where ${where}) x
      group by day, rule_id, fb, cube(dk, ic, dt)`);

    await tx.execute(sql`delete from trend_risk_days r where ${days('r')}`);
    await tx.execute(
      sql`insert into trend_risk_days (${CUBE_KEY_LIST}, n, sum, p90, below_p90, at_p90) ${riskDaysOf(
        sql`(select * from trend_risk r where r.scope < ${MONTH_SCOPE} and r.risk_score >= 0 and r.n > 0 and ${days('r')})`,
      )}`,
    );

    // Month rows of every month the range touches, summed from the day rows (whole months,
    // so a rebuild of a few days leaves its months right).
    const months: SQL[] = [sql`true`];
    if (range.from) months.push(sql`day >= date_trunc('month', ${range.from}::date)::date`);
    if (range.to) months.push(sql`day <= (date_trunc('month', ${range.to}::date) + interval '1 month - 1 day')::date`);
    const inMonths = sql.join(months, sql` and `);
    for (const t of Object.values(CUBE_TABLES)) {
      const keys = sql.raw(t.keys.map(([c]) => c).join(', '));
      await tx.execute(sql`delete from ${sql.identifier(t.table)} where scope >= ${MONTH_SCOPE} and ${inMonths}`);
      await tx.execute(sql`
        insert into ${sql.identifier(t.table)} (scope, definition_key, issuing_country, document_type, day, ${keys}, n)
        select scope + ${MONTH_SCOPE}, definition_key, issuing_country, document_type, date_trunc('month', day)::date, ${keys}, sum(n)::int
        from ${sql.identifier(t.table)} where scope < ${MONTH_SCOPE} and ${inMonths}
        group by 1, 2, 3, 4, 5, ${keys}`);
    }
    await tx.execute(
      ruleNamesUpsert(sql`select distinct on (r.rule_id) r.rule_id, r.rule_name from rule_results r
        where r.matched and exists (select 1 from executions e where e.id = r.execution_id and ${where})
        order by r.rule_id, r.id desc`),
    );
    return { executions: res.rows[0]?.n ?? 0 };
  });
}
