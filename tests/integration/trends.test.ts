import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { db } from '@/lib/db/client';
import { getTrendsData, trendsContext } from '@/lib/trends/queries';
import { spikeAlerts } from '@/lib/trends/alerts';
import { decisionsOverTime, fraudOverTime, labelsOverTime } from '@/lib/trends/series';
import { resolveTrendsFilters, type TrendsFilters } from '@/lib/trends/shared';
import { ingestExecution, ingestMany } from '@/lib/sync/ingest';
import { rebuildRollup } from '@/lib/sync/rollup';
import { trendExecution, type TrendExecutionSpec } from '../support/fixtures/trends';
import { until } from '../support/wait';

/**
 * The trends page's numbers on a hand-built data set whose every figure is worked out below,
 * and the rollup kept by ingest checked against a rebuild from the raw rows and against the
 * same queries run on the raw tables, after inserts, changes and re-ingest.
 */

const run = randomUUID().slice(0, 6);
const K1 = `wf-a-${run}`;
const K2 = `wf-b-${run}`;
const RA = { id: `ra-${run}`, name: 'Velocity of attempts' };
const RB = { id: `rb-${run}`, name: 'Country mismatch' };
const RC = { id: `rc-${run}`, name: 'Known bad device' };
const D = (d: string) => `2031-${d}T12:00:00.000Z`;
let fetchSeq = 0;
const fetchedAt = () => new Date(Date.UTC(2031, 5, 1) + ++fetchSeq * 1000);

// 2031-03-03 is a Monday: the range 03-03..03-16 is exactly two ISO weeks.
const DATA: Record<string, TrendExecutionSpec> = {
  x1: {
    createdAt: D('03-03'),
    decision: 'PASSED',
    score: 10,
    country: 'DEU',
    docType: 'PASSPORT',
    definitionKey: K1,
    rules: [RA],
  },
  x2: {
    createdAt: D('03-03'),
    decision: 'PASSED',
    score: 30,
    country: 'DEU',
    docType: 'ID_CARD',
    definitionKey: K1,
    feedback: { status: 'NOT_FRAUD' },
  },
  x3: {
    createdAt: D('03-03'),
    decision: 'REJECTED',
    score: 90,
    country: 'FRA',
    docType: 'PASSPORT',
    definitionKey: K1,
    problems: [{ capability: 'usability', type: 'REJECTED', label: 'BLURRED' }],
    rules: [RA, RB],
    feedback: { status: 'FRAUD', reason: 'IDENTITY_FRAUD' },
  },
  x4: {
    createdAt: D('03-04'),
    decision: 'WARNING',
    score: 50,
    country: 'FRA',
    docType: 'ID_CARD',
    definitionKey: K2,
    problems: [{ capability: 'similarity', type: 'WARNING', label: 'NOT_POSSIBLE' }],
    rules: [RB],
  },
  x5: {
    createdAt: D('03-04'),
    decision: 'NOT_EXECUTED',
    score: -1,
    country: 'DEU',
    docType: 'PASSPORT',
    definitionKey: K1,
  },
  x6: {
    createdAt: D('03-05'),
    decision: 'REJECTED',
    score: 80,
    country: 'DEU',
    docType: 'PASSPORT',
    definitionKey: K2,
    problems: [
      { capability: 'liveness', type: 'REJECTED', label: 'DIGITAL_COPY' },
      { capability: 'usability', type: 'REJECTED', label: 'BLURRED' },
    ],
    rules: [RB],
    feedback: { status: 'NOT_FRAUD' },
  },
  x7: {
    createdAt: D('03-05'),
    decision: 'PASSED',
    score: 0,
    country: null,
    docType: 'PASSPORT',
    definitionKey: K1,
    feedback: { status: 'FRAUD', reason: 'SYNTHETIC_ID_FRAUD' },
  },
  x8: {
    createdAt: D('03-10'),
    decision: 'PASSED',
    score: 20,
    country: 'DEU',
    docType: 'PASSPORT',
    definitionKey: K1,
    rules: [RA],
  },
  // A label the documentation does not list: kept, counted as the capability's worst decision.
  x9: {
    createdAt: D('03-10'),
    decision: 'REJECTED',
    score: 100,
    country: 'DEU',
    docType: 'PASSPORT',
    definitionKey: K1,
    problems: [{ capability: 'imageChecks', type: 'REJECTED', label: 'NEW_UNKNOWN_LABEL' }],
    rules: [RC],
    feedback: { status: 'FRAUD', reason: 'IDENTITY_FRAUD' },
  },
  x10: {
    createdAt: D('03-16'),
    decision: 'WARNING',
    score: 70,
    country: 'FRA',
    docType: 'PASSPORT',
    definitionKey: K2,
    problems: [{ capability: 'usability', type: 'WARNING', label: 'UNSUPPORTED_COUNTRY' }],
  },
  x11: {
    createdAt: D('03-11'),
    decision: null,
    score: null,
    status: 'INITIATED',
    country: 'DEU',
    docType: 'PASSPORT',
    definitionKey: K1,
  },
  // The previous period (02-17..03-02) and one day after the range.
  p1: { createdAt: D('02-20'), decision: 'PASSED', score: 5, country: 'DEU', docType: 'PASSPORT', definitionKey: K1 },
  p2: {
    createdAt: D('03-02'),
    decision: 'REJECTED',
    score: 75,
    country: 'DEU',
    docType: 'PASSPORT',
    definitionKey: K1,
    rules: [RA],
    feedback: { status: 'FRAUD', reason: 'IDENTITY_FRAUD' },
  },
  after: {
    createdAt: D('03-17'),
    decision: 'PASSED',
    score: 10,
    country: 'DEU',
    docType: 'PASSPORT',
    definitionKey: K1,
  },
};
const built = Object.fromEntries(Object.entries(DATA).map(([k, spec]) => [k, trendExecution(spec)]));

