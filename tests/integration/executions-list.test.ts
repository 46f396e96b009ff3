import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it, beforeAll } from 'vitest';
import { db } from '@/lib/db/client';
import { readListPage, readListWithTotal, readNeighbours, type ListRowRaw } from '@/lib/executions/list';
import { countList, jointSelectivity } from '@/lib/executions/total';
import type { WalkPlan } from '@/lib/executions/walk';
import { coveredBySortIndex, isIndependentPart, listConditions, listWhere, walkOf } from '@/lib/executions/where';
import { searchTermTokens } from '@/lib/pii/search-tokens';
import { parseListParams } from '@/lib/executions/list-params';
import { DEFAULT_LIST_PARAMS, type ListParams, type SortKey } from '@/lib/executions/list-params';
import { ingestMany } from '@/lib/sync/ingest';
import { buildExecution } from '../support/fixtures/execution';

/**
 * The list's keyset pagination against a real database: every sort, both directions, nulls
 * last, walking forward to the end and back to the start must visit each row exactly once, in
 * the order a plain ORDER BY would give.
 */
const TAG = `list-test-${randomUUID().slice(0, 8)}`;
const N = 23;
type Made = {
  id: string;
  createdAt: Date;
  completedAt: Date | null;
  riskScore: number | null;
  decision: string | null;
  livenessRejected: boolean;
};
const made: Made[] = [];

/** Makes a built result one that is still running: no decision, no completion time. */
function stillRunning(r: Record<string, any>) {
  r.workflow.status = 'ACQUIRED';
  delete r.decision;
  delete r.completedAt;
}

beforeAll(async () => {
  const inputs = [];
  for (let i = 0; i < N; i++) {
    // Some share a created time and a score, so ties are broken by id.
    const createdAt = new Date(Date.UTC(2026, 10, 1, 10, Math.floor(i / 2)));
    const x = buildExecution({
      createdAt: createdAt.toISOString(),
      score: i % 5 === 0 ? 40 : i * 4,
      decision: i % 3 === 0 ? 'REJECTED' : 'PASSED',
      firstName: i === 7 ? 'Zebulon' : 'Anna',
      lastName: `Tester${i}`,
    });
    const r = x.result as Record<string, any>;
    r.workflow.reportingCriteria = TAG;
    let completedAt: Date | null = new Date(createdAt.getTime() + (i % 4) * 60_000);
    let riskScore: number | null = r.decision.risk.score;
    if (i % 7 === 3) {
      stillRunning(r);
      completedAt = null;
      riskScore = null;
    } else r.completedAt = completedAt.toISOString();
    if (i === 5) r.decision.risk.score = riskScore = -1;
    made.push({
      id: x.id,
      createdAt,
      completedAt,
      riskScore,
      decision: r.decision?.type ?? null,
      livenessRejected: i % 3 === 0,
    });
    inputs.push({ result: r, steps: x.steps, rules: x.rules, fetchedAt: new Date() });
  }
  await ingestMany(db(), inputs);
});

const params = (over: Partial<ListParams>): ListParams => ({ ...DEFAULT_LIST_PARAMS, criteria: TAG, ...over });

function expectedOrder(sort: SortKey, dir: 'asc' | 'desc', rows = made): string[] {
  const val = (m: Made) =>
    sort === 'created'
      ? m.createdAt.getTime()
      : sort === 'completed'
        ? (m.completedAt?.getTime() ?? null)
        : m.riskScore;
  const withV = rows.filter((m) => val(m) !== null);
  const empty = rows.filter((m) => val(m) === null);
  const s = dir === 'desc' ? -1 : 1;
  withV.sort((a, b) => s * (val(a)! - val(b)! || a.id.localeCompare(b.id)));
  empty.sort((a, b) => s * a.id.localeCompare(b.id));
  return [...withV, ...empty].map((m) => m.id);
}

