/**
 * `npm run bench:cases`: case work at scale. Seeds a database `verdict_bench_cases` with one
 * million executions (the list benchmark's seeding, scripts/bench/seed.ts), opens 100,000 cases
 * in the default queues (the queues' definitions compiled by the list's WHERE builder, as
 * matching does) and 50,000 resolved ones, then:
 *
 * - times the queues page's data (`getQueuesPage`) at that size, p50 / p95;
 * - lets 20 concurrent claimers call "next case" (`claimNextCase`, the action's own code) until
 *   the queues are empty, and prints claim p50 / p95, claims per second and the number of cases
 *   claimed twice (from the case events, must be 0);
 * - claims again, on the same cases reopened, with no audit entry at all (a bench-only trigger
 *   drops it), so that the audit append's share of a claim is known;
 * - runs a naive baseline in the same run on the same cases: SELECT the next open case (by queue
 *   priority, then due), then UPDATE it if it is still open, retrying when another claimer won.
 *
 *   npm run bench:cases                               # 1,000,000 executions, database dropped afterwards
 *   npm run bench:cases -- --rows 200000 --cases 20000
 *   npm run bench:cases -- --keep                     # keep the database; a later run reuses its executions
 *   npm run bench:cases -- --baseline-claims 20000    # claims of the naive baseline (default 10,000)
 *   npm run bench:cases -- --variant-claims 20000     # claims of each audit variant (default 20,000)
 *   npm run bench:cases -- --template verdict_bench_x # start from a copy of a seeded database
 *   npm run bench:cases -- --keep --page-only         # the queues page's data alone, no claims
 *
 * `--template` clones a database that already holds the executions (`npm run bench:list -- --keep`
 * leaves one) with CREATE DATABASE … TEMPLATE, which takes seconds where seeding a million rows
 * takes many minutes; the template is only read.
 *
 * The database server comes from BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local
 * postgres://postgres@127.0.0.1:5432/postgres; only a local server is accepted.
 */
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { claimNextCase } from '@/lib/cases/claim';
import { matchQueues } from '@/lib/cases/match';
import { getQueuesPage } from '@/lib/data/cases';
import { createDb, type Db } from '@/lib/db/client';
import { runMigrations } from '@/lib/db/migrate';
import { seed } from './bench/seed';

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const ROWS = Number(option('rows') ?? 1_000_000);
const CASES = Number(option('cases') ?? 100_000);
const RESOLVED = Number(option('resolved') ?? CASES / 2);
const CLAIMERS = Number(option('claimers') ?? 20);
const BASELINE_CLAIMS = Number(option('baseline-claims') ?? 10_000);
const VARIANT_CLAIMS = Number(option('variant-claims') ?? 20_000);
const TEMPLATE = option('template');
const DB_NAME = 'verdict_bench_cases';
const log = (s: string) => console.log(s);

function serverUrl(): URL {
  const u = new URL(
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(u.hostname))
    throw new Error(`The benchmark only runs against a local server, not ${u.hostname}`);
  return u;
}

async function admin(base: URL, q: string) {
  const c = new Client({ connectionString: base.toString() });
  await c.connect();
  try {
    return await c.query(q);
  } finally {
    await c.end();
  }
}

