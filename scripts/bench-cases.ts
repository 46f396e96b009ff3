/**
 * `npm run bench:cases`: case work at scale. Seeds a database `verdict_bench_cases` with one
 * million executions (the list benchmark's seeding, scripts/bench/seed.ts), opens 100,000 cases
 * in the default queues (the queues' definitions compiled by the list's WHERE builder, as
 * matching does) and 50,000 resolved ones, then:
 *
 * - times the queues page's data (`getQueuesPage`) at that size, p50 / p95;
 * - lets 20 concurrent claimers call "next case" (`claimNextCase`, the action's own code) until
 *   the queues are empty, and prints claim p50 / p95 and claims per second;
 * - claims again, on the same cases reopened, with no audit entry at all (a bench-only trigger
 *   drops it), so that the audit append's share of a claim is known;
 * - runs the fair baseline in the same run on the same cases, the same 20 claimers until the
 *   queues are empty (the same number of claims): what a competent engineer writes without our
 *   single statement, as pg-boss and graphile-worker claim: in one transaction an UPDATE of the
 *   row picked by `FOR UPDATE SKIP LOCKED`, then the case event, then the audit entry, each its
 *   own statement (the same rows written as Verdict's claim);
 * - and, as an extra line, the older naive baseline (SELECT the next open case, then UPDATE it if
 *   it is still open, retrying when another claimer won) on `--baseline-claims` claims.
 *
 * Every run is checked while it measures: no case claimed twice (its case events and the claimers'
 * own tally), none left open when the claimers stopped; a failed check exits 1.
 * `--break=skip-locked` makes the fair baseline claim without `SKIP LOCKED` and without
 * re-checking the state, so that two claimers take the same case and the check fires.
 *
 *   npm run bench:cases                               # 1,000,000 executions, database dropped afterwards
 *   npm run bench:cases -- --rows 200000 --cases 20000
 *   npm run bench:cases -- --keep                     # keep the database; a later run reuses its executions
 *   npm run bench:cases -- --baseline-claims 20000    # claims of the naive baseline (default 10,000)
 *   npm run bench:cases -- --break=skip-locked        # show that the check fails (exit 1)
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
import { getQueuesPage } from '@/lib/cases/queries';
import { createDb, type Db } from '@/lib/db/client';
import { runMigrations } from '@/lib/db/migrate';
import { audit } from '@/lib/audit';
import { seed } from './bench/seed';
import { benchFlag, benchOption } from './bench/cli';
import {
  benchDatabase,
  benchDatabaseName,
  breakOption,
  Checks,
  CLAIMED_WHILE_HELD_SQL,
  ms,
  ratioLine,
  spread,
} from './bench/verdict';

const ROWS = Number(benchOption('rows') ?? 1_000_000);
const CASES = Number(benchOption('cases') ?? 100_000);
const RESOLVED = Number(benchOption('resolved') ?? CASES / 2);
const CLAIMERS = Number(benchOption('claimers') ?? 20);
const BASELINE_CLAIMS = Number(benchOption('baseline-claims') ?? 10_000);
const VARIANT_CLAIMS = Number(benchOption('variant-claims') ?? 20_000);
const TEMPLATE = benchOption('template');
const DB_NAME = benchDatabaseName('cases');
const DATABASE = benchDatabase(DB_NAME);
const BREAK = breakOption(['skip-locked'] as const);
const checks = new Checks('  ');
const log = (s: string) => console.log(s);

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

/**
 * Prints one run and checks it: every claim a distinct case (the claimers' tally and the case
 * events), and, for a run until empty, no open case left behind.
 */
async function report(d: Db, name: string, r: Run, untilEmpty: boolean) {
  const s = spread(r.latencies);
  const perSec = r.claimed.length / r.seconds;
  log(
    `  ${name}: ${r.claimed.length.toLocaleString('en-US')} claims in ${r.seconds.toFixed(1)} s = ${perSec.toFixed(0)} claims/s; p50 ${ms(s.p50)}, p95 ${ms(s.p95)}${r.retries ? `; ${r.retries.toLocaleString('en-US')} retries` : ''}`,
  );
  const twice = r.claimed.length - new Set(r.claimed).size;
  const events = await d.execute<{ n: number }>(sql.raw(CLAIMED_WHILE_HELD_SQL));
  checks.check(
    `${name}: no case claimed twice`,
    twice === 0 && events.rows[0].n === 0,
    `${twice} twice in the claimers' tally, ${events.rows[0].n} cases claimed while held`,
  );
  if (untilEmpty) {
    const left = await d.execute<{ n: number }>(sql`select count(*)::int as n from cases where state = 'open'`);
    checks.check(`${name}: no open case left`, left.rows[0].n === 0, `${left.rows[0].n} left open`);
  }
  return { ...s, perSec, claims: r.claimed.length };
}

/**
 * The fair baseline's claim: the row picked by `FOR UPDATE SKIP LOCKED` (queues in claim order,
 * then due), then the case event and the audit entry as statements of their own in the same
 * transaction. `broken` drops the lock and the state re-check, which lets two claimers take one case.
 */
