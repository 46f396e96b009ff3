/**
 * The executions list's scenarios, one list for the benchmarks that time the list
 * (`npm run bench:list`, `npm run bench:growth`): common filter, sort and search combinations and
 * deep pages, with the values they filter on taken from the database being measured.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { executions } from '@/lib/db/schema';
import { decodeCursor, encodeCursor, LIST_COLUMNS, readListWithTotal, type ListRowRaw } from '@/lib/executions/list';
import { DEFAULT_LIST_PARAMS, type ListParams } from '@/lib/executions/list-params';
import { resolveSearch } from '@/lib/executions/queries';
import { listConditions } from '@/lib/executions/where';
import { type Checks, timeIt } from './verdict';

export interface Scenario {
  name: string;
  params: Partial<ListParams>;
  search?: string;
  /** Rows to skip: the page is read at this depth (cursor for keyset, OFFSET for the baseline). */
  depth?: number;
}

/** What each sort orders by, for the OFFSET baseline and the pages the checks compare with. */
export const SORT_SQL: Record<ListParams['sort'], string> = {
  created: 'created_at',
  completed: 'completed_at',
  risk: 'risk_score',
  // The OFFSET baseline of a due sort reads the same per-row due time the list does.
  due: "(select due_at from cases where cases.execution_id = executions.id and cases.state <> 'resolved')",
};

/**
 * The values the scenarios filter and search by: one execution's name, document, references,
 * account and country (the row a third of the way through by id), and the country with the
 * fewest visas. Sampled once per database and kept in it (`bench_scenario_values`): a database
 * measured again (`--reuse`), or grown from 1,000,000 to 10,000,000 (`bench:growth`), is queried
 * for the same values, so a ratio or a before/after compares one query, not two values that happen
 * to be common in different amounts.
 */
export interface ScenarioValues {
  first_name: string;
  last_name: string;
  document_number: string;
  customer_internal_reference: string;
  account_id: string;
  issuing_country: string;
  rare_country: string;
}

export async function scenarioValues(d: Db): Promise<ScenarioValues> {
  const one = async <T>(q: SQL) => (await d.execute<T & Record<string, unknown>>(q)).rows[0] as T;
  await d.execute(sql`create table if not exists bench_scenario_values (v jsonb not null)`);
  const kept = await one<{ v: ScenarioValues } | undefined>(sql`select v from bench_scenario_values limit 1`);
  if (kept) return kept.v;
  const total = (await one<{ n: number }>(sql`select count(*)::int as n from executions`)).n;
  const sample = await one<Omit<ScenarioValues, 'rare_country'>>(
    sql`select first_name, last_name, document_number, customer_internal_reference, account_id, issuing_country from executions where first_name is not null and document_number is not null order by id offset ${Math.floor(total / 3)} limit 1`,
  );
  const rare = await one<{ issuing_country: string } | undefined>(
    // The country with the fewest rejected visas but some: the scenario's combination is rare, not
    // empty (a country with no rejected visa in the generator's pool has none at any size).
    sql`select issuing_country from executions where document_type = 'VISA' and decision_type = 'REJECTED' and issuing_country is not null group by 1 order by count(*), 1 limit 1`,
  );
  const values = { ...sample, rare_country: rare?.issuing_country ?? sample.issuing_country };
  await d.execute(sql`insert into bench_scenario_values (v) values (${JSON.stringify(values)}::jsonb)`);
  return values;
}