function pct(samples: number[], p: number) {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
const ms = (n: number) => `${n.toFixed(2)} ms`;

/** Open and resolved cases, as matching would place them (first matching queue by priority). */
async function makeCases(d: Db) {
  await d.execute(sql`truncate qa_reviews, case_changes, case_events, cases`);
  const queues = await matchQueues(d);
  const pick = sql.join(
    queues.map((q) => sql`when ${q.where ?? sql`true`} then ${q.id}::uuid`),
    sql` `,
  );
  const t0 = performance.now();
  await d.execute(sql`
    insert into cases (execution_id, queue_id, state, arrived_at, due_at, outcome, reason, resolved_by, resolved_at,
      decision_at_outcome)
    select m.id, m.queue_id, case when m.n <= ${CASES} then 'open' else 'resolved' end, m.arrived,
      m.arrived + make_interval(hours => q.sla_hours),
      case when m.n > ${CASES} then (case when m.n % 3 = 0 then 'decline' else 'approve' end) end,
      case when m.n > ${CASES} then 'OTHER' end,
      case when m.n > ${CASES} then (select id from users where email like 'bench-claimer-%' order by email
                                     offset (m.n % ${CLAIMERS}) limit 1) end,
      case when m.n > ${CASES} then m.arrived + make_interval(mins => 5 + (m.n % 600)::int) end,
      case when m.n > ${CASES} then m.decision_type end
    from (
      select id, queue_id, decision_type, row_number() over () as n,
        now() - make_interval(mins => (abs(hashtext(id::text)) % 5760)::int) as arrived
      from (select executions.id, executions.decision_type, case ${pick} end as queue_id from executions) x
      where queue_id is not null
      limit ${CASES + RESOLVED}
    ) m join case_queues q on q.id = m.queue_id`);
  await d.execute(sql`vacuum analyze cases`);
  const counts = await d.execute<{ state: string; n: number }>(
    sql`select state, count(*)::int as n from cases group by state order by state`,
  );
  log(
    `  cases: ${counts.rows.map((r) => `${r.n.toLocaleString('en-US')} ${r.state}`).join(', ')} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}

async function reopenAll(d: Db) {
  await d.execute(sql`delete from case_events where type = 'claimed'`);
  await d.execute(
    sql`update cases set state = 'open', assignee_id = null, claimed_at = null, version = version + 1 where state = 'in_review'`,
  );
  await d.execute(sql`vacuum analyze cases`);
}

/**
 * How the claims' audit entries are written: `shipped` (the insert takes no lock; the sealer
 * chains it later, lib/evidence/seal.ts) or `none` (a bench-only trigger drops the entry: the
 * cost of the claim alone). Only the benchmark's own database is touched.
 */
async function auditVariant(d: Db, variant: 'shipped' | 'none') {
  await d.execute(sql`drop trigger if exists bench_audit_variant on audit_log`);
  if (variant === 'shipped') return;
  await d.execute(
    sql.raw(`create or replace function bench_audit_variant() returns trigger language plpgsql as $$
      begin return null; end $$`),
  );
  await d.execute(
    sql`create trigger bench_audit_variant before insert on audit_log for each row execute function bench_audit_variant()`,
  );
}

interface Run {
  latencies: number[];
  claimed: string[];
  seconds: number;
  retries: number;
}

async function runClaimers(
  users: Array<{ id: string; email: string }>,
  claim: (u: { id: string; email: string }) => Promise<{ caseId: string | null; retries: number }>,
  limit = Infinity,
): Promise<Run> {
  const out: Run = { latencies: [], claimed: [], seconds: 0, retries: 0 };
  const t0 = performance.now();
  await Promise.all(
    users.map(async (u) => {
      while (out.claimed.length < limit) {
        const s = performance.now();
        const r = await claim(u);
        const took = performance.now() - s;
        out.retries += r.retries;
        if (!r.caseId) return;
        out.latencies.push(took);
        out.claimed.push(r.caseId);
        if (out.claimed.length % 10_000 === 0)
          process.stdout.write(`  … ${out.claimed.length.toLocaleString('en-US')}\n`);
      }
    }),
  );
  out.seconds = (performance.now() - t0) / 1000;
  return out;
}

function report(name: string, r: Run) {
  const twice = r.claimed.length - new Set(r.claimed).size;
  log(
    `  ${name}: ${r.claimed.length.toLocaleString('en-US')} claims in ${r.seconds.toFixed(1)} s = ${(r.claimed.length / r.seconds).toFixed(0)} claims/s; p50 ${ms(pct(r.latencies, 50))}, p95 ${ms(pct(r.latencies, 95))}; claimed twice (client side) ${twice}${r.retries ? `; ${r.retries.toLocaleString('en-US')} retries` : ''}`,
  );
  return { p50: pct(r.latencies, 50), p95: pct(r.latencies, 95), perSecond: r.claimed.length / r.seconds };
}

async function main() {
  const base = serverUrl();
  const u = new URL(base.toString());
  u.pathname = `/${DB_NAME}`;
  const url = u.toString();
  const drop = async () => {
    if (flag('keep')) return log(`Kept ${DB_NAME}.`);
    await admin(base, `drop database if exists "${DB_NAME}" with (force)`);
    log(`Dropped ${DB_NAME}.`);
  };
  // A kept database with enough executions is reused; anything else starts from an empty one
  // (the feedback history's append-only triggers forbid emptying the tables in place).
  let reuse = false;
  if ((await admin(base, `select 1 from pg_database where datname = '${DB_NAME}'`)).rowCount) {
    const c = new Client({ connectionString: url });
    await c.connect();
    const n = await c
      .query<{ n: number }>('select count(*)::int as n from executions')
      .then((r) => r.rows[0].n)
      .catch(() => 0);
    await c.end();
    reuse = n >= ROWS;
    if (!reuse) await admin(base, `drop database "${DB_NAME}" with (force)`);
  }
  if (!reuse && TEMPLATE) {
    if (!/^[a-z0-9_]+$/.test(TEMPLATE)) throw new Error(`Not a database name: ${TEMPLATE}`);
    // CREATE DATABASE … TEMPLATE refuses while anyone is connected to the template: wait for a gap.
    for (let i = 0; ; i++) {
      try {
        await admin(base, `create database "${DB_NAME}" template "${TEMPLATE}"`);
        break;
      } catch (err) {
        if (i >= 360 || !/being accessed by other users/.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 5000));
      }
    }
    reuse = true;
    log(`Cloned ${TEMPLATE} into ${DB_NAME}.`);
  } else if (!reuse) await admin(base, `create database "${DB_NAME}"`);
  try {
    await runMigrations(url);
    const d = createDb(url, CLAIMERS + 4);
    if (!reuse) {
      log(`Seeding ${ROWS.toLocaleString('en-US')} executions into ${DB_NAME}…`);
      const s = await seed(url, ROWS);
      log(`  seeded in ${(s.totalMs / 1000).toFixed(1)} s`);
    } else log(`Reusing the executions of ${DB_NAME}.`);

    // A reused database keeps its claimers: their audit entries forbid deleting them.
    const users = (
      await d.execute<{ id: string; email: string }>(sql`
        insert into users (email, name, role)
        select 'bench-claimer-' || lpad(i::text, 2, '0') || '@bench.local', 'Claimer ' || i, 'analyst'
        from generate_series(1, ${CLAIMERS}) i
        on conflict (lower(email)) do update set active = true returning id, email`)
    ).rows;
    log(`Opening ${CASES.toLocaleString('en-US')} cases and ${RESOLVED.toLocaleString('en-US')} resolved ones…`);
    await makeCases(d);

    log('\nQueues page data (getQueuesPage) at this size:');
    for (let i = 0; i < 3; i++) await getQueuesPage(null, d);
    const page: number[] = [];
    for (let i = 0; i < 30; i++) {
      const s = performance.now();
      await getQueuesPage(null, d);
      page.push(performance.now() - s);
    }
    const pageP95 = pct(page, 95);
    log(`  p50 ${ms(pct(page, 50))}, p95 ${ms(pageP95)} (target ≤ 100 ms) — ${pageP95 <= 100 ? 'OK' : 'OVER'}`);
    if (flag('page-only')) {
      await d.$client.end();
      return;
    }

    log(`\nNext case, ${CLAIMERS} concurrent claimers until the queues are empty:`);
    const verdict = await runClaimers(users, async (user) => {
      const r = await claimNextCase({ ...user, role: 'analyst' }, {}, d);
      return { caseId: r.ok && r.data ? r.data.caseId : null, retries: 0 };
    });
    const v = report('Verdict (UPDATE … FOR UPDATE SKIP LOCKED)', verdict);
    const dup = await d.execute<{ n: number }>(sql`
      select count(*)::int as n from (select case_id from case_events where type = 'claimed'
        group by case_id having count(*) > 1) t`);
    const left = await d.execute<{ n: number }>(sql`select count(*)::int as n from cases where state = 'open'`);
    log(
      `  cases claimed twice (case events): ${dup.rows[0].n}; open cases left: ${left.rows[0].n}; claim p95 target ≤ 25 ms — ${v.p95 <= 25 ? 'OK' : 'OVER'}`,
    );

    for (const variant of ['none'] as const) {
      await reopenAll(d);
      await auditVariant(d, variant);
      const r = await runClaimers(
        users,
        async (user) => {
          const out = await claimNextCase({ ...user, role: 'analyst' }, {}, d);
          return { caseId: out.ok && out.data ? out.data.caseId : null, retries: 0 };
        },
        VARIANT_CLAIMS,
      );
      report('Verdict without the audit entry', r);
    }
    await auditVariant(d, 'shipped');

    log(
      `\nNaive baseline (SELECT next, then UPDATE if still open, retry), ${BASELINE_CLAIMS.toLocaleString('en-US')} claims:`,
    );
    await reopenAll(d);
    const baseline = await runClaimers(
      users,
      async (user) => {
        for (let retries = 0; ; retries++) {
          const next = await d.execute<{ id: string }>(sql`
            select c.id from cases c join case_queues q on q.id = c.queue_id
            where c.state = 'open' and not q.archived and q.min_role = 'analyst'
            order by q.priority, c.due_at, c.id limit 1`);
          const id = next.rows[0]?.id;
          if (!id) return { caseId: null, retries };
          const won = await d.execute<{ id: string }>(sql`
            update cases set state = 'in_review', assignee_id = ${user.id}, claimed_at = now(), version = version + 1
            where id = ${id} and state = 'open' returning id`);
          if (won.rows.length) return { caseId: id, retries };
        }
      },
      BASELINE_CLAIMS,
    );
    const b = report('naive baseline', baseline);
    log(
      `\nVerdict against the naive baseline: p95 ${(b.p95 / v.p95).toFixed(1)}x lower, ${(v.perSecond / b.perSecond).toFixed(1)}x the claims per second.`,
    );
    await d.$client.end();
  } finally {
    await drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
