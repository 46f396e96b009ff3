/**
 * `npm run bench:rings`: fraud rings at 1,000,000 executions, each figure against the naive
 * baseline in the same run (a recursive query that expands a component on demand, what a design
 * without kept rings would run).
 *
 * 1. Seeding (skipped with `--reuse <db>`): the list benchmark's seeding (the simulator's
 *    generator, ingest's own `toRows()`, worker threads, set-based INSERTs) writes `--rows`
 *    executions and their link keys; the value counts and the rings are then built set-based
 *    (one GROUP BY; union-find in memory over the strong values; the rings' figures by upkeep's
 *    own `refreshRings`), so the starting state is what incremental upkeep would have made.
 * 2. (a) Ring upkeep in ingest: `--pages` pages of 100 new executions through the one ingest path.
 *    Each is a repeat sign-up of a seeded execution (its document, device, e-mail, address, ...,
 *    under a new id), half of them with a second device session taken from another seeded
 *    execution, so pages join, grow and merge rings as real traffic does. Upkeep's own time per
 *    execution (inside ingest's transaction) against the baseline's expansion of each new
 *    execution's component. Then a chain of `--chain` members (each shares an e-mail with the
 *    next) ingested in interleaved pages, so later pages merge rings: one ring of `--chain`.
 * 3. (b) The Rings page's data (`listRings`) p50 / p95 against expanding the page's rings.
 * 4. (c) The chain's ring drawn in Chromium by the page's own drawing code, from navigation to
 *    the first frame painted after `layoutstop`, with its data read as the page does (`getRing`) against the same page whose
 *    server first expands the component recursively.
 * 5. Self-check: the rings of every new execution and of 1,000 sampled members equal the baseline's
 *    components, a new execution outside any ring has no strong neighbour, every execution holding
 *    a strong value is in exactly one ring, and no execution is lost. Exits 1 when anything differs.
 *
 *   npm run bench:rings                                   # 1,000,000 executions, fresh database
 *   npm run bench:rings -- --rows 100000 --keep           # development size, keep the database
 *   npm run bench:rings -- --reuse verdict_bench_rings    # measure again on a kept database
 *   npm run bench:rings -- --rows 100000 --break=skip-merge   # upkeep broken on purpose: exits 1
 *
 * Options: --db <name> (default verdict_bench_rings), --pages 20, --chain 500, --runs 30,
 * --draws 7, --threads. The server comes from BENCH_DATABASE_URL, else TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres; only a local server is accepted. Chromium from
 * CHROMIUM_PATH, else /usr/bin/chromium; the harness listens on BENCH_PORT (default 3141).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { sql, TransactionRollbackError } from 'drizzle-orm';
import { build } from 'esbuild';
import { Client } from 'pg';
import type { Tx } from '@/lib/db/client';
import { runMigrations } from '@/lib/db/migrate';
import { shortId } from '@/lib/format';
import { WEAK_LINK_CUTOFF } from '@/lib/rings/kinds';
import { generateExecution } from '@/lib/simulator';
import { seed } from './bench/seed';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const eq = argv.find((a) => a.startsWith(`--${name}=`));
  if (eq) return eq.slice(name.length + 3);
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const ROWS = Number(option('rows') ?? 1_000_000);
const PAGES = Number(option('pages') ?? 20);
const CHAIN = Number(option('chain') ?? 500);
const RUNS = Number(option('runs') ?? 30);
const DRAWS = Number(option('draws') ?? 7);
const REUSE = option('reuse');
const DB_NAME = REUSE ?? option('db') ?? 'verdict_bench_rings';
const KEEP = argv.includes('--keep') || Boolean(REUSE);
const BREAK = option('break');
const PAGE = 100;
const SEED = 'verdict-bench-rings';
const DAYS = 90;
const SAMPLE = 1000;
const NIL_USER = '00000000-0000-0000-0000-000000000000';
if (BREAK !== undefined && BREAK !== 'skip-merge') throw new Error(`--break takes skip-merge, not ${BREAK}`);
if (!/^[a-z0-9_]+$/.test(DB_NAME)) throw new Error(`Not a database name: ${DB_NAME}`);
// The seeding threads and this process must hash shared values with the same key.
process.env.LINK_KEY_SECRET ||= 'bench-rings-link-key-0123456789abcdef';

const log = (s: string) => console.log(s);
const n = (x: number) => x.toLocaleString('en-US');
const ms = (x: number) => `${x.toFixed(2)} ms`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
function pct(samples: number[], p: number) {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
const p50p95 = (s: number[]) => ({ p50: pct(s, 50), p95: pct(s, 95) });
async function timed(runs: number, fn: () => Promise<unknown>) {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return p50p95(out);
}

function serverUrl(): URL {
  const u = new URL(
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(u.hostname))
    throw new Error(`The benchmark only runs against a local server, not ${u.hostname}`);
  return u;
}
async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Executions, link keys and value counts by the list benchmark's seeding; rings set-based. */
async function seedDatabase(url: string, rows: number, anchor: Date) {
  await withClient(url, async (c) => {
    // link_keys loads without its indexes and foreign key; they are built once afterwards.
    await c.query('alter table link_keys drop constraint link_keys_execution_id_executions_id_fk');
    await c.query('alter table link_keys drop constraint link_keys_execution_id_kind_key_hash_pk');
    await c.query('drop index link_keys_key_idx');
  });
  await seed(url, rows, { withLinks: true, anchor, seed: SEED, threads: option('threads') });
  await withClient(url, async (c) => {
    const t0 = performance.now();
    await c.query(`set maintenance_work_mem = '512MB'`);
    await c.query(
      'alter table link_keys add constraint link_keys_execution_id_kind_key_hash_pk primary key (execution_id, kind, key_hash)',
    );
    await c.query('create index link_keys_key_idx on link_keys using btree (kind, key_hash)');
    await c.query(`alter table link_keys add constraint link_keys_execution_id_executions_id_fk
      foreign key (execution_id) references executions(id) on delete cascade`);
    await c.query(
      'insert into link_values (kind, key_hash, executions) select kind, key_hash, count(*) from link_keys group by 1, 2',
    );
    await c.query('vacuum analyze link_keys, link_values');
    log(`  link keys indexed and counted in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    // Connected components over the strong values, in memory (union-find with path halving).
    const t1 = performance.now();
    const groups = await c.query<{ ids: string[] }>(`
      select array_agg(k.execution_id::text) as ids from link_keys k
      join link_values v on v.kind = k.kind and v.key_hash = k.key_hash and v.executions between 2 and ${WEAK_LINK_CUTOFF}
      group by k.kind, k.key_hash`);
    const parent = new Map<string, string>();
    const find = (x: string) => {
      let p = parent.get(x) ?? x;
      while (p !== x) {
        const g = parent.get(p) ?? p;
        parent.set(x, g);
        x = p;
        p = g;
      }
      return x;
    };
    for (const g of groups.rows) {
      for (const id of g.ids) if (!parent.has(id)) parent.set(id, id);
      for (let i = 1; i < g.ids.length; i++) {
        const a = find(g.ids[0]),
          b = find(g.ids[i]);
        if (a !== b) parent.set(a, b);
      }
    }
    const comps = new Map<string, string[]>();
    for (const x of parent.keys()) {
      const r = find(x);
      const c = comps.get(r);
      if (c) c.push(x);
      else comps.set(r, [x]);
    }
    const list = [...comps.values()];
    const ids = await c.query<{ id: string }>(
      `insert into rings (size, first_seen, last_seen) select 0, now(), now() from generate_series(1, $1) returning id`,
      [list.length],
    );
    const members: string[] = [];
    const ringOf: string[] = [];
    list.forEach((m, i) => {
      for (const e of m) {
        members.push(e);
        ringOf.push(ids.rows[i].id);
      }
    });
    for (let i = 0; i < members.length; i += 50_000)
      await c.query(
        `insert into ring_members (execution_id, ring_id, created_at)
         select x.id, x.ring, e.created_at from unnest($1::uuid[], $2::bigint[]) as x(id, ring) join executions e on e.id = x.id`,
        [members.slice(i, i + 50_000), ringOf.slice(i, i + 50_000)],
      );
    log(
      `  ${n(list.length)} rings of ${n(members.length)} executions from ${n(groups.rows.length)} strong values in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
    );
    return ids.rows.map((r) => Number(r.id));
  });
}