export async function listScenarios(d: Db): Promise<Scenario[]> {
  const one = async <T>(q: SQL) => (await d.execute<T & Record<string, unknown>>(q)).rows[0] as T;
  const sample = await scenarioValues(d);
  const day = await one<{ d: string }>(
    sql`select to_char(max(created_at) - interval '20 days', 'YYYY-MM-DD') as d from executions`,
  );
  const month = await one<{ d: string }>(
    sql`select to_char(max(created_at) - interval '30 days', 'YYYY-MM-DD') as d from executions`,
  );
  return [
    { name: 'newest first, page 1 (25)', params: {} },
    { name: 'newest first, page 1 (100)', params: { size: 100 } },
    { name: 'newest first, depth 10,000', params: {}, depth: 10_000 },
    { name: 'newest first, depth 100,000', params: {}, depth: 100_000 },
    { name: 'newest first, depth 500,000', params: {}, depth: 500_000 },
    { name: 'risk high-low, page 1', params: { sort: 'risk' } },
    { name: 'risk low-high, depth 100,000', params: { sort: 'risk', dir: 'asc' }, depth: 100_000 },
    { name: 'completed newest, depth 100,000', params: { sort: 'completed' }, depth: 100_000 },
    { name: 'decision REJECTED', params: { decision: ['REJECTED'] } },
    { name: 'REJECTED, depth 10,000', params: { decision: ['REJECTED'] }, depth: 10_000 },
    {
      name: 'WARNING + risk 40-70 + country, by risk',
      params: { decision: ['WARNING'], riskMin: 40, riskMax: 70, country: sample.issuing_country, sort: 'risk' },
    },
    {
      name: 'PROCESSED + last 30 days, by completed',
      params: { status: ['PROCESSED'], createdFrom: month.d, sort: 'completed' },
    },
    { name: 'one created day, by risk', params: { createdFrom: day.d, createdTo: day.d, sort: 'risk' } },
    { name: 'capability liveness REJECTED', params: { cap: ['liveness:REJECTED'] } },
    {
      name: 'label DIGITAL_COPY + REJECTED',
      params: { cap: ['imageChecks:label:DIGITAL_COPY'], decision: ['REJECTED'] },
    },
    { name: 'feedback FRAUD', params: { feedback: ['FRAUD'] } },
    { name: 'feedback not yet delivered', params: { feedback: ['pending'] } },
    { name: 'no feedback + WARNING (triage queue)', params: { feedback: ['none'], decision: ['WARNING'] } },
    { name: 'definition 10042 + DRIVING_LICENSE', params: { definition: '10042', docType: 'DRIVING_LICENSE' } },
    {
      name: 'criteria + REJECTED, by risk',
      params: { criteria: 'high-value-payout', decision: ['REJECTED'], sort: 'risk' },
    },
    {
      name: 'rare: VISA + REJECTED + country',
      params: { docType: 'VISA', decision: ['REJECTED'], country: sample.rare_country },
    },
    {
      name: 'three filters + risk sort (e2e combo)',
      params: { decision: ['REJECTED'], country: sample.issuing_country, riskMin: 71, sort: 'risk' },
    },
    { name: 'account id', params: { account: sample.account_id } },
    { name: 'search: full name', params: {}, search: `${sample.first_name} ${sample.last_name}` },
    { name: 'search: surname', params: {}, search: sample.last_name },
    { name: 'search: document number', params: {}, search: sample.document_number },
    { name: 'search: customer reference', params: {}, search: sample.customer_internal_reference },
    { name: 'search: surname + REJECTED', params: { decision: ['REJECTED'] }, search: sample.last_name },
  ];
}

/** What `runScenario` is told: runs, whether to time the OFFSET baseline, and a fault to show. */
export interface ScenarioRun {
  iterations: number;
  baseline: boolean;
  checks: Checks;
  /** `estimate` multiplies every estimate by 1,000; `keyset` reads deep pages one row off. */
  broken?: 'estimate' | 'keyset' | null;
}

/** An "about N" estimate may be off by this factor either way (the checks say by how much). */
export const ESTIMATE_BOUND = 10;

/**
 * Times one scenario as the page runs it (keyset page + its total) and, beside it, OFFSET paging
 * with an exact count(*); checks that the keyset page holds the OFFSET page's rows in its order
 * and that the total is exact or within ESTIMATE_BOUND. Null when the scenario has fewer rows
 * than its depth.
 */
