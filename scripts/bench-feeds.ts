/**
 * `npm run bench:feeds -- --db <database>`: the read API's executions feed on a seeded database
 * (e.g. a copy of the list benchmark's one million executions; the migrations are applied first).
 *
 * 1. Concurrent writers and two readers. `--writers` connections (default 4) each update batches
 *    of 50 executions in transactions held open 0-60 ms (as an ingest page or a resolution
 *    would), every execution updated once, for `--seconds` (default 15). Meanwhile two readers
 *    poll from the current end every 20 ms: the feed (`listExecutionChanges`, the API's own
 *    code: paged by transaction id below the horizon) and a naive baseline paged by
 *    (updated_at, id), the transaction's start time, without any wait. After the writers stop
 *    both read to the end. Printed: the updated executions each reader never saw (the feed: 0).
 * 2. Walking the whole feed page by page (`--limit`, default 500): page p50 / p95 and rows per
 *    second, against the same walk by (updated_at, id) keyset in the same run.
 * 3. An idle poll (the kept cursor, nothing new): p50 / p95 against the baseline's.
 *
 * Checked while measured (exit 1 when wrong): the feed saw every updated execution (none lost),
 * its whole walk holds every execution exactly once (none lost, none doubled), and so does the
 * baseline's walk at rest. `--break=lose` makes the feed's reader drop the first row of each page,
 * so that the checks fail. The baseline losing rows under concurrent writes is what it shows, not
 * a failure.
 *
 * The server comes from BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local
 * postgres://postgres@127.0.0.1:5432/postgres; only a local server is accepted.
 */
import { Client } from 'pg';
import { benchOption } from './bench/cli';
import { benchDatabase, breakOption, Checks, spread } from './bench/verdict';

const DB_NAME = benchOption('db');
const WRITERS = Number(benchOption('writers') ?? 4);
const SECONDS = Number(benchOption('seconds') ?? 15);
const LIMIT = Number(benchOption('limit') ?? 500);
const BATCH = 50;
const BREAK = breakOption(['lose'] as const);
const checks = new Checks();
/** Rows of a page the reader keeps: all, or all but the first under --break=lose. */
const kept = <T>(rows: T[]) => (BREAK === 'lose' ? rows.slice(1) : rows);

function dbUrl(): string {
  if (!DB_NAME) throw new Error('Name the seeded database: --db <name>');
  return benchDatabase(DB_NAME).url.toString();
}

const ms = (n: number) => `${n.toFixed(2)} ms`;
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

/** The baseline: keyset by the last change time, as a feed without the horizon would page. */
interface TimePosition {
  at: string;
  id: string;
}
async function naivePage(c: Client, after: TimePosition | null, limit: number) {
  const r = await c.query<{ id: string; at: string }>(
    // The same columns as the feed's page, so the two differ only in their order and window.
    `select id, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, account_id, status,
       decision_type, decision_label, risk_score, definition_key, customer_internal_reference, user_reference,
       created_at, completed_at, gone_at, feedback_status, feedback_reason, feedback_provided_at, feedback_delivery
     from executions
     where ($1::timestamptz is null or (updated_at, id) > ($1::timestamptz, $2::uuid))
     order by updated_at, id limit $3`,
    [after?.at ?? null, after?.id ?? null, limit + 1],
  );
  const page = r.rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    ids: page.map((x) => x.id),
    next: last ? { at: last.at, id: last.id } : after,
    hasMore: r.rows.length > limit,
  };
}