async function main() {
  const base = serverUrl();
  const url = new URL(base);
  url.pathname = `/${DB_NAME}`;
  const seeded = ROWS - PAGES * PAGE;
  const anchor = new Date();
  anchor.setUTCMinutes(0, 0, 0);
  log(
    `bench:rings on ${DB_NAME}: ${REUSE ? 'reused' : `${n(seeded)} seeded`} executions; ${PAGES} pages of ${PAGE} new ones; a chain of ${CHAIN}; weak-link cut-off ${WEAK_LINK_CUTOFF}${BREAK ? `; BROKEN ON PURPOSE: ${BREAK}` : ''} [load ${load()}]`,
  );
  if (!REUSE) {
    await withClient(base.toString(), async (c) => {
      await c.query(`drop database if exists ${DB_NAME} with (force)`);
      await c.query(`create database ${DB_NAME}`);
    });
    await runMigrations(url.toString());
    const t0 = performance.now();
    await seedDatabase(url.toString(), seeded, anchor);
    log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s [load ${load()}]`);
  } else await runMigrations(url.toString());

  process.env.DATABASE_URL = url.toString();
  const { db, closeDb } = await import('@/lib/db/client');
  const { ingestMany } = await import('@/lib/sync/ingest');
  const { refreshRings, upkeepFaults, upkeepTime } = await import('@/lib/rings/upkeep');
  const { listRings, getRing } = await import('@/lib/rings/queries');
  const d = db();
  if (!REUSE) {
    // The seeded rings' figures, by upkeep's own refresh (in slices: one statement per slice).
    const t0 = performance.now();
    const all = (await d.execute<{ id: string }>(sql`select id from rings where size = 0`)).rows.map((r) =>
      Number(r.id),
    );
    for (let i = 0; i < all.length; i += 5000) await d.transaction((tx) => refreshRings(tx, all.slice(i, i + 5000)));
    log(`  ring figures in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  await d.execute(sql`vacuum analyze`);
  upkeepFaults.skipMerge = BREAK === 'skip-merge';

  const expand = async (seedId: string) =>
    (
      await d.execute<{ id: string }>(sql`
        with recursive comp(id) as (
          select ${seedId}::uuid
          union
          select b.execution_id from comp c
          join link_keys a on a.execution_id = c.id
          join link_values v on v.kind = a.kind and v.key_hash = a.key_hash and v.executions between 2 and ${WEAK_LINK_CUTOFF}
          join link_keys b on b.kind = a.kind and b.key_hash = a.key_hash
        ) select id::text from comp`)
    ).rows.map((r) => r.id);

  const before = await d.execute<{
    executions: number;
    rings: number;
    members: number;
    keys: number;
    largest: number;
  }>(sql`
    select (select count(*)::int from executions) as executions, (select count(*)::int from rings) as rings,
      (select count(*)::int from ring_members) as members, (select count(*)::int from link_keys) as keys,
      (select coalesce(max(size), 0) from rings) as largest`);
  const s0 = before.rows[0];
  const sizes = await d.execute<{ band: string; rings: number }>(sql`
    select case when size < 5 then '2-4' when size < 10 then '5-9' when size < 50 then '10-49' else '50+' end as band,
      count(*)::int as rings from rings group by 1 order by min(size)`);
  log(
    `graph: ${n(s0.executions)} executions, ${n(s0.keys)} link keys; ${n(s0.rings)} rings holding ${n(s0.members)} (sizes ${sizes.rows.map((r) => `${r.band}: ${n(r.rings)}`).join(', ')}; largest ${s0.largest})`,
  );

  type Copy = { workflow: { id: string }; account: { id: string }; capabilities: Record<string, unknown[]> };
  /**
   * A repeat sign-up: the same values under new ids. The generator derives the account's,
   * credentials', capability entries' and rule executions' ids from one prefix (the account id's
   * first group); each gets a new id, the same one wherever it appears. Other executions' ids
   * (repeated-face findings) are left as they are: they are what links the copy to them.
   */
  const renewIds = (raw: unknown): Copy => {
    const r = raw as Copy;
    const prefix = r.account.id.slice(0, 9);
    const fresh = new Map<string, string>([[r.workflow.id, randomUUID()]]);
    const re = new RegExp(`${prefix}[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|${r.workflow.id}`, 'g');
    return JSON.parse(
      JSON.stringify(raw).replace(re, (m) => fresh.get(m) ?? fresh.set(m, randomUUID()).get(m)!),
    ) as Copy;
  };
  // (a) Upkeep in ingest: repeat sign-ups of seeded executions, half with a second device from another.
  const pick = (k: number) => (k * 2_654_435_761) % Math.max(1, seeded);
  const copyOf = (k: number) => {
    const g = generateExecution(SEED, pick(k), { count: ROWS, days: DAYS, anchor });
    const result = renewIds(g.result);
    if (k % 2 === 0) {
      const other = generateExecution(SEED, pick(k + 7919), { count: ROWS, days: DAYS, anchor }).result as {
        capabilities: Record<string, unknown[]>;
      };
      const device = other.capabilities.deviceRiskVerification?.[0];
      if (device)
        result.capabilities.deviceRiskVerification = [...(result.capabilities.deviceRiskVerification ?? []), device];
    }
    return { result, fetchedAt: new Date() };
  };
  const newIds: string[] = [];
  const upkeepPerExec: number[] = [];
  const ingestPerExec: number[] = [];
  const runTag = randomUUID().slice(0, 8);
  for (let p = 0; p < PAGES; p++) {
    const page = Array.from({ length: PAGE }, (_, i) => copyOf(p * PAGE + i + Number.parseInt(runTag, 16)));
    const u0 = upkeepTime.ms;
    const t0 = performance.now();
    await ingestMany(d, page);
    ingestPerExec.push((performance.now() - t0) / PAGE);
    upkeepPerExec.push((upkeepTime.ms - u0) / PAGE);
    for (const x of page) newIds.push(x.result.workflow.id);
  }
  const naiveNew: number[] = [];
  for (const id of newIds.slice(0, 500)) {
    const t0 = performance.now();
    await expand(id);
    naiveNew.push(performance.now() - t0);
  }
  const up = p50p95(upkeepPerExec);
  const ing = p50p95(ingestPerExec);
  const nv = p50p95(naiveNew);
  const upMean = upkeepPerExec.reduce((a, b) => a + b, 0) / upkeepPerExec.length;
  log(
    `(a) upkeep in ingest, per execution in a page of ${PAGE} (${PAGES} pages): mean ${ms(upMean)}, per page p50 ${ms(up.p50)} p95 ${ms(up.p95)} (target <= 1 ms); whole ingest p50 ${ms(ing.p50)} p95 ${ms(ing.p95)}; ${n(Math.round(1000 / ing.p50))} executions/s [load ${load()}]`,
  );
  log(
    `    baseline: expanding a new execution's component on demand p50 ${ms(nv.p50)} p95 ${ms(nv.p95)} (${(nv.p50 / up.p50).toFixed(1)}x upkeep's p50)`,
  );

  // The chain: member i carries e-mails i and i + 1; even pages first, so each odd page merges two rings.
  const chainIds = Array.from({ length: CHAIN }, () => randomUUID());
  const member = (i: number) => {
    // Run-tagged like the e-mails, so a rerun on a kept database (--reuse) builds a chain of its own
    // instead of sharing documents and devices with the last run's chain.
    const g = generateExecution(`${SEED}-chain-${runTag}`, i, { count: CHAIN, days: 7, anchor });
    const result = renewIds(g.result);
    result.workflow.id = chainIds[i];
    const entry = (k: number) => ({
      id: randomUUID(),
      credentials: [],
      decision: { type: 'PASSED', details: { label: 'OK' } },
      data: { emailExists: true },
      additionalInformation: {
        vendor: { name: 'EmailVendor', response: { email: `chain.${runTag}.${k}@bench.example` } },
      },
    });
    result.capabilities.emailVerification = [entry(i), entry(i + 1)];
    return { result, fetchedAt: new Date() };
  };
  const chainPages = Array.from({ length: Math.ceil(CHAIN / PAGE) }, (_, p) => p);
  for (const p of [...chainPages.filter((x) => x % 2 === 0), ...chainPages.filter((x) => x % 2 === 1)])
    await ingestMany(
      d,
      Array.from({ length: Math.min(PAGE, CHAIN - p * PAGE) }, (_, i) => member(p * PAGE + i)),
    );
  const chainRing = (
    await d.execute<{ ring_id: string; size: number }>(
      sql`select m.ring_id, r.size from ring_members m join rings r on r.id = m.ring_id where m.execution_id = ${chainIds[0]}`,
    )
  ).rows[0];

  // (b) The Rings page's data.
  const page1 = { minSize: 2, kind: null, growth: null, status: 'open' as const, page: 1 };
  const pageDefault = await timed(RUNS, () => listRings(page1));
  const pageKind = await timed(RUNS, () => listRings({ ...page1, kind: 'device' }));
  const pageGrowth = await timed(RUNS, () => listRings({ ...page1, growth: '7d' }));
  const first = await listRings(page1);
  const seeds = await Promise.all(
    first.rows.map(
      async (r) =>
        (
          await d.execute<{ id: string }>(
            sql`select execution_id as id from ring_members where ring_id = ${r.id} limit 1`,
          )
        ).rows[0].id,
    ),
  );
  const naivePage = await timed(Math.max(3, Math.round(RUNS / 6)), async () => {
    for (const x of seeds) await expand(x);
  });
  const worst = Math.max(pageDefault.p95, pageKind.p95, pageGrowth.p95);
  log(
    `(b) rings page data (listRings, ${RUNS} runs): default p50 ${ms(pageDefault.p50)} p95 ${ms(pageDefault.p95)}; by device p50 ${ms(pageKind.p50)} p95 ${ms(pageKind.p95)}; growing 7 d p50 ${ms(pageGrowth.p50)} p95 ${ms(pageGrowth.p95)} (target p95 <= 150 ms) [load ${load()}]`,
  );
  log(
    `    baseline: expanding the page's ${seeds.length} rings on demand p50 ${ms(naivePage.p50)} p95 ${ms(naivePage.p95)} (${(naivePage.p95 / worst).toFixed(1)}x the worst kept p95)`,
  );

  // (c) The chain's ring drawn in Chromium with the page's drawing code.
  const drawing = chainRing ? await drawInChromium(Number(chainRing.ring_id), chainIds[0], getRing, expand) : null;
  if (drawing)
    log(
      `(c) ring of ${chainRing.size} drawn in Chromium, navigation to the first frame painted after layoutstop (${DRAWS} loads): kept p50 ${ms(drawing.kept.p50)} p95 ${ms(drawing.kept.p95)} (target < 1000 ms); baseline (the component expanded on demand first) p50 ${ms(drawing.naive.p50)} p95 ${ms(drawing.naive.p95)} (${(drawing.naive.p50 / drawing.kept.p50).toFixed(2)}x) [load ${load()}]\n    p50 from navigation: kept ${drawing.kept.phases}; baseline ${drawing.naive.phases}`,
    );

  // Self-check.
  const problems: string[] = [];
  const sample = await d.execute<{ id: string }>(
    sql`select execution_id::text as id from ring_members order by random() limit ${SAMPLE}`,
  );
  const checkIds = [...new Set([...newIds, ...chainIds, ...sample.rows.map((r) => r.id)])];
  const ringsOf = await d.execute<{ id: string; ring_id: string | null }>(sql`
    select x.id::text, m.ring_id from unnest(${sql.param(checkIds)}::uuid[]) as x(id)
    left join ring_members m on m.execution_id = x.id`);
  const checkedRings = new Set<string>();
  let comparedRings = 0;
  let loose = 0;
  for (const r of ringsOf.rows) {
    if (r.ring_id === null) {
      loose++;
      const comp = await expand(r.id);
      if (comp.length !== 1) problems.push(`${r.id} is in no ring, but shares strong values with ${comp.length - 1}`);
      continue;
    }
    if (checkedRings.has(r.ring_id)) continue;
    checkedRings.add(r.ring_id);
    comparedRings++;
    const members = (
      await d.execute<{ id: string }>(
        sql`select execution_id::text as id from ring_members where ring_id = ${r.ring_id}`,
      )
    ).rows
      .map((x) => x.id)
      .sort();
    const comp = (await expand(r.id)).sort();
    if (comp.length !== members.length || comp.some((x, i) => x !== members[i]))
      problems.push(`ring ${r.ring_id}: ${members.length} members, the baseline's component ${comp.length}`);
  }
  // The figures kept in ingest (added up while a ring only grows) against a recount from every
  // member, for every ring checked above; the recount is rolled back.
  const figures = (tx: Tx) =>
    tx.execute(sql`select id, size, first_seen, last_seen, rejected, fraud, link_kinds, score::text, status
      from rings where id = any(${sql.param([...checkedRings].map(Number))}::bigint[]) order by id`);
  let figuresOff = 0;
  await d
    .transaction(async (tx) => {
      const kept = (await figures(tx)).rows.map((r) => JSON.stringify(r));
      await refreshRings(tx, [...checkedRings].map(Number));
      const recounted = (await figures(tx)).rows.map((r) => JSON.stringify(r));
      figuresOff = kept.filter((r, i) => r !== recounted[i]).length + Math.abs(kept.length - recounted.length);
      tx.rollback();
    })
    .catch((e: unknown) => {
      if (!(e instanceof TransactionRollbackError)) throw e;
    });
  if (figuresOff)
    problems.push(`${figuresOff} of ${checkedRings.size} rings' figures differ from a recount of their members`);
  // The chain must have become one ring. Its generated members may also share a value with an
  // execution outside it (the generator's attack waves share devices): the ring is then larger,
  // and the comparison with the baseline's components above says whether that is right.
  const chainRings = (
    await d.execute<{ rings: number }>(
      sql`select count(distinct ring_id)::int as rings from ring_members where execution_id = any(${sql.param(chainIds)}::uuid[])`,
    )
  ).rows[0].rings;
  if (CHAIN > 1 && (chainRings !== 1 || (chainRing?.size ?? 0) < CHAIN))
    problems.push(
      `the chain of ${CHAIN} lies in ${chainRings} rings (the first one of ${chainRing?.size ?? 0} members)`,
    );
  const totals = await d.execute<{ executions: number; strong: number; members: number; sizes_off: number }>(sql`
    select (select count(*)::int from executions) as executions,
      (select count(distinct k.execution_id)::int from link_keys k join link_values v
        on v.kind = k.kind and v.key_hash = k.key_hash and v.executions between 2 and ${WEAK_LINK_CUTOFF}) as strong,
      (select count(*)::int from ring_members) as members,
      (select count(*)::int from rings r where r.size <> (select count(*) from ring_members m where m.ring_id = r.id)) as sizes_off`);
  const t = totals.rows[0];
  const expected = s0.executions + newIds.length + CHAIN;
  if (t.executions !== expected) problems.push(`${n(t.executions)} executions, expected ${n(expected)}`);
  if (t.strong !== t.members)
    problems.push(`${n(t.strong)} executions hold a strong value, ${n(t.members)} are in a ring`);
  if (t.sizes_off) problems.push(`${t.sizes_off} rings' size differs from their members`);
  log(
    `self-check: ${n(comparedRings)} rings of ${n(checkIds.length)} checked executions (${n(newIds.length)} new, ${CHAIN} chained, ${n(sample.rows.length)} sampled; ${n(loose)} in no ring) against the baseline's components; ${n(t.executions)} executions, ${n(t.members)} in rings = ${n(t.strong)} holding a strong value: ${problems.length ? `${problems.length} problems` : 'all equal, nothing lost'}`,
  );
  for (const p of problems.slice(0, 10)) log(`  ${p}`);
  if (drawing && drawing.kept.members !== chainRing.size)
    problems.push(`Chromium drew ${drawing.kept.members} members of ${chainRing.size}`);

  await closeDb();
  if (!KEEP) await withClient(base.toString(), (c) => c.query(`drop database if exists ${DB_NAME} with (force)`));
  else log(`kept: npm run bench:rings -- --reuse ${DB_NAME}`);
  process.exit(problems.length ? 1 : 0);
}

/**
 * Serves a harness page (the page's drawing code bundled with Cytoscape) and the ring's graph
 * data, and times navigation to the first frame painted after `layoutstop` in Chromium, `DRAWS` loads per mode.
 */
async function drawInChromium(
  ringId: number,
  seedId: string,
  getRing: typeof import('@/lib/rings/queries').getRing,
  expand: (id: string) => Promise<string[]>,
) {
  const bundle = await build({
    entryPoints: [path.resolve('scripts/bench/ring-graph-harness.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    write: false,
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const js = bundle.outputFiles[0].text;
  const data = async (mode: string) => {
    // The naive page knows no ring: it expands the component first, then reads the same members.
    if (mode === 'naive') await expand(seedId);
    const g = await getRing(ringId, NIL_USER);
    return {
      members: g!.members.map((m) => ({
        id: m.id,
        short: shortId(m.id),
        name: m.name,
        decisionType: m.decisionType,
        feedbackStatus: m.feedbackStatus,
      })),
      attributes: g!.attributes,
    };
  };
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/harness.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
    } else if (u.pathname === '/ring.json') {
      data(u.searchParams.get('mode') ?? 'kept').then(
        (x) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(x)),
        (e: unknown) => res.writeHead(500).end(String(e)),
      );
    } else
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<!doctype html><html><body style="margin:0"><div id="graph" style="width:1200px;height:448px"></div><script src="/harness.js"></script></body></html>',
        );
  });
  const port = Number(process.env.BENCH_PORT ?? 3141);
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const browser = await chromium.launch({ executablePath: fs.existsSync(executablePath) ? executablePath : undefined });
  try {
    const out: Record<string, { p50: number; p95: number; members: number; phases: string }> = {};
    for (const mode of ['kept', 'naive']) {
      const samples: number[] = [];
      const phaseSamples: Record<string, number[]> = {};
      let members = 0;
      for (let i = 0; i < DRAWS + 1; i++) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        await page.goto(`http://127.0.0.1:${port}/?mode=${mode}`);
        const drawn = (await (
          await page.waitForFunction(() => window.__drawn, null, { timeout: 60_000 })
        ).jsonValue()) as { ms: number; members: number; phases: Record<string, number> } | { error: string };
        await page.close();
        if ('error' in drawn) throw new Error(`the harness failed: ${drawn.error}`);
        members = drawn.members;
        // The first load warms the browser's cache of the script, as an analyst's second ring would.
        if (i > 0) {
          samples.push(drawn.ms);
          for (const [k, v] of Object.entries(drawn.phases)) (phaseSamples[k] ??= []).push(v);
        }
      }
      const phases = Object.entries(phaseSamples)
        .map(([k, v]) => `${k} ${pct(v, 50).toFixed(0)}`)
        .join(', ');
      out[mode] = { ...p50p95(samples), members, phases: `${phases}, painted ${pct(samples, 50).toFixed(0)} ms` };
    }
    return { kept: out.kept, naive: out.naive };
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