const filters = (over: Record<string, string> = {}): TrendsFilters =>
  resolveTrendsFilters({ range: 'custom', from: '2031-03-03', to: '2031-03-16', ...over }, '2031-06-01');

async function rollupSnapshot(from: string, to: string) {
  const out: Record<string, unknown[]> = {};
  for (const t of ['trend_decisions', 'trend_risk', 'trend_risk_days', 'trend_labels', 'trend_rules']) {
    const r = await db().execute(
      sql`select * from ${sql.identifier(t)} where day between ${from}::date and ${to}::date and n <> 0`,
    );
    out[t] = r.rows.map((x) => JSON.stringify(x)).sort();
  }
  return out;
}

/**
 * The filter option lists are global (not limited to this file's rows), and the rollup keeps
 * the history of executions purged by retention: its lists hold every raw value, and this
 * file's own values are in both.
 */
type Options = Awaited<ReturnType<typeof getTrendsData>>['options'];
function expectOptions(rollup: Options, raw: Options) {
  for (const k of ['definitionKeys', 'countries', 'docTypes'] as const) {
    expect(rollup[k], k).toEqual(expect.arrayContaining(raw[k]));
  }
  expect(raw.definitionKeys).toEqual(expect.arrayContaining([K1, K2]));
  expect(rollup.definitionKeys).toEqual(expect.arrayContaining([K1, K2]));
  expect(raw.countries).toEqual(expect.arrayContaining(['DEU', 'FRA']));
}
const strip = (d: Awaited<ReturnType<typeof getTrendsData>>) => ({ ...d, asOf: null, options: null });

/** The incremental rollup equals a rebuild from raw rows, and every query equals its raw-table twin. */
async function expectRollupExact(from: string, to: string, combos: Array<Record<string, string>>) {
  const incremental = await rollupSnapshot(from, to);
  await rebuildRollup(db(), { from, to });
  expect(await rollupSnapshot(from, to)).toEqual(incremental);
  for (const c of combos) {
    const f = filters(c);
    const [a, b] = await Promise.all([getTrendsData(f), getTrendsData(f, { source: 'raw' })]);
    expect(strip(a), JSON.stringify(c)).toEqual(strip(b));
    expectOptions(a.options, b.options);
  }
}

const COMBOS: Array<Record<string, string>> = [
  {},
  { granularity: 'week' },
  { definitionKey: K1 },
  { definitionKey: K2, granularity: 'month' },
  { country: 'DEU' },
  { docType: 'PASSPORT' },
  { country: 'DEU', docType: 'PASSPORT', definitionKey: K1 },
  { country: 'FRA', granularity: 'week' },
  // Ranges with whole months, read from the month rows (and their previous periods).
  { from: '2031-02-01', to: '2031-03-31', granularity: 'month' },
  { from: '2031-02-15', to: '2031-04-10' },
  { from: '2031-01-01', to: '2031-12-31', granularity: 'month', country: 'DEU' },
  { from: '2031-03-01', to: '2031-03-31', definitionKey: K2, granularity: 'week' },
];