async function skipLockedClaim(d: Db, user: { id: string; email: string }, broken: boolean) {
  return d.transaction(async (tx) => {
    const picked = await tx.execute<{ id: string; execution_id: string; queue_id: string }>(sql`
      update cases set state = 'in_review', assignee_id = ${user.id}, claimed_at = now(), version = version + 1,
        updated_at = now()
      where id = (
        select c.id from cases c join case_queues q on q.id = c.queue_id
        where c.state = 'open' and not q.archived and q.min_role = 'analyst'
        order by q.priority, q.sort_order, c.due_at, c.id limit 1${broken ? sql`` : sql` for update of c skip locked`}
      )${broken ? sql`` : sql` and state = 'open'`}
      returning id, execution_id, queue_id`);
    const row = picked.rows[0];
    if (!row) return null;
    await tx.execute(sql`
      insert into case_events (case_id, execution_id, type, actor_id, queue_id, assignee_id)
      values (${row.id}, ${row.execution_id}, 'claimed', ${user.id}, ${row.queue_id}, ${user.id})`);
    await audit(
      {
        action: 'case.claim',
        actor: user,
        targetType: 'execution',
        targetId: row.execution_id,
        details: { caseId: row.id, queueId: row.queue_id },
        ip: null,
      },
      tx,
    );
    return row.id;
  });
}

async function main() {
  const url = DATABASE.url.toString();
  const drop = async () => {
    if (benchFlag('keep')) return log(`Kept ${DB_NAME}.`);
    await DATABASE.drop();
    log(`Dropped ${DB_NAME}.`);
  };
  // A kept database with enough executions is reused; anything else starts from an empty one
  // (the feedback history's append-only triggers forbid emptying the tables in place).
  let reuse = false;
  if (await DATABASE.exists()) {
    const c = new Client({ connectionString: url });
    await c.connect();
    const n = await c
      .query<{ n: number }>('select count(*)::int as n from executions')
      .then((r) => r.rows[0].n)
      .catch(() => 0);
    await c.end();
    reuse = n >= ROWS;
    if (!reuse) await DATABASE.drop();
  }
  if (!reuse && TEMPLATE) {
    if (!/^[a-z0-9_]+$/.test(TEMPLATE)) throw new Error(`Not a database name: ${TEMPLATE}`);
    // CREATE DATABASE … TEMPLATE refuses while anyone is connected to the template: wait for a gap.
    for (let i = 0; ; i++) {
      try {
        await DATABASE.create(TEMPLATE);
        break;
      } catch (err) {
        if (i >= 360 || !/being accessed by other users/.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 5000));
      }
    }
    reuse = true;
    log(`Cloned ${TEMPLATE} into ${DB_NAME}.`);
  } else if (!reuse) await DATABASE.create();
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
    const pageSpread = spread(page);
    log(
      `  p50 ${ms(pageSpread.p50)}, p95 ${ms(pageSpread.p95)} (target ≤ 100 ms) — ${pageSpread.p95 <= 100 ? 'OK' : 'OVER'}`,
    );
    if (benchFlag('page-only')) {
      await d.$client.end();
      return;
    }

    log(`\nNext case, ${CLAIMERS} concurrent claimers until the queues are empty:`);
    const claimVerdict = async (user: { id: string; email: string }) => {
      const r = await claimNextCase({ ...user, role: 'analyst' }, {}, d);
      return { caseId: r.ok && r.data ? r.data.caseId : null, retries: 0 };
    };
    const v = await report(
      d,
      'Verdict (one statement: claim, event and audit entry)',
      await runClaimers(users, claimVerdict),
      true,
    );
    log(`  claim p95 target ≤ 25 ms — ${v.p95 <= 25 ? 'OK' : 'OVER'}`);

    await reopenAll(d);
    await auditVariant(d, 'none');
    await report(d, 'Verdict without the audit entry', await runClaimers(users, claimVerdict, VARIANT_CLAIMS), false);
    await auditVariant(d, 'shipped');

    log(
      `\nFair baseline: SKIP LOCKED claim, then the event and the audit entry as two more statements, ${CLAIMERS} claimers until empty${BREAK === 'skip-locked' ? ' (BROKEN: no SKIP LOCKED, no state re-check)' : ''}:`,
    );
    await reopenAll(d);
    const fair = await report(
      d,
      'SKIP LOCKED + separate statements',
      await runClaimers(users, async (user) => ({
        caseId: await skipLockedClaim(d, user, BREAK === 'skip-locked'),
        retries: 0,
      })),
      true,
    );
    checks.check(
      'both sides made the same number of claims',
      fair.claims === v.claims,
      `${v.claims.toLocaleString('en-US')} and ${fair.claims.toLocaleString('en-US')}`,
    );

    log(
      `\nOlder naive baseline, an extra line (SELECT next, then UPDATE if still open, retry; no event, no audit entry), ${BASELINE_CLAIMS.toLocaleString('en-US')} claims:`,
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
    const b = await report(d, 'naive SELECT-then-UPDATE', baseline, false);
    log('');
    log(
      ratioLine(
        `Verdict against the fair SKIP LOCKED baseline, ${v.claims.toLocaleString('en-US')} claims each`,
        v,
        fair,
      ),
    );
    log(
      ratioLine(
        `Verdict against the naive baseline (extra line; ${b.claims.toLocaleString('en-US')} naive claims)`,
        v,
        b,
      ),
    );
    await d.$client.end();
  } finally {
    await drop();
  }
  checks.finish();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