export async function runScenario(d: Db, s: Scenario, o: ScenarioRun) {
  const one = async <T>(q: SQL) => (await d.execute<T & Record<string, unknown>>(q)).rows[0] as T;
  const p: ListParams = { ...DEFAULT_LIST_PARAMS, ...s.params };
  // Search as the page resolves it: an exact reference, or substring words.
  const found = s.search ? await resolveSearch(s.search, d) : null;
  const { where, estimateParts } = listConditions(
    p,
    found?.words ? { words: found.words, exactReference: found.exactReference } : null,
  );
  let cursor: string | undefined;
  if (s.depth) {
    const col = SORT_SQL[p.sort];
    const dir = p.dir === 'asc' ? 'asc' : 'desc';
    const row = await one<ListRowRaw>(
      sql`select ${sql.raw(
        Object.values(LIST_COLUMNS)
          .map((c) => `"${c.name}"`)
          .join(', '),
      )} from ${executions}${where ? sql` where ${where}` : sql``} order by ${sql.raw(`${col} ${dir} nulls last, id ${dir}`)} offset ${s.depth - 1} limit 1`,
    );
    if (row) {
      const raw = row as unknown as Record<string, unknown>;
      const fixed = {
        id: String(raw.id),
        createdAt: new Date(raw.created_at as string),
        completedAt: raw.completed_at ? new Date(raw.completed_at as string) : null,
        riskScore: (raw.risk_score as number | null) ?? null,
      };
      cursor = encodeCursor(p.sort, fixed);
      if (o.broken === 'keyset') {
        // One row off: the cursor of the row at the depth itself, so the page starts a row late.
        const off = await one<Record<string, unknown>>(
          sql`select id, created_at, completed_at, risk_score from ${executions}${where ? sql` where ${where}` : sql``} order by ${sql.raw(`${col} ${dir} nulls last, id ${dir}`)} offset ${s.depth} limit 1`,
        );
        if (off)
          cursor = encodeCursor(p.sort, {
            id: String(off.id),
            createdAt: new Date(off.created_at as string),
            completedAt: off.completed_at ? new Date(off.completed_at as string) : null,
            riskScore: (off.risk_score as number | null) ?? null,
          });
      }
      if (!decodeCursor(p.sort, cursor)) throw new Error('bad cursor');
    }
  }
  if (s.depth && !cursor) return null;
  const pp = { ...p, after: cursor };
  let rowsOnPage = 0;
  let totalLabel = '';
  let keysetIds: string[] = [];
  let shown: Awaited<ReturnType<typeof readListWithTotal>>['total'] | null = null;
  const keyset = await timeIt(async () => {
    // As the page does: the page and, beside it, its total (free when everything fits on one page).
    const { page, total: t } = await readListWithTotal(pp, where, d, estimateParts);
    rowsOnPage = page.rows.length;
    keysetIds = page.rows.map((r) => String(r.id));
    shown = t.exact || o.broken !== 'estimate' ? t : { exact: false, estimate: t.estimate * 1000 };
    totalLabel = shown.exact ? `${shown.count}` : `~${shown.estimate}`;
  }, o.iterations);
  const col = SORT_SQL[p.sort];
  const dir = p.dir === 'asc' ? 'asc' : 'desc';
  const w = where ? sql` where ${where}` : sql``;
  const baselineRuns = s.depth && s.depth >= 100_000 ? 5 : 10;
  // --quick: keyset only (for tuning); the full run always measures the baseline beside it.
  const baseline = !o.baseline
    ? { p50: NaN, p95: NaN }
    : await timeIt(
        () =>
          Promise.all([
            d.execute(
              sql`select ${sql.raw(
                Object.values(LIST_COLUMNS)
                  .map((c) => `"${c.name}"`)
                  .join(', '),
              )} from ${executions}${w} order by ${sql.raw(`${col} ${dir} nulls last, id ${dir}`)} offset ${s.depth ?? 0} limit ${p.size}`,
            ),
            d.execute(sql`select count(*) from ${executions}${w}`),
          ]),
        baselineRuns,
        1,
      );
  // The checks, outside the timing: the OFFSET page's rows and the exact count.
  const offsetIds = (
    await d.execute<{ id: string }>(
      sql`select id from ${executions}${w} order by ${sql.raw(`${col} ${dir} nulls last, id ${dir}`)} offset ${s.depth ?? 0} limit ${p.size}`,
    )
  ).rows.map((r) => String(r.id));
  o.checks.check(
    `${s.name}: keyset page = OFFSET page`,
    keysetIds.join() === offsetIds.join(),
    `${keysetIds.length} and ${offsetIds.length} rows${keysetIds.join() === offsetIds.join() ? ', same ids in the same order' : ', different'}`,
  );
  const exact = (await one<{ n: number }>(sql`select count(*)::int as n from ${executions}${w}`)).n;
  const t = shown as Awaited<ReturnType<typeof readListWithTotal>>['total'] | null;
  if (t?.exact) o.checks.check(`${s.name}: exact total = count(*)`, t.count === exact, `${t.count} and ${exact}`);
  else if (t) {
    const off = Math.max(t.estimate, 1) / Math.max(exact, 1);
    const factor = Math.max(off, 1 / off);
    o.checks.check(
      `${s.name}: estimate within ${ESTIMATE_BOUND}x`,
      factor <= ESTIMATE_BOUND,
      `about ${t.estimate.toLocaleString('en-US')} for ${exact.toLocaleString('en-US')}: ${off >= 1 ? `${off.toFixed(2)}x over` : `${(1 / off).toFixed(2)}x under`}`,
    );
  }
  return { keyset, baseline, rowsOnPage, totalLabel };
}