async function main() {
  process.env.DATABASE_URL = dbUrl();
  const { runMigrations } = await import('@/lib/db/migrate');
  const { listExecutionChanges } = await import('@/lib/executions/changes');
  type Pos = NonNullable<Awaited<ReturnType<typeof listExecutionChanges>>['next']>;
  await runMigrations(process.env.DATABASE_URL);
  const naive = new Client({ connectionString: process.env.DATABASE_URL });
  await naive.connect();
  const total = Number((await naive.query('select count(*)::int as n from executions')).rows[0].n);
  console.log(`executions: ${total.toLocaleString('en')}; writers: ${WRITERS}; page: ${LIMIT}`);

  // The ends of both feeds now, before any writer starts.
  let feedAt: Pos | null = null;
  for (let more = true; more;) {
    const p = await listExecutionChanges({ after: feedAt ?? undefined, limit: 5000 });
    feedAt = p.next;
    more = p.hasMore;
  }
  const endAt = (
    await naive.query(
      `select to_char(max(updated_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at from executions`,
    )
  ).rows[0].at as string;
  let naiveAt: TimePosition | null = { at: endAt, id: 'ffffffff-ffff-ffff-ffff-ffffffffffff' };

  // 1. Writers and readers together.
  const pool = (await naive.query<{ id: string }>('select id from executions order by random() limit 200000')).rows.map(
    (r) => r.id,
  );
  const written = new Set<string>();
  const seenFeed = new Set<string>();
  const seenNaive = new Set<string>();
  let stop = false;
  let next = 0;
  const writer = async () => {
    const c = new Client({ connectionString: process.env.DATABASE_URL });
    await c.connect();
    while (!stop && next + BATCH <= pool.length) {
      const ids = pool.slice(next, (next += BATCH));
      await c.query('begin');
      await c.query('update executions set updated_at = now() where id = any($1::uuid[])', [ids]);
      await c.query('select pg_sleep($1)', [Math.random() * 0.06]);
      await c.query('commit');
      for (const id of ids) written.add(id);
    }
    await c.end();
  };
  const readFeed = async () => {
    for (;;) {
      const p = await listExecutionChanges({ after: feedAt ?? undefined, limit: LIMIT });
      for (const x of kept(p.items)) seenFeed.add(x.id);
      feedAt = p.next;
      if (!p.hasMore) return;
    }
  };
  const readNaive = async () => {
    for (;;) {
      const p = await naivePage(naive, naiveAt, LIMIT);
      for (const id of p.ids) seenNaive.add(id);
      naiveAt = p.next;
      if (!p.hasMore) return;
    }
  };
  const readers = (async () => {
    while (!stop) {
      await readFeed();
      await readNaive();
      await sleep(20);
    }
  })();
  const started = Date.now();
  const writing = Promise.all(Array.from({ length: WRITERS }, writer));
  await sleep(SECONDS * 1000);
  stop = true;
  await writing;
  await readers;
  const wrote = Date.now() - started;
  await readFeed();
  await readNaive();
  const missed = (seen: Set<string>) => [...written].filter((id) => !seen.has(id)).length;
  console.log(
    `concurrent writes: ${written.size.toLocaleString('en')} executions updated in ${(wrote / 1000).toFixed(1)} s ` +
      `(${Math.round(written.size / (wrote / 1000)).toLocaleString('en')}/s)`,
  );
  console.log(`  never seen by the feed (transaction id, horizon): ${missed(seenFeed)}`);
  console.log(`  never seen by the baseline (updated_at keyset):   ${missed(seenNaive)}`);
  checks.check(
    'the feed saw every execution updated while it read',
    missed(seenFeed) === 0,
    `${missed(seenFeed)} lost`,
  );

  // 2. A walk of the whole feed, page by page, against the baseline's walk.
  const walk = async (page: (after: unknown) => Promise<{ ids: string[]; next: unknown; hasMore: boolean }>) => {
    const lat: number[] = [];
    let after: unknown = null;
    let rows = 0;
    const ids = new Set<string>();
    const t0 = performance.now();
    for (;;) {
      const t = performance.now();
      const p = await page(after);
      lat.push(performance.now() - t);
      rows += p.ids.length;
      for (const id of p.ids) ids.add(id);
      after = p.next;
      if (!p.hasMore) break;
    }
    return { ...spread(lat), rows, distinct: ids.size, perSec: rows / ((performance.now() - t0) / 1000) };
  };
  const feedWalk = await walk(async (after) => {
    const p = await listExecutionChanges({ after: (after as Pos | null) ?? undefined, limit: LIMIT });
    return { ids: kept(p.items).map((x) => x.id), next: p.next, hasMore: p.hasMore };
  });
  const naiveWalk = await walk(async (after) => {
    const p = await naivePage(naive, after as TimePosition | null, LIMIT);
    return { ids: p.ids, next: p.next, hasMore: p.hasMore };
  });
  const line = (label: string, w: typeof feedWalk) =>
    `  ${label}: page p50 ${ms(w.p50)}, p95 ${ms(w.p95)}; ${w.rows.toLocaleString('en')} rows at ${Math.round(w.perSec).toLocaleString('en')}/s`;
  console.log(`whole feed, ${LIMIT} a page:`);
  console.log(line('feed    ', feedWalk));
  console.log(line('baseline', naiveWalk));
  console.log(`  ratio p95 feed / baseline: ${(feedWalk.p95 / naiveWalk.p95).toFixed(2)}x`);
  const now = Number((await naive.query('select count(*)::int as n from executions')).rows[0].n);
  for (const [name, w] of [
    ['the feed', feedWalk],
    ['the baseline', naiveWalk],
  ] as const)
    checks.check(
      `${name}'s walk holds every execution exactly once`,
      w.rows === now && w.distinct === now,
      `${w.rows.toLocaleString('en')} rows, ${w.distinct.toLocaleString('en')} distinct, of ${now.toLocaleString('en')}`,
    );

  // 3. The idle poll of an integration that is up to date.
  const idle = async (f: () => Promise<unknown>) => {
    const lat: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t = performance.now();
      await f();
      lat.push(performance.now() - t);
    }
    return spread(lat);
  };
  const feedIdle = await idle(() => listExecutionChanges({ after: feedAt ?? undefined, limit: LIMIT }));
  const naiveIdle = await idle(() => naivePage(naive, naiveAt, LIMIT));
  console.log(
    `idle poll (kept cursor, nothing new): feed p50 ${ms(feedIdle.p50)}, p95 ${ms(feedIdle.p95)}; ` +
      `baseline p50 ${ms(naiveIdle.p50)}, p95 ${ms(naiveIdle.p95)}; ratio p95 ${(feedIdle.p95 / naiveIdle.p95).toFixed(2)}x`,
  );
  await naive.end();
  process.exit(checks.finish());
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