describe('trends: known data set, every chart exactly', () => {
  beforeAll(async () => {
    // One at a time, as callbacks would arrive, then the same again as a batch (all unchanged).
    for (const x of Object.values(built)) await ingestExecution(db(), { ...x, fetchedAt: fetchedAt() });
    const again = await ingestMany(
      db(),
      Object.values(built).map((x) => ({ ...x, fetchedAt: fetchedAt() })),
    );
    expect(again.every((o) => o.outcome === 'unchanged')).toBe(true);
  });

  it('KPIs against the previous period of the same length', async () => {
    const d = await getTrendsData(filters());
    expect(d.previous).toEqual({ from: '2031-02-17', to: '2031-03-02' });
    // -1 (not executed) and no score are left out of the average: 450 / 9.
    expect(d.kpis.current).toEqual({
      executions: 11,
      passed: 4,
      warning: 2,
      rejected: 3,
      riskSum: 450,
      riskCount: 9,
      fraud: 3,
    });
    expect(d.kpis.previous).toEqual({
      executions: 2,
      passed: 1,
      warning: 0,
      rejected: 1,
      riskSum: 80,
      riskCount: 2,
      fraud: 1,
    });
  });

  it('decisions per day, with empty days, and per ISO week', async () => {
    const d = await getTrendsData(filters());
    expect(d.buckets.map((b) => b.key)).toEqual(
      Array.from({ length: 14 }, (_, i) => `2031-03-${String(3 + i).padStart(2, '0')}`),
    );
    expect(d.decisionTypes).toEqual(['PASSED', 'WARNING', 'REJECTED', 'NOT_EXECUTED', '']);
    const empty = { total: 0, counts: {} };
    expect(d.decisions).toEqual([
      { total: 3, counts: { PASSED: 2, REJECTED: 1 } },
      { total: 2, counts: { WARNING: 1, NOT_EXECUTED: 1 } },
      { total: 2, counts: { PASSED: 1, REJECTED: 1 } },
      empty,
      empty,
      empty,
      empty,
      { total: 2, counts: { PASSED: 1, REJECTED: 1 } },
      { total: 1, counts: { '': 1 } },
      empty,
      empty,
      empty,
      empty,
      { total: 1, counts: { WARNING: 1 } },
    ]);
    const w = await getTrendsData(filters({ granularity: 'week' }));
    expect(w.buckets).toEqual([
      { key: '2031-03-03', from: '2031-03-03', to: '2031-03-09' },
      { key: '2031-03-10', from: '2031-03-10', to: '2031-03-16' },
    ]);
    expect(w.decisions).toEqual([
      { total: 7, counts: { PASSED: 3, WARNING: 1, REJECTED: 2, NOT_EXECUTED: 1 } },
      { total: 4, counts: { PASSED: 1, WARNING: 1, REJECTED: 1, '': 1 } },
    ]);
  });

  it('months are clipped to the range', async () => {
    const m = await getTrendsData(filters({ granularity: 'month', from: '2031-02-20', to: '2031-03-04' }));
    expect(m.buckets).toEqual([
      { key: '2031-02-01', from: '2031-02-20', to: '2031-02-28' },
      { key: '2031-03-01', from: '2031-03-01', to: '2031-03-04' },
    ]);
    expect(m.decisions.map((b) => b.total)).toEqual([1, 6]); // p1; then p2, x1, x2, x3, x4, x5
  });

  it('risk score distribution (with -1) and average / p90 over time', async () => {
    const d = await getTrendsData(filters());
    expect(d.riskDistribution).toHaveLength(102);
    expect(d.riskDistribution.filter((b) => b.n > 0)).toEqual(
      [-1, 0, 10, 20, 30, 50, 70, 80, 90, 100].map((score) => ({ score, n: 1 })),
    );
    const none = { n: 0, sum: 0, p90: null };
    expect(d.riskOverTime).toEqual([
      { n: 3, sum: 130, p90: 90 },
      { n: 1, sum: 50, p90: 50 }, // the -1 of that day is not a score
      { n: 2, sum: 80, p90: 80 },
      none,
      none,
      none,
      none,
      { n: 2, sum: 120, p90: 100 },
      none, // the only execution that day has no score yet
      none,
      none,
      none,
      none,
      { n: 1, sum: 70, p90: 70 },
    ]);
    const w = await getTrendsData(filters({ granularity: 'week' }));
    // 0,10,30,50,80,90: ceil(0.9 * 6) = 6th value; 20,70,100: ceil(2.7) = 3rd.
    expect(w.riskOverTime).toEqual([
      { n: 6, sum: 260, p90: 90 },
      { n: 3, sum: 190, p90: 100 },
    ]);
    const raw = await db().execute<{ wk: string; p90: number }>(sql`
      select to_char(date_trunc('week', created_at at time zone 'UTC'), 'YYYY-MM-DD') as wk, percentile_disc(0.9) within group (order by risk_score) as p90
      from executions where definition_key in (${K1}, ${K2}) and risk_score >= 0 and created_at >= '2031-03-03' and created_at < '2031-03-17' group by 1 order by 1`);
    expect(raw.rows.map((r) => r.p90)).toEqual([90, 100]);
  });

  it('top labels per capability and top matched rules over time', async () => {
    const w = await getTrendsData(filters({ granularity: 'week' }));
    expect(w.labels).toEqual([
      { capability: 'imageChecks', decisionType: 'REJECTED', label: 'NEW_UNKNOWN_LABEL', total: 1, series: [0, 1] },
      { capability: 'liveness', decisionType: 'REJECTED', label: 'DIGITAL_COPY', total: 1, series: [1, 0] },
      { capability: 'similarity', decisionType: 'WARNING', label: 'NOT_POSSIBLE', total: 1, series: [1, 0] },
      { capability: 'usability', decisionType: 'REJECTED', label: 'BLURRED', total: 2, series: [2, 0] },
      { capability: 'usability', decisionType: 'WARNING', label: 'UNSUPPORTED_COUNTRY', total: 1, series: [0, 1] },
    ]);
    expect(w.rules).toEqual([
      { ruleId: RA.id, name: RA.name, total: 3, series: [2, 1] },
      { ruleId: RB.id, name: RB.name, total: 3, series: [3, 0] },
      { ruleId: RC.id, name: RC.name, total: 1, series: [0, 1] },
    ]);
  });

  // By day, the labels' series come from the spike alerts' read of the same rows (one read of a
  // year of label rows instead of two); they must rank and count exactly as the labels' own query.
  it("labels by day from the alerts' read equal the labels' own query, in every combination", async () => {
    const ranges: Array<Record<string, string>> = [
      { from: '2031-01-01', to: '2031-12-31' },
      { from: '2031-03-10', to: '2031-03-20' },
      { from: '2031-04-01', to: '2031-04-10' },
    ];
    let withLabels = 0;
    for (const c of [...COMBOS, ...ranges].filter((x) => !x.granularity)) {
      for (const mode of ['rollup', 'raw'] as const) {
        for (const per of [1, 2, 6]) {
          const f = filters({ ...c, granularity: 'day' });
          expect(f.granularity).toBe('day');
          const shared = trendsContext(f, db(), mode);
          const own = { ...trendsContext(f, db(), mode), shared: undefined };
          const [a, b] = await Promise.all([labelsOverTime(shared, per), labelsOverTime(own, per)]);
          expect(a, JSON.stringify({ c, mode, per })).toEqual(b);
          if (a.length) withLabels++;
        }
      }
    }
    expect(withLabels).toBeGreaterThan(10);
  });

  // By day, the decisions and fraud series and the alerts' daily totals share one read of the
  // decisions' days; the series must equal their own queries', the alerts those of a page that
  // shares nothing.
  it('decisions and fraud by day from the shared read equal their own queries, in every combination', async () => {
    const ranges: Array<Record<string, string>> = [
      { from: '2031-01-01', to: '2031-12-31' },
      { from: '2031-03-10', to: '2031-03-20' },
      { from: '2031-03-16', to: '2031-03-16' },
    ];
    let withData = 0;
    for (const c of [...COMBOS, ...ranges].filter((x) => !x.granularity)) {
      for (const mode of ['rollup', 'raw'] as const) {
        const f = filters({ ...c, granularity: 'day' });
        const shared = trendsContext(f, db(), mode);
        const own = { ...trendsContext(f, db(), mode), shared: undefined };
        const [a, b] = await Promise.all(
          [shared, own].map(async (ctx) => ({
            decisions: await decisionsOverTime(ctx),
            fraud: await fraudOverTime(ctx),
            alerts: await spikeAlerts(ctx),
          })),
        );
        expect(a, JSON.stringify({ c, mode })).toEqual(b);
        // The same keys in the same order: the page's JSON is the same.
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        expect(shared.shared!.size, 'one shared read of the decisions and one of the labels').toBe(2);
        if (a.decisions.types.length) withData++;
      }
    }
    expect(withData).toBeGreaterThan(10);
  });

  it('country and document type breakdowns, unknown country kept', async () => {
    const d = await getTrendsData(filters());
    expect(d.countries).toEqual([
      { key: 'DEU', total: 7, counts: { PASSED: 3, REJECTED: 2, NOT_EXECUTED: 1, '': 1 } },
      { key: 'FRA', total: 3, counts: { REJECTED: 1, WARNING: 2 } },
      { key: '', total: 1, counts: { PASSED: 1 } },
    ]);
    expect(d.docTypes).toEqual([
      { key: 'PASSPORT', total: 9, counts: { PASSED: 3, REJECTED: 3, WARNING: 1, NOT_EXECUTED: 1, '': 1 } },
      { key: 'ID_CARD', total: 2, counts: { PASSED: 1, WARNING: 1 } },
    ]);
    // A breakdown under a filter of the same dimension shows only that value.
    expect((await getTrendsData(filters({ country: 'FRA' }))).countries).toEqual([
      { key: 'FRA', total: 3, counts: { REJECTED: 1, WARNING: 2 } },
    ]);
  });

  it('confirmed fraud over time, its reasons, the decision x feedback matrix and rule precision', async () => {
    const w = await getTrendsData(filters({ granularity: 'week' }));
    expect(w.fraud).toEqual([
      { total: 7, fraud: 2, notFraud: 2 },
      { total: 4, fraud: 1, notFraud: 0 },
    ]);
    expect(w.fraudReasons).toEqual([
      { reason: 'IDENTITY_FRAUD', total: 2, series: [1, 1] },
      { reason: 'SYNTHETIC_ID_FRAUD', total: 1, series: [1, 0] },
    ]);
    expect(w.matrix).toEqual([
      { decision: '', feedback: '', n: 1 },
      { decision: 'NOT_EXECUTED', feedback: '', n: 1 },
      { decision: 'PASSED', feedback: '', n: 2 },
      { decision: 'PASSED', feedback: 'FRAUD', n: 1 }, // missed fraud
      { decision: 'PASSED', feedback: 'NOT_FRAUD', n: 1 },
      { decision: 'REJECTED', feedback: 'FRAUD', n: 2 },
      { decision: 'REJECTED', feedback: 'NOT_FRAUD', n: 1 }, // false reject
      { decision: 'WARNING', feedback: '', n: 2 },
    ]);
    expect(w.rulePrecision).toEqual([
      { ruleId: RB.id, name: RB.name, matched: 3, fraud: 1, notFraud: 1 },
      { ruleId: RA.id, name: RA.name, matched: 3, fraud: 1, notFraud: 0 },
      { ruleId: RC.id, name: RC.name, matched: 1, fraud: 1, notFraud: 0 },
    ]);
    expect(w.alerts).toEqual([]);
  });

  it('filters combine, and offer every value seen', async () => {
    const d = await getTrendsData(filters({ country: 'DEU', docType: 'PASSPORT', definitionKey: K1 }));
    // x1, x5, x8, x9, x11 (x6 is K2).
    expect(d.kpis.current).toMatchObject({
      executions: 5,
      passed: 2,
      rejected: 1,
      fraud: 1,
      riskSum: 130,
      riskCount: 3,
    });
    expect(d.options.definitionKeys).toEqual(expect.arrayContaining([K1, K2]));
    expect(d.options.countries).toEqual(expect.arrayContaining(['DEU', 'FRA']));
    expect(d.options.countries).not.toContain('');
    expect(d.asOf).not.toBeNull();
  });

  it('an empty range is all zeros, not an error', async () => {
    const d = await getTrendsData(filters({ from: '2031-01-05', to: '2031-01-11' }));
    expect(d.kpis.current.executions).toBe(0);
    expect(d.decisions.every((b) => b.total === 0)).toBe(true);
    expect(d.riskOverTime.every((b) => b.p90 === null)).toBe(true);
    expect([d.labels, d.rules, d.countries, d.matrix, d.rulePrecision, d.alerts]).toEqual([[], [], [], [], [], []]);
  });

  it('rollup equals the raw rows after inserts, for every filter combination', async () => {
    await expectRollupExact('2031-01-01', '2031-12-31', COMBOS);
  });

  it('stays exact when executions change: decision, feedback, day, country, rules; re-ingest writes nothing', async () => {
    const before = await getTrendsData(filters());
    // x4: WARNING -> REJECTED with a new label, score and feedback.
    const x4 = structuredClone(built.x4);
    const next4 = trendExecution({
      ...DATA.x4,
      id: x4.id,
      decision: 'REJECTED',
      score: 85,
      problems: [{ capability: 'usability', type: 'REJECTED', label: 'GLARE' }],
      feedback: { status: 'FRAUD', reason: 'THIRD_PARTY_FRAUD' },
    });
    expect((await ingestExecution(db(), { ...next4, fetchedAt: fetchedAt() })).outcome).toBe('updated');
    // x6: analyst feedback changes from NOT_FRAUD to FRAUD after a refetch.
    const next6 = trendExecution({
      ...DATA.x6,
      id: built.x6.id,
      feedback: { status: 'FRAUD', reason: 'ACCOUNT_TAKEOVER' },
    });
    await ingestExecution(db(), { ...next6, fetchedAt: fetchedAt() });
    // x10 moves a day earlier and to another country; x8 loses its rule.
    await ingestExecution(db(), {
      ...trendExecution({ ...DATA.x10, id: built.x10.id, createdAt: D('03-15'), country: 'ITA' }),
      fetchedAt: fetchedAt(),
    });
    await ingestExecution(db(), {
      ...trendExecution({ ...DATA.x8, id: built.x8.id, rules: [] }),
      fetchedAt: fetchedAt(),
    });
    // The INITIATED one completes.
    await ingestExecution(db(), {
      ...trendExecution({ ...DATA.x11, id: built.x11.id, status: 'PROCESSED', decision: 'PASSED', score: 15 }),
      fetchedAt: fetchedAt(),
    });

    const after = await getTrendsData(filters());
    expect(after.kpis.current).toEqual({
      executions: 11,
      passed: 5,
      warning: 1,
      rejected: 4,
      riskSum: before.kpis.current.riskSum + (85 - 50) + 15,
      riskCount: 10,
      fraud: 5,
    });
    expect(after.matrix).toEqual(expect.arrayContaining([{ decision: 'REJECTED', feedback: 'FRAUD', n: 4 }]));
    expect(after.matrix.find((m) => m.decision === 'REJECTED' && m.feedback === 'NOT_FRAUD')).toBeUndefined();
    expect(after.countries.map((c) => c.key)).toEqual(['DEU', 'FRA', '', 'ITA']);
    expect(after.labels.find((l) => l.label === 'NOT_POSSIBLE')).toBeUndefined();
    expect(after.labels.find((l) => l.label === 'GLARE')).toMatchObject({ total: 1 });
    expect(after.rules.find((r) => r.ruleId === RA.id)).toMatchObject({
      total: 2,
      series: [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    });
    expect(after.decisions[12].counts).toEqual({ WARNING: 1 });
    expect(after.decisions[13].total).toBe(0);

    const snapshot = await rollupSnapshot('2031-01-01', '2031-12-31');
    const again = await ingestMany(
      db(),
      [next4, next6].map((x) => ({ ...x, fetchedAt: fetchedAt() })),
    );
    expect(again.map((o) => o.outcome)).toEqual(['unchanged', 'unchanged']);
    expect(await rollupSnapshot('2031-01-01', '2031-12-31')).toEqual(snapshot);
    await expectRollupExact('2031-01-01', '2031-12-31', COMBOS);
    // A rebuild of a few days leaves their months' rows right too.
    const whole = await rollupSnapshot('2031-01-01', '2031-12-31');
    await rebuildRollup(db(), { from: '2031-03-04', to: '2031-03-10' });
    expect(await rollupSnapshot('2031-01-01', '2031-12-31')).toEqual(whole);
  });
});

describe('trends: rule names', () => {
  it('keep the latest name ingest wrote, in a page and across pages, as a rebuild does', async () => {
    const rule = (name: string) => ({ id: `rn-${run}`, name });
    const name = async () =>
      (
        await db().execute<{ rule_name: string | null }>(
          sql`select rule_name from trend_rule_names where rule_id = ${`rn-${run}`}`,
        )
      ).rows.map((r) => r.rule_name);
    const spec = (rules: Array<{ id: string; name: string }>): TrendExecutionSpec => ({
      createdAt: '2033-07-01T12:00:00.000Z',
      decision: 'WARNING',
      score: 55,
      definitionKey: `wf-names-${run}`,
      rules,
    });
    const first = trendExecution(spec([rule('Velocity')]));
    // Two executions of one page name the rule differently: the later one wins.
    await ingestMany(db(), [
      { ...first, fetchedAt: fetchedAt() },
      { ...trendExecution(spec([rule('Velocity of attempts')])), fetchedAt: fetchedAt() },
    ]);
    expect(await name()).toEqual(['Velocity of attempts']);
    // A re-fetch that renames it.
    const renamed = trendExecution({ ...spec([rule('Attempts per hour')]), id: first.result.workflow.id });
    expect((await ingestExecution(db(), { ...renamed, fetchedAt: fetchedAt() })).outcome).toBe('updated');
    expect(await name()).toEqual(['Attempts per hour']);
    // The rebuild reads the newest rule_results row: the same name.
    await rebuildRollup(db(), { from: '2033-07-01', to: '2033-07-01' });
    expect(await name()).toEqual(['Attempts per hour']);
  });
});

describe('trends: a large, varied batch', () => {
  it('is applied in statements under the parameter limit and stays exact', async () => {
    const countries = ['DEU', 'FRA', 'ITA', 'ESP', 'POL', 'NLD', 'BEL', 'AUT', 'PRT', 'GRC', null];
    const labels = [
      ['usability', 'BLURRED'],
      ['liveness', 'DIGITAL_COPY'],
      ['imageChecks', 'FAKE'],
      ['similarity', 'NO_MATCH'],
      ['dataChecks', 'MRZ_CHECKSUM'],
    ];
    const inputs = Array.from({ length: 300 }, (_, i) => {
      const bad = i % 3 === 0;
      const [capability, label] = labels[i % labels.length];
      return {
        ...trendExecution({
          createdAt: new Date(Date.UTC(2033, 0, 1 + (i % 90), i % 24)).toISOString(),
          definitionKey: `wf-big-${i % 4}-${run}`,
          country: countries[i % countries.length],
          docType: ['PASSPORT', 'ID_CARD', 'VISA'][i % 3],
          decision: bad ? 'REJECTED' : i % 7 === 0 ? 'NOT_EXECUTED' : 'PASSED',
          score: bad ? 71 + (i % 30) : i % 7 === 0 ? -1 : i % 31,
          problems: bad ? [{ capability, type: 'REJECTED', label }] : [],
          rules: [
            { id: `big-${i % 9}-${run}`, name: `Rule ${i % 9}` },
            { id: `big-x-${i % 5}-${run}`, name: 'Other' },
          ],
          feedback:
            i % 11 === 0
              ? { status: 'FRAUD', reason: 'IDENTITY_FRAUD' }
              : i % 13 === 0
                ? { status: 'NOT_FRAUD' }
                : undefined,
        }),
        fetchedAt: fetchedAt(),
      };
    });
    await ingestMany(db(), inputs);
    // And the same executions changed as a batch (decisions and feedback), so counts go down too.
    await ingestMany(
      db(),
      inputs.map((x, i) => {
        const r = structuredClone(x);
        if (i % 2) (r.result as any).decision = { type: 'WARNING', details: { label: 'WARNING' }, risk: { score: 50 } };
        if (i % 5 === 0) (r.result as any).feedback = { status: 'NOT_FRAUD', providedAt: '2033-05-01T00:00:00Z' };
        return { ...r, fetchedAt: fetchedAt() };
      }),
    );
    const f = resolveTrendsFilters(
      { range: 'custom', from: '2033-01-01', to: '2033-03-31', granularity: 'week' },
      '2033-06-01',
    );
    expect((await getTrendsData(f)).kpis.current.executions).toBe(300);
    await expectRollupExact('2033-01-01', '2033-12-31', []);
    for (const q of [{}, { country: 'DEU' }, { definitionKey: `wf-big-1-${run}`, docType: 'VISA' }]) {
      const g = { ...f, ...q };
      const [a, b] = [await getTrendsData(g), await getTrendsData(g, { source: 'raw' })];
      expect(strip(a)).toEqual(strip(b));
      expectOptions(a.options, b.options);
    }
  });
});

/** Count, sum and p90 of a definition key's scores 0..100 (of one UTC day when given), from the raw rows. */
async function riskOfRaw(dk: string, day?: string) {
  const onDay = day ? sql`and (created_at at time zone 'UTC')::date = ${day}::date` : sql``;
  return (
    await db().execute<{ n: number; sum: number; p90: number | null }>(sql`
      select count(*)::int as n, coalesce(sum(risk_score), 0)::int as sum,
        percentile_disc(0.9) within group (order by risk_score) as p90
      from executions where definition_key = ${dk} and risk_score >= 0 ${onDay}`)
  ).rows[0];
}

/** The same from the day summary kept by ingest (the key's row with country and document type summed). */
async function riskOfDay(dk: string, day: string) {
  return (
    (
      await db().execute<{ n: number; sum: number; p90: number | null; below: number; at: number }>(sql`
        select n, sum::int as sum, p90, below_p90 as below, at_p90 as at from trend_risk_days
        where scope = 3 and definition_key = ${dk} and day = ${day}::date`)
    ).rows[0] ?? { n: 0, sum: 0, p90: null }
  );
}

describe("trends: a day's risk p90, kept one execution at a time", () => {
  it('equals percentile_disc over the raw rows after every insert and score change', async () => {
    const dk = `wf-p90-${run}`;
    const day = '2034-01-10';
    const raw = () => riskOfRaw(dk);
    const kept = () => riskOfDay(dk, day);
    const inputs = Array.from({ length: 40 }, (_, i) =>
      trendExecution({
        createdAt: `${day}T${String(i % 24).padStart(2, '0')}:00:00.000Z`,
        definitionKey: dk,
        country: 'DEU',
        docType: 'PASSPORT',
        decision: 'PASSED',
        score: (i * 37) % 101,
      }),
    );
    const check = async (step: string) => {
      const [r, k] = [await raw(), await kept()];
      expect({ step, n: k.n, sum: k.sum, p90: k.p90 }).toEqual({ step, n: r.n, sum: r.sum, p90: r.n ? r.p90 : null });
    };
    for (const [i, x] of inputs.entries()) {
      await ingestExecution(db(), { ...x, fetchedAt: fetchedAt() });
      await check(`insert ${i}`);
    }
    // Scores move up and down across p90, one execution at a time.
    for (const [i, x] of inputs.slice(0, 20).entries()) {
      const r = structuredClone(x);
      (r.result as any).decision = { type: 'PASSED', details: { label: 'PASSED' }, risk: { score: i % 2 ? 100 : i } };
      await ingestExecution(db(), { ...r, fetchedAt: fetchedAt() });
      await check(`change ${i}`);
    }
    await expectRollupExact(day, day, []);
  });
});

/** The same execution with another risk score (a re-fetch after the service changed it). */
function withScore(x: ReturnType<typeof trendExecution>, score: number) {
  const r = structuredClone(x);
  (r.result as any).decision = { type: 'PASSED', details: { label: 'PASSED' }, risk: { score } };
  return r;
}

/** A day's summary, in the shape of the raw recomputation. */
const summaryOf = async (dk: string, day: string) => {
  const { n, sum, p90 } = await riskOfDay(dk, day);
  return { n, sum, p90 };
};
const rawOf = async (dk: string, day: string) => {
  const r = await riskOfRaw(dk, day);
  return { n: r.n, sum: r.sum, p90: r.n ? r.p90 : null };
};

describe('trends: concurrent ingests that move scores of the same day', () => {
  /**
   * The interleaving that left a day's risk summary stale: transaction A's rollup statement
   * rewrites the day's trend_risk_days row and A stays open (ingest goes on with case matching,
   * a fetch with its callback's bookkeeping); B's rollup statement starts meanwhile, so its
   * snapshot has neither A's histogram change nor A's summary, computes the day's summary from
   * that, and waits for A's row lock; A commits, B's write goes through and replaces A's
   * summary with one that lacks A's change. Postgres only: the embedded database runs one
   * transaction at a time.
   */
  it.skipIf(inject('databaseKind') !== 'postgres')(
    'a transaction that rebuilds the day waits for the open one that rebuilt it before',
    async () => {
      const dk = `wf-race-${run}`;
      const day = '2035-02-01';
      const xs = Array.from({ length: 10 }, (_, i) =>
        trendExecution({
          createdAt: `${day}T0${i}:00:00.000Z`,
          definitionKey: dk,
          country: 'DEU',
          docType: 'PASSPORT',
          decision: 'PASSED',
          score: 10 * i,
        }),
      );
      await ingestMany(
        db(),
        xs.map((x) => ({ ...x, fetchedAt: fetchedAt() })),
      );
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let wrote!: () => void;
      const written = new Promise<void>((r) => (wrote = r));
      // A moves one score (and p90 with it) and stays open after its rollup statement.
      const a = db().transaction(async (tx) => {
        try {
          await ingestExecution(tx, { ...withScore(xs[0], 95), fetchedAt: fetchedAt() });
        } finally {
          wrote();
        }
        await held;
      });
      await written;
      // B moves another score of the same day meanwhile.
      const b = ingestExecution(db(), { ...withScore(xs[1], 3), fetchedAt: fetchedAt() });
      const waiting = () =>
        db()
          .execute<{ n: number }>(
            sql`select count(*)::int as n from pg_locks l join pg_stat_activity s on s.pid = l.pid
              where not l.granted and s.datname = current_database()`,
          )
          .then((r) => r.rows[0].n);
      try {
        await until(waiting, (n) => n > 0, 10_000, 'the second ingest to wait for the first');
      } finally {
        release();
      }
      await Promise.all([a, b]);
      expect(await summaryOf(dk, day)).toEqual(await rawOf(dk, day));
      await expectRollupExact(day, day, []);
    },
  );

  it('rollup equals raw after many concurrent ingests of the same days, one at a time and in pages', async () => {
    const dk = `wf-storm-${run}`;
    const days = ['2035-03-01', '2035-03-02'];
    const WRITERS = 8;
    const ROUNDS = 8;
    const hour = (i: number) => String(i % 24).padStart(2, '0');
    const xs = Array.from({ length: WRITERS * 6 }, (_, i) =>
      trendExecution({
        // Each writer's executions alternate between the two days, so its pages touch both.
        createdAt: `${days[Math.floor(i / WRITERS) % 2]}T${hour(i)}:00:00.000Z`,
        definitionKey: dk,
        country: ['DEU', 'FRA'][i % 2],
        docType: 'PASSPORT',
        decision: 'PASSED',
        score: (i * 29) % 101,
      }),
    );
    await ingestMany(
      db(),
      xs.map((x) => ({ ...x, fetchedAt: fetchedAt() })),
    );
    // Each writer owns its executions (ingest serialises writers of one execution anyway) and
    // moves their scores: alone, as a callback's fetch does, or in pages of two and three, as
    // a backfill does; every other round adds a new execution to one of the days.
    const writers = Array.from({ length: WRITERS }, (_, w) => xs.filter((_, i) => i % WRITERS === w));
    await Promise.all(
      writers.map(async (own, w) => {
        for (let round = 0; round < ROUNDS; round++) {
          const page = own
            .slice(0, 1 + ((round + w) % 3))
            .map((x, j) => ({ ...withScore(x, (round * 37 + w * 11 + j * 53) % 101), fetchedAt: fetchedAt() }));
          if (round % 2)
            page.push({
              ...trendExecution({
                createdAt: `${days[(round + w) % 2]}T${hour(round + w)}:30:00.000Z`,
                definitionKey: dk,
                country: 'DEU',
                docType: 'ID_CARD',
                decision: 'PASSED',
                score: (round * 13 + w * 7) % 101,
              }),
              fetchedAt: fetchedAt(),
            });
          if (page.length === 1) await ingestExecution(db(), page[0]);
          else await ingestMany(db(), page);
        }
      }),
    );
    for (const day of days) expect({ day, ...(await summaryOf(dk, day)) }).toEqual({ day, ...(await rawOf(dk, day)) });
    await expectRollupExact(days[0], days[1], []);
  }, 120_000);
});

describe('trends: spike alerts', () => {
  const KS = `wf-spike-${run}`;
  it('flags the day whose reject rate and label rate jump above the trailing 28-day baseline', async () => {
    const inputs = [];
    // 30 quiet days in 2032 with 20 executions each and 1 or 2 rejections (BLURRED), then a wave.
    for (let day = 0; day < 31; day++) {
      const date = new Date(Date.UTC(2032, 0, 1 + day)).toISOString().slice(0, 10);
      const total = day === 30 ? 25 : 20;
      const rejected = day === 30 ? 15 : 1 + (day % 2);
      for (let i = 0; i < total; i++) {
        const bad = i < rejected;
        inputs.push({
          ...trendExecution({
            createdAt: `${date}T0${i % 10}:00:00.000Z`,
            definitionKey: KS,
            decision: bad ? 'REJECTED' : 'PASSED',
            score: bad ? 90 : 10,
            problems: bad ? [{ capability: 'usability', type: 'REJECTED', label: 'BLURRED' }] : [],
          }),
          fetchedAt: fetchedAt(),
        });
      }
    }
    await ingestMany(db(), inputs);
    const f = resolveTrendsFilters(
      { range: 'custom', from: '2032-01-20', to: '2032-01-31', definitionKey: KS },
      '2032-02-01',
    );
    const d = await getTrendsData(f);
    expect(d.alerts).toHaveLength(2);
    const [a, b] = d.alerts;
    for (const x of [a, b]) {
      expect(x).toMatchObject({ day: '2032-01-31', n: 15, total: 25, rate: 0.6, baselineDays: 28 });
      // The baseline alternates 1/20 and 2/20: mean 0.075.
      expect(x.mean).toBeCloseTo(0.075, 10);
      expect(x.sd).toBeGreaterThan(0.02);
    }
    expect(d.alerts.map((x) => x.kind).sort()).toEqual(['label', 'reject_rate']);
    expect(d.alerts.find((x) => x.kind === 'label')).toMatchObject({
      capability: 'usability',
      label: 'BLURRED',
      decisionType: 'REJECTED',
    });
    const raw = await getTrendsData(f, { source: 'raw' });
    expect(raw.alerts).toEqual(d.alerts);
  });
});