describe('executions list: keyset pages (real database)', () => {
  for (const sort of ['created', 'completed', 'risk'] as const) {
    for (const dir of ['desc', 'asc'] as const) {
      it(`walks ${sort} ${dir} forward and back, each row once, empty values last`, async () => {
        const p = params({ sort, dir });
        const where = listWhere(p);
        const seen: string[] = [];
        const pages: Array<{ rows: ListRowRaw[]; prev: string | null; next: string | null }> = [];
        let cursor: string | undefined;
        for (let guard = 0; guard < 10; guard++) {
          const page = await readListPage({ ...p, size: 25, after: cursor }, where, 7);
          pages.push(page);
          seen.push(...page.rows.map((r) => r.id));
          if (!page.next) break;
          cursor = page.next;
        }
        expect(seen).toEqual(expectedOrder(sort, dir));
        expect(pages[0].prev).toBeNull();
        // Back from the last page: every previous page equals the one seen going forward.
        let back = pages[pages.length - 1].prev;
        for (let i = pages.length - 2; i >= 0; i--) {
          expect(back).not.toBeNull();
          const page = await readListPage({ ...p, before: back! }, where, 7);
          expect(page.rows.map((r) => r.id)).toEqual(pages[i].rows.map((r) => r.id));
          back = page.prev;
        }
        expect(back).toBeNull();
      });
    }
  }

  // How a test tells the list to walk (lib/executions/walk.ts `WalkPlan`); `planned` is the list's
  // own choice, which for these few rows is not to walk.
  const WALKS = {
    walked: { rows: 20_000 },
    'walked one row, then planned': { rows: 1 },
    planned: undefined,
  } satisfies Record<string, WalkPlan | undefined>;
  const WALK_MODES = Object.keys(WALKS) as Array<keyof typeof WALKS>;

  // The issuing country and document type the fixture gave the executions this test made.
  const madeValues = async () =>
    (
      await db().execute<{ country: string; docType: string }>(
        sql`select issuing_country as "country", document_type as "docType" from executions where id = ${made[0].id}::uuid`,
      )
    ).rows[0];
  const madeCountry = async () => (await madeValues()).country;

  // Every row of a list, page after page forward from the start.
  const readForward = async (p: ListParams, where: ReturnType<typeof listWhere>, size: number, walkAs?: WalkPlan) => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 20; guard++) {
      const page = await readListPage({ ...p, after: cursor }, where, size, undefined, walkAs);
      seen.push(...page.rows.map((r) => r.id));
      if (!page.next) break;
      cursor = page.next;
    }
    return seen;
  };

  // A decision with the criteria is a combination: pages first walk the decision's ordered index
  // for a bounded number of rows, then fall back to the WHERE's own plan (lib/executions/list.ts,
  // walk.ts). Decoys, REJECTED in another criteria at the same times and scores, lie on the walk.
  describe('a combination', () => {
    beforeAll(async () => {
      const decoys = made.map((m, i) => {
        const x = buildExecution({ createdAt: m.createdAt.toISOString(), score: (i * 7) % 100, decision: 'REJECTED' });
        (x.result as Record<string, any>).workflow.reportingCriteria = `${TAG}-decoy`;
        return { result: x.result, steps: x.steps, rules: x.rules, fetchedAt: new Date() };
      });
      await ingestMany(db(), decoys);
    });
    // Walked to the page, walked one row and then the WHERE's own plan, and the list's own choice
    // (as few as these are: no walk).
    for (const [sort, dir, mode] of (['created', 'risk'] as const).flatMap((sort) =>
      (['desc', 'asc'] as const).flatMap((dir) => WALK_MODES.map((m) => [sort, dir, m] as const)),
    )) {
      const walkFrom = WALKS[mode];
      it(`reads a combination by ${sort} ${dir}, ${mode}, forward and back, each row once`, async () => {
        const p = params({ sort, dir, decision: ['REJECTED'] });
        const where = listWhere(p);
        expect(walkOf(where)).toBeDefined();
        const expected = expectedOrder(
          sort,
          dir,
          made.filter((m) => m.decision === 'REJECTED'),
        );
        const seen: string[] = [];
        const firsts: Array<string | null> = [];
        let cursor: string | undefined;
        let last: string | null = null;
        for (let guard = 0; guard < 10; guard++) {
          const page = await readListPage({ ...p, after: cursor }, where, 2, undefined, walkFrom);
          seen.push(...page.rows.map((r) => r.id));
          firsts.push(page.prev);
          last = page.prev;
          if (!page.next) break;
          cursor = page.next;
        }
        expect(seen).toEqual(expected);
        expect(firsts[0]).toBeNull();
        // The page before the last one, read backwards, is the two rows before it.
        if (expected.length > 2 && last) {
          const back = await readListPage({ ...p, before: last }, where, 2, undefined, walkFrom);
          const at = seen.length - ((seen.length - 1) % 2) - 1;
          expect(back.rows.map((r) => r.id)).toEqual(expected.slice(at - 2, at));
        }
      });
    }
    // A decision and a country, by risk, walk the (country, decision, risk) index: both values
    // are the walk's, so the page is the first rows of that index that pass the rest.
    for (const [dir, mode] of (['desc', 'asc'] as const).flatMap((dir) => WALK_MODES.map((m) => [dir, m] as const)))
      it(`reads a decision with a country by risk ${dir}, ${mode}, page by page, each row once`, async () => {
        const p = params({ sort: 'risk', dir, decision: ['REJECTED'], country: await madeCountry() });
        const where = listWhere(p);
        expect(walkOf(where)!.ways).toHaveLength(1);
        expect(new PgDialect().sqlToQuery(walkOf(where)!.ways[0].value).sql).toMatch(/issuing_country.*decision_type/);
        expect(await readForward(p, where, 2, WALKS[mode])).toEqual(
          expectedOrder(
            'risk',
            dir,
            made.filter((m) => m.decision === 'REJECTED'),
          ),
        );
      });
    // By created, each single value of a combination is a way (lib/executions/where.ts): the
    // country's, the document type's and the decision's index. Whichever is walked, the pages
    // hold the same rows, each once.
    for (const [dir, way] of (['desc', 'asc'] as const).flatMap((dir) => [0, 1, 2].map((w) => [dir, w] as const)))
      it(`reads a decision with a country and a document type by created ${dir}, walking way ${way}, each row once`, async () => {
        const { country, docType } = await madeValues();
        const p = params({ dir, decision: ['REJECTED'], country, docType });
        const where = listWhere(p);
        const ways = walkOf(where)!.ways.map((w) => new PgDialect().sqlToQuery(w.value).sql);
        expect(ways).toEqual([
          expect.stringMatching(/issuing_country/),
          expect.stringMatching(/document_type/),
          expect.stringMatching(/decision_type/),
        ]);
        expect(await readForward(p, where, 2, { rows: 20_000, way })).toEqual(
          expectedOrder(
            'created',
            dir,
            made.filter((m) => m.decision === 'REJECTED'),
          ),
        );
      });
  });

  // A created range by risk is read from the risk index alone (migration 0036 includes the created
  // time): its page's ids first, then its rows. On a day of its own, with ties and empty scores.
  describe('a created range by risk', () => {
    const DAY = '2011-02-03';
    const day: Made[] = [];
    beforeAll(async () => {
      const inputs = [];
      for (let i = 0; i < 9; i++) {
        const createdAt = new Date(`${DAY}T0${i % 4}:00:00.000Z`);
        const x = buildExecution({ createdAt: createdAt.toISOString(), score: i % 3 === 0 ? 55 : i * 10 });
        const r = x.result as Record<string, any>;
        let riskScore: number | null = r.decision.risk.score;
        if (i % 4 === 1) {
          stillRunning(r);
          riskScore = null;
        }
        day.push({ id: x.id, createdAt, completedAt: null, riskScore, decision: null, livenessRejected: false });
        inputs.push({ result: r, steps: x.steps, rules: x.rules, fetchedAt: new Date() });
      }
      await ingestMany(db(), inputs);
    });
    const dayParams = (over: Partial<ListParams>) =>
      params({ sort: 'risk', criteria: undefined, createdFrom: DAY, createdTo: DAY, ...over });
    it('is covered by the risk index only by risk, and only with nothing but created and risk ranges', () => {
      expect(coveredBySortIndex(listWhere(dayParams({})))).toBe(true);
      expect(coveredBySortIndex(listWhere(dayParams({ riskMin: 20, riskMax: 80 })))).toBe(true);
      expect(coveredBySortIndex(listWhere(dayParams({ sort: 'created' })))).toBe(false);
      expect(coveredBySortIndex(listWhere(dayParams({ criteria: TAG })))).toBe(false);
      expect(coveredBySortIndex(listWhere(dayParams({ createdFrom: undefined, createdTo: undefined })))).toBe(false);
      expect(coveredBySortIndex(listWhere(dayParams({ riskMin: 20 }), { words: ['anna'] }))).toBe(false);
    });
    for (const dir of ['desc', 'asc'] as const)
      it(`reads one day by risk ${dir}, page by page and back, each row once, empty scores last`, async () => {
        const p = dayParams({ dir });
        const where = listWhere(p);
        const expected = expectedOrder('risk', dir, day);
        expect(await readForward(p, where, 2)).toEqual(expected);
        // A risk range within the day.
        const ranged = dayParams({ dir, riskMin: 20, riskMax: 60 });
        const inRange = day.filter((m) => m.riskScore !== null && m.riskScore >= 20 && m.riskScore <= 60);
        expect(await readForward(ranged, listWhere(ranged), 2)).toEqual(expectedOrder('risk', dir, inRange));
        // From the first empty score back across into the scores: the two rows before it.
        const first = await readListPage(p, where, expected.length - 1);
        const back = await readListPage({ ...p, before: first.next! }, where, 2);
        expect(back.rows.map((r) => r.id)).toEqual(expected.slice(expected.length - 4, expected.length - 2));
      });
  });

  it("walks no index for a single value or a search alone by risk; a search by created walks its tokens' postings", () => {
    expect(walkOf(listWhere(params({ decision: ['REJECTED'], criteria: undefined })))).toBeUndefined();
    // A document type alone leads like a country: a plain comparison Postgres walks in its
    // (document type, created) index (migration 0035), not a facet of the GIN index.
    const passports = listWhere(params({ docType: 'PASSPORT', criteria: undefined }));
    expect(walkOf(passports)).toBeUndefined();
    expect(new PgDialect().sqlToQuery(passports!).sql).toMatch(/"document_type" = \$1/);
    expect(new PgDialect().sqlToQuery(passports!).sql).not.toMatch(/facets/);
    const anna = { words: ['anna'], refPrefix: undefined };
    expect(walkOf(listWhere(params({ sort: 'risk', criteria: undefined }), anna))).toBeUndefined();
    expect(walkOf(listWhere(params({ criteria: undefined }), anna))?.postings?.tokens).toEqual(['anna']);
    expect(walkOf(listWhere(params({ decision: ['REJECTED'] }), anna))?.postings?.tokens).toEqual(['anna']);
    expect(walkOf(listWhere(params({ sort: 'risk', decision: ['REJECTED'] }), anna))?.postings).toBeUndefined();
    expect(walkOf(listWhere(params({ decision: ['REJECTED'], sort: 'due' }), anna))).toBeUndefined();
    // A whole reference is one index lookup: nothing to walk.
    expect(
      walkOf(
        listWhere(params({ decision: ['REJECTED'], criteria: undefined }), { words: [], exactReference: 'ref-1' }),
      ),
    ).toBeUndefined();
  });

  // A search with a decision walks the decision's ordered index (every execution but one is an
  // Anna): walked or through the WHERE's own plan, the pages hold the same rows, each once.
  for (const [sort, dir, mode] of (['created', 'risk'] as const).flatMap((sort) =>
    (['desc', 'asc'] as const).flatMap((dir) => WALK_MODES.map((m) => [sort, dir, m] as const)),
  )) {
    const walked = WALKS[mode];
    it(`reads a search with a decision by ${sort} ${dir}, ${mode}, page by page, each row once`, async () => {
      const p = params({ sort, dir, decision: ['PASSED'] });
      const where = listWhere(p, { words: ['anna'], refPrefix: undefined });
      expect(walkOf(where)).toBeDefined();
      const seen = await readForward(p, where, 3, walked);
      const passed = made.filter((m) => m.decision === 'PASSED' && m.id !== made[7].id);
      expect(passed.length).toBeGreaterThan(6);
      expect(seen).toEqual(expectedOrder(sort, dir, passed));
    });
  }

  // A search by created walks one token's postings (migration 0034); rows found only by the start
  // of a reference join the walk in order. Every execution but one is an Anna, and that one
  // (Zebulon) is found by its customer reference: all of them, each once, both ways, whichever
  // token the walk reads (the second word's postings hold only the Annas with that surname).
  const RARER = 'walked by the rarer word';
  for (const [dir, mode] of (['desc', 'asc'] as const).flatMap((dir) =>
    [...WALK_MODES, RARER].map((m) => [dir, m] as const),
  ))
    it(`reads a search with a reference's start by created ${dir}, ${mode}, forward and back, each row once`, async () => {
      const p = params({ dir });
      const zebulonRef = (
        await db().execute<{ r: string }>(
          sql`select customer_internal_reference as r from executions where id = ${made[7].id}::uuid`,
        )
      ).rows[0].r;
      const term = { words: ['anna'], refPrefix: zebulonRef.toLowerCase() };
      const rarer = { words: ['anna', 'tester12'] };
      const where = listWhere(p, mode === RARER ? rarer : term);
      expect(walkOf(where)?.postings).toBeDefined();
      const walkAs = mode === RARER ? { rows: 20_000, token: 'tester12' } : WALKS[mode as keyof typeof WALKS];
      const expected = mode === RARER ? [made[12].id] : expectedOrder('created', dir);
      const seen: string[] = [];
      let cursor: string | undefined;
      let last: string | null = null;
      for (let guard = 0; guard < 20; guard++) {
        const page = await readListPage({ ...p, after: cursor }, where, 3, undefined, walkAs);
        seen.push(...page.rows.map((r) => r.id));
        last = page.prev;
        if (!page.next) break;
        cursor = page.next;
      }
      expect(seen).toEqual(expected);
      if (expected.length > 3 && last) {
        const back = await readListPage({ ...p, before: last }, where, 3, undefined, walkAs);
        const at = seen.length - ((seen.length - 1) % 3) - 1;
        expect(back.rows.map((r) => r.id)).toEqual(expected.slice(at - 3, at));
      }
    });

  // The walk alone fills the page (one query): it does not fall back to the WHERE's own plan.
  it("fills a search's first page from its postings alone", async () => {
    let selects = 0;
    const base = db();
    const counted = new Proxy(base, {
      get(target, key) {
        const v = Reflect.get(target, key, target);
        if (key === 'select') selects++;
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const p = params({});
    const where = listWhere(p, { words: ['anna'] });
    const page = await readListPage(p, where, 3, counted, WALKS.walked);
    expect(page.rows.map((r) => r.id)).toEqual(
      expectedOrder('created', 'desc')
        .filter((id) => id !== made[7].id)
        .slice(0, 3),
    );
    expect(selects).toBe(1);
    selects = 0;
    await readListPage(p, listWhere(p, { words: ['anna', 'nobodyhere'] }), 3, counted, WALKS.walked);
    expect(selects).toBe(2);
  });

  it('starts a page at a row inclusively, and finds its next and previous neighbours', async () => {
    const p = params({ sort: 'risk', dir: 'desc' });
    const where = listWhere(p);
    const order = expectedOrder('risk', 'desc');
    const mid = made.find((m) => m.id === order[10])!;
    const page = await readListPage({ ...p, at: `${mid.riskScore ?? ''}~${mid.id}` }, where, 3);
    expect(page.rows.map((r) => r.id)).toEqual(order.slice(10, 13));
    expect(page.prev).not.toBeNull();
    expect(await readNeighbours(p, where, mid)).toEqual({ next: order[11], prev: order[9] });
    const first = made.find((m) => m.id === order[0])!;
    expect((await readNeighbours(p, where, first)).prev).toBeNull();
    const last = made.find((m) => m.id === order[order.length - 1])!;
    expect((await readNeighbours(p, where, last)).next).toBeNull();
  });

  it('filters by decision, risk range, capability tag and search words, and counts exactly', async () => {
    const rejected = made.filter((m) => m.decision === 'REJECTED');
    const p = params({ decision: ['REJECTED'] });
    expect(await countList(listWhere(p))).toEqual({ exact: true, count: rejected.length });
    const page = await readListPage(p, listWhere(p), 100);
    expect(page.rows.map((r) => r.id).sort()).toEqual(rejected.map((m) => m.id).sort());

    const ranged = params({ riskMin: 10, riskMax: 40 });
    const inRange = made.filter((m) => m.riskScore !== null && m.riskScore >= 10 && m.riskScore <= 40);
    expect(await countList(listWhere(ranged))).toEqual({ exact: true, count: inRange.length });

    const cap = params({ cap: ['liveness:label:DIGITAL_COPY'] });
    // Capability tags stay even when the top-level decision is missing (a running execution).
    expect(await countList(listWhere(cap))).toEqual({
      exact: true,
      count: made.filter((m) => m.livenessRejected).length,
    });

    const s = params({});
    expect(await countList(listWhere(s, { words: searchTermTokens('zebulon tester7')! }))).toEqual({
      exact: true,
      count: 1,
    });
    expect(await countList(listWhere(s, { words: searchTermTokens('ZEBULON')! }))).toEqual({ exact: true, count: 1 });
    // Personal data matches whole values only: a fragment of a name finds nothing.
    expect(await countList(listWhere(s, { words: searchTermTokens('ZEBU')! }))).toEqual({ exact: true, count: 0 });
    // LIKE wildcards typed by a user are literal characters, not patterns.
    expect(await countList(listWhere(s, { words: [], refPrefix: '%%%' }))).toEqual({ exact: true, count: 0 });
    expect(searchTermTokens('a')).toBeNull();
  });

  it("estimates a search as independent of the rest, and backs off among the rest's values", async () => {
    const { estimateParts } = listConditions(params({ decision: ['REJECTED'], country: await madeCountry() }), {
      words: ['anna'],
    });
    // The criteria's, the decision's and the country's facets apart, then the search's match.
    expect(estimateParts.map(isIndependentPart)).toEqual([false, false, false, true]);
    // "Williams" (1.79% of executions) with REJECTED (9.35%): their product, where backing off
    // the decision as if it followed the name gave 0.0179 x 0.0935^(1/2) (10.96x the real count).
    const williams = { selectivity: 0.0179, independent: true };
    const rejected = { selectivity: 0.0935, independent: false };
    expect(jointSelectivity([williams, rejected])).toBeCloseTo(0.0179 * 0.0935, 8);
    // A label and the decision it leads to: the rarer whole, the next at its square root, the next at its fourth root.
    const label = { selectivity: 0.0055, independent: false };
    const country = { selectivity: 0.1, independent: false };
    expect(jointSelectivity([rejected, label, country])).toBeCloseTo(0.0055 * 0.0935 ** 0.5 * 0.1 ** 0.25, 8);
    expect(jointSelectivity([rejected, label, williams])).toBeCloseTo(0.0055 * 0.0935 ** 0.5 * 0.0179, 8);
  });

  it("counts a combination through its walk's conditions the same as without them", async () => {
    const country = await madeCountry();
    for (const sort of ['risk', 'created'] as const) {
      const p = params({ sort, decision: ['REJECTED'], country, riskMin: 10 });
      const where = listWhere(p);
      const along = walkOf(where)!.ways.flatMap((w) => w.along);
      expect(along.length).toBeGreaterThan(0);
      const want = made.filter((m) => m.decision === 'REJECTED' && m.riskScore !== null && m.riskScore >= 10).length;
      expect(want).toBeGreaterThan(2);
      expect(await countList(where, db(), 5_000, [], along)).toEqual({ exact: true, count: want });
      expect(await countList(where, db(), 5_000)).toEqual({ exact: true, count: want });
    }
  });

  it('a page comes with its total: the rows when all fit on a first page, else the count run beside it', async () => {
    const all = params({});
    const small = await readListWithTotal({ ...all, size: 100 }, listWhere(all));
    expect(small.page.next).toBeNull();
    expect(small.total).toEqual({ exact: true, count: N });
    const rejected = params({ decision: ['REJECTED'] });
    const firstOfMany = await readListWithTotal({ ...rejected, size: 2 as ListParams['size'] }, listWhere(rejected));
    expect(firstOfMany.page.rows).toHaveLength(2);
    expect(firstOfMany.total).toEqual({ exact: true, count: made.filter((m) => m.decision === 'REJECTED').length });
    // A later page (a cursor) always counts.
    const second = await readListWithTotal(
      { ...rejected, size: 2 as ListParams['size'], after: firstOfMany.page.next! },
      listWhere(rejected),
    );
    expect(second.total).toEqual(firstOfMany.total);
  });

  it('filters by feedback: none, a status, or not yet delivered', async () => {
    const fraud = buildExecution({ feedback: { status: 'FRAUD', reason: 'IDENTITY_FRAUD' } });
    const none = buildExecution({});
    for (const x of [fraud, none]) (x.result as Record<string, any>).workflow.reportingCriteria = `${TAG}-fb`;
    await ingestMany(
      db(),
      [fraud, none].map((x) => ({ result: x.result, steps: x.steps, rules: x.rules, fetchedAt: new Date() })),
    );
    const ids = async (feedback: ListParams['feedback']) => {
      const p = params({ criteria: `${TAG}-fb`, feedback });
      return (await readListPage(p, listWhere(p), 10)).rows.map((r) => r.id);
    };
    expect(await ids(['FRAUD'])).toEqual([fraud.id]);
    expect(await ids(['none'])).toEqual([none.id]);
    expect(await ids(['pending'])).toEqual([]);
  });
});

describe('executions list: URL parameters', () => {
  it('keeps good values and drops bad ones to their defaults', () => {
    const p = parseListParams({
      decision: ['REJECTED', 'warning', '<script>'],
      riskMin: '90',
      riskMax: '10',
      createdFrom: '2026-02-30',
      createdTo: '2026-03-01',
      sort: 'nonsense',
      dir: 'asc',
      size: '33',
      cap: ['liveness:label:DIGITAL_COPY', 'bad tag'],
      country: 'deu',
      feedback: ['FRAUD', 'maybe'],
      q: 'not-a-uuid',
      st: '!!',
      after: 'garbage',
    });
    expect(p).toMatchObject({
      decision: ['REJECTED', 'WARNING'],
      riskMin: 10,
      riskMax: 90,
      createdTo: '2026-03-01',
      sort: 'created',
      dir: 'asc',
      size: 25,
      cap: ['liveness:label:DIGITAL_COPY'],
      country: 'DEU',
      feedback: ['FRAUD'],
    });
    expect(p.createdFrom).toBeUndefined();
    expect(p.q).toBeUndefined();
    expect(p.st).toBeUndefined();
    expect(p.after).toBeUndefined();
  });
});
