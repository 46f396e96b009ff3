import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '@/lib/db/client';
import { executionLinks, executions } from '@/lib/db/schema';

/**
 * The SQL that writes mapped rows (lib/sync/map.ts): each table's rows as one JSON parameter
 * mapped onto the table's row type, executions upserted with the rules that keep a newer fetch.
 */

/**
 * Rows as the JSON text of an array of records keyed by column name (what
 * jsonb_populate_recordset maps onto a table's row type): dates as ISO text, a key missing
 * from a row left out (NULL there).
 */
function jsonRecords(rows: ReadonlyArray<object>, keys: string[], columns: Record<string, { name: string }>): string {
  return JSON.stringify(
    rows.map((r) => {
      const o: Record<string, unknown> = {};
      for (const k of keys) {
        const v = (r as Record<string, unknown>)[k];
        if (v !== undefined) o[columns[k].name] = v instanceof Date ? v.toISOString() : v;
      }
      return o;
    }),
  );
}

/**
 * Statement steps (CTEs) inserting the child rows of every table, each table's rows one JSON
 * array which Postgres maps onto the table's row type (jsonb_populate_recordset). Building a
 * multi-row insert through the query builder costs more CPU than the database spends on it (a backfill page of 100 executions carries some 3,000
 * rule results), and under load every extra round trip in the page's transaction adds latency.
 * Rows where a column is missing in some rows (a default would apply) go through the query
 * builder instead (`others`, run after the statement).
 */
export function insertChildren(
  sets: Array<[table: Parameters<Tx['insert']>[0], rows: Array<Record<string, unknown>>]>,
): { steps: SQL[]; others: (tx: Tx) => Promise<void> } {
  const steps: SQL[] = [];
  const others: Array<[Parameters<Tx['insert']>[0], Array<Record<string, unknown>>]> = [];
  for (const [table, rows] of sets) {
    if (!rows.length) continue;
    const columns = getTableColumns(table as never) as Record<string, { name: string }>;
    const keys = Object.keys(rows[0]).filter((k) => k in columns && rows[0][k] !== undefined);
    const uniform = rows.every(
      (r) =>
        keys.every((k) => r[k] !== undefined) && Object.keys(r).every((k) => keys.includes(k) || r[k] === undefined),
    );
    if (!uniform) {
      others.push([table, rows]);
      continue;
    }
    const names = sql.join(
      keys.map((k) => sql.identifier(columns[k].name)),
      sql`, `,
    );
    steps.push(
      sql`${sql.identifier(`ins_${steps.length}`)} as (insert into ${table} (${names}) select ${names} from jsonb_populate_recordset(null::${table}, ${jsonRecords(rows, keys, columns)}::jsonb))`,
    );
  }
  return {
    steps,
    others: async (tx) => {
      for (const [table, rows] of others) {
        const size = Math.max(1, Math.floor(20_000 / (Object.keys(rows[0]).length || 1)));
        for (let i = 0; i < rows.length; i += size) await tx.insert(table).values(rows.slice(i, i + size) as never);
      }
    },
  };
}

/** Columns an existing execution takes from a re-ingest as is (`excluded`); the others are below. */
const UPSERT_FROM_EXCLUDED = [
  'account_id',
  'status',
  'status_rank',
  'decision_type',
  'decision_label',
  'risk_score',
  'definition_key',
  'original_definition_key',
  'user_reference',
  'customer_internal_reference',
  'reporting_criteria',
  'created_at',
  'started_at',
  'completed_at',
  'wiped_out_at',
  'issuing_country',
  'document_type',
  'document_number',
  'first_name',
  'last_name',
  'date_of_birth',
  'document_key',
  'search_text',
  'search_tokens',
  'capability_tags',
  'feedback_status',
  'feedback_reason',
  'feedback_provided_at',
  'has_personal_data',
  'result',
  'fetched_at',
  'content_hash',
];
const UPSERT_SET = sql.raw(
  [
    ...UPSERT_FROM_EXCLUDED.map((c) => `"${c}" = excluded."${c}"`),
    // Steps and rules absent from the input (NULL here) keep the stored ones.
    'raw_steps = coalesce(excluded.raw_steps, executions.raw_steps)',
    'raw_rules = coalesce(excluded.raw_rules, executions.raw_rules)',
    'gone_at = null',
    'stale_since = null',
    'updated_at = now()',
  ].join(', '),
);

/**
 * Statement steps (CTEs) that insert or replace execution rows, 500 a step, each step's only
 * parameter a JSON array mapped onto the table's row type (as insertChildren does): drizzle
 * spent more CPU building a 500-row, 40-column VALUES list than Postgres spent on it. A key
 * missing from a row (raw steps or rules not in the input) is NULL, which the update above
 * keeps as stored.
 */
export function upsertExecutions(rows: Array<typeof executions.$inferInsert>): SQL[] {
  const columns = getTableColumns(executions) as Record<string, { name: string }>;
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((k) => k in columns);
  const names = sql.join(
    keys.map((k) => sql.identifier(columns[k].name)),
    sql`, `,
  );
  const steps: SQL[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    steps.push(sql`${sql.identifier(`up_${i}`)} as (insert into ${executions} (${names})
      select ${names} from jsonb_populate_recordset(null::${executions}, ${jsonRecords(rows.slice(i, i + 500), keys, columns)}::jsonb)
      on conflict (id) do update set ${UPSERT_SET})`);
  }
  return steps;
}

export function dedupeLinks(links: Array<typeof executionLinks.$inferInsert>) {
  const seen = new Set<string>();
  return links.filter((l) => {
    const k = `${l.executionId}|${l.linkedId}|${l.kind}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
