/**
 * `npm run bench:audit`: the tamper-evident audit log at one million entries.
 *
 * Seeds a dedicated database `verdict_bench_audit` on the local Postgres (TEST_DATABASE_URL's
 * server, else postgres://postgres@127.0.0.1:5432) with N chained entries in one set-based
 * statement (the chain folded by the migration's own aggregate), signs a checkpoint, then:
 * - times `verifyChain` over the whole chain (what `npm run audit -- verify` runs), against the
 *   fair baseline in the same run over the same entries: one ordered scan through a server-side
 *   cursor, each entry hashed in JavaScript (what a competent engineer writes first); both must
 *   find the chain whole, with the same number of entries and the same head hash;
 * - times appends with 1, 4 and 8 concurrent writers on their own connections, p50 / p95, in
 *   today's design (inserts take no lock; the sealer runs every second meanwhile, as the worker's
 *   does) against the former head-lock trigger built in a scratch schema of the same database
 *   (scripts/bench/audit-designs.ts). "An append" is the INSERT inside the caller's transaction:
 *   that is what an audited action pays. The caller's whole transaction (its own write and the
 *   commit included) and a lone autocommit INSERT are printed too;
 * - times the sealer on a backlog, and checks that the whole chain still verifies afterwards.
 *
 * Options: --entries=N (default 1,000,000), --appends=N (transactions per writer, default 1,000),
 * --writers=1,4,8, --keep (reuse a seeded database), --appends-only (with --keep: time the appends
 * alone, for a rerun when the machine is quieter), --verify-only (the verifiers alone).
 *
 * The checks (chain whole for both verifiers, same entries, whole again after the appends) decide
 * the exit code. `--break=tamper` edits one entry's details before verifying (and restores it
 * afterwards), so the verifiers must report the chain broken and the run exits 1.
 */
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { createDb, type Db } from '@/lib/db/client';
import { runMigrations } from '@/lib/db/migrate';
import { CANONICAL_AT_SQL, entryHash, GENESIS_HASH } from '@/lib/evidence/chain';
import { sealAuditLog } from '@/lib/evidence/seal';
import { signCheckpoint, signingKeyFrom } from '@/lib/evidence/signing';
import { verifyChain } from '@/lib/evidence/verify';
import { benchDatabase, benchDatabaseName, breakOption, Checks } from './bench/verdict';
import {
  appendRun,
  createCallerTable,
  createHeadLockBaseline,
  pct,
  type Design,
  type Timing,
} from './bench/audit-designs';

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const ENTRIES = Number(arg('entries', '1000000'));
const APPENDS = Number(arg('appends', '1000'));
const WRITERS = arg('writers', '1,4,8').split(',').map(Number);
const KEEP = process.argv.includes('--keep');
const APPENDS_ONLY = process.argv.includes('--appends-only');
const VERIFY_ONLY = process.argv.includes('--verify-only');
const DB_NAME = benchDatabaseName('audit');
const DATABASE = benchDatabase(DB_NAME);
const BREAK = breakOption(['tamper'] as const);
const checks = new Checks('[bench:audit] ');
// A fixed key: the benchmark's checkpoints mean nothing outside its own database.
const KEY = signingKeyFrom('42'.repeat(32));

const log = (s: string) => console.log(`[bench:audit] ${s}`);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** N entries with realistic variety, chained in one statement by the migration's aggregate. */
async function seed(db: Db) {
  const t0 = performance.now();
  const c = db.$client;
  // The seeding supplies the chain columns itself, which the insert trigger would clear.
  await c.query('alter table audit_log disable trigger audit_log_unsealed');
  await c.query(`
    insert into audit_log (id, at, actor_id, actor_email, action, target_type, target_id, outcome, ip, details, seq, prev_hash, hash)
    select g, at, null, email, action, tt, tid, outcome, ip, details, g,
      encode(lag(h, 1, '\\x${GENESIS_HASH}'::bytea) over (order by g), 'hex'), encode(h, 'hex')
    from (
      select s.*, audit_chain_fold(sha256(convert_to(audit_canonical(g, at, null, email, action, tt, tid, outcome, ip, details), 'UTF8')))
        over (order by g rows between unbounded preceding and current row) as h
      from (
        select g,
          timestamptz '2025-11-24 00:00:00+00' + (g * interval '31 seconds') + ((g % 997) * interval '1 microsecond') as at,
          'user' || (g % 40) || '@example.test' as email,
          (array['execution.view','pii.reveal','image.view','auth.sign_in','executions.export','feedback.submit'])[1 + g % 6] as action,
          case when g % 6 = 3 then null else 'execution' end as tt,
          case when g % 6 = 3 then null else md5((g % 50000)::text)::uuid::text end as tid,
          (case when g % 50 = 0 then 'denied' when g % 37 = 0 then 'failure' else 'success' end)::audit_outcome as outcome,
          '10.0.' || (g % 200) || '.' || (g % 250) as ip,
          case when g % 3 = 0 then jsonb_build_object('revealed', g % 2 = 0, 'n', g)
               when g % 3 = 1 then jsonb_build_object('reason', 'case ' || g, 'minutes', 15)
               else null end as details
        from generate_series(1, ${ENTRIES}) g
      ) s
    ) x`);
  await c.query(`select setval(pg_get_serial_sequence('audit_log', 'id'), ${ENTRIES})`);
  await c.query(
    `update audit_chain_head set (seq, hash, at) = (select seq, hash, at from audit_log order by seq desc limit 1) where id = 1`,
  );
  await c.query('alter table audit_log enable trigger audit_log_unsealed');
  await c.query('vacuum analyze audit_log');
  const [head] = (await c.query('select seq::int, hash from audit_chain_head')).rows;
  const signedAt = new Date();
  await c.query('insert into audit_checkpoints (seq, hash, signed_at, key_id, signature) values ($1, $2, $3, $4, $5)', [
    head.seq,
    head.hash,
    signedAt,
    KEY.keyId,
    signCheckpoint(KEY, { seq: head.seq, hash: head.hash, signedAt }),
  ]);
  log(
    `seeded ${ENTRIES.toLocaleString('en')} chained entries and a signed checkpoint in ${secs(performance.now() - t0)}`,
  );
}

/**
 * The fair baseline verifier: one ordered scan of the chain through a server-side cursor, each
 * entry hashed in JavaScript with the chain's own function, no checkpoint signatures.
 */
async function scanVerify(url: string): Promise<{ ok: boolean; entries: number; head: string; ms: number }> {
  const c = new Client({ connectionString: url });
  await c.connect();
  const t0 = performance.now();
  let prev = GENESIS_HASH;
  let entries = 0;
  let ok = true;
  try {
    await c.query('begin isolation level repeatable read');
    await c.query(
      `declare chain no scroll cursor for select a.seq::text, ${CANONICAL_AT_SQL} as at, actor_id::text, actor_email,
        action, target_type, target_id, outcome::text, ip, details::text, prev_hash, hash
       from audit_log a where a.seq is not null order by a.seq`,
    );
    for (;;) {
      const { rows } = await c.query('fetch 20000 from chain');
      if (!rows.length) break;
      for (const x of rows) {
        const hash = entryHash(prev, {
          seq: x.seq,
          at: x.at,
          actorId: x.actor_id,
          actorEmail: x.actor_email,
          action: x.action,
          targetType: x.target_type,
          targetId: x.target_id,
          outcome: x.outcome,
          ip: x.ip,
          details: x.details,
        });
        if (ok && (x.prev_hash !== prev || hash !== x.hash || Number(x.seq) !== entries + 1)) ok = false;
        prev = x.hash;
        entries++;
      }
    }
    await c.query('commit');
  } finally {
    await c.end();
  }
  return { ok, entries, head: prev, ms: performance.now() - t0 };
}

/** `--break=tamper`: one entry in the middle edited behind the append-only trigger; undo() puts it back. */
async function tamper(url: string) {
  const c = new Client({ connectionString: url });
  await c.connect();
  const seq = Math.max(1, Math.floor(ENTRIES / 2));
  const [{ details }] = (await c.query('select details::text from audit_log where seq = $1', [seq])).rows;
  const write = (v: string | null) =>
    c.query(
      `begin; set local session_replication_role = replica;
       update audit_log set details = ${v === null ? 'null' : `'${v.replace(/'/g, "''")}'::jsonb`} where seq = ${seq}; commit`,
    );
  await write(JSON.stringify({ tampered: true }));
  log(`--break=tamper: entry ${seq}'s details edited`);
  return { undo: () => write(details).finally(() => c.end()) };
}

async function main() {
  const exists = await DATABASE.exists();
  const url = DATABASE.url;
  if (!KEEP || !exists) {
    await DATABASE.drop();
    await DATABASE.create();
    await runMigrations(url.toString());
  }
  const db = createDb(url.toString(), 4);
  const [{ n }] = (await db.$client.query('select count(*)::int as n from audit_log')).rows;
  if (n < ENTRIES) await seed(db);
  else log(`reusing ${n.toLocaleString('en')} entries (--keep)`);
  const load = () =>
    import('node:os').then((os) =>
      os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' '),
    );
  log(`load average before timing: ${await load()}`);

  if (!APPENDS_ONLY) {
    const broken = BREAK === 'tamper' ? await tamper(url.toString()) : null;
    // Verify: the real verifier over the whole chain, with the checkpoint's signature.
    const v = await verifyChain(db, { key: KEY });
    log(
      `verify: ${v.entries.toLocaleString('en')} entries, ${v.checkpoints} checkpoint, ${secs(v.ms)} ` +
        `(${Math.round(v.entries / (v.ms / 1000)).toLocaleString('en')} entries/s; target < 60 s for 1,000,000)`,
    );
    const scan = await scanVerify(url.toString());
    log(
      `baseline, one ordered scan hashed in JavaScript: ${scan.entries.toLocaleString('en')} entries in ${secs(scan.ms)} ` +
        `(${Math.round(scan.entries / (scan.ms / 1000)).toLocaleString('en')} entries/s)`,
    );
    log(
      `ratio, verify of the same ${scan.entries.toLocaleString('en')} entries: ${(scan.ms / v.ms).toFixed(2)}x the baseline's speed`,
    );
    await broken?.undo();
    checks.check('verifyChain finds the chain whole', v.ok, v.failure ? JSON.stringify(v.failure) : '');
    checks.check('the scan finds the chain whole', scan.ok);
    checks.check(
      'both verifiers read the same entries',
      scan.entries === v.entries + v.unsealed || scan.entries === v.entries,
      `${v.entries} and ${scan.entries}`,
    );
  }
  if (VERIFY_ONLY || !checks.ok) {
    await db.$client.end();
    if (!KEEP) await DATABASE.drop();
    checks.finish();
    return;
  }

  // Appends: today's design against the former head-lock trigger, in the same database and run.
  const c = new Client({ connectionString: url.toString() });
  await c.connect();
  let t0 = performance.now();
  await createHeadLockBaseline(c);
  await createCallerTable(c, Math.max(...WRITERS));
  log(`baseline: the head-lock design copied into schema audit_headlock in ${secs(performance.now() - t0)}`);
  const ms = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(2)} ms, p95 ${pct(xs, 95).toFixed(2)} ms`;
  // The sealer as the worker runs it: a round every second, skipped while another is sealing.
  const sealerDb = createDb(url.toString(), 1);
  const sealing = { rounds: 0, sealed: 0, worst: 0 };
  let round: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    const s = performance.now();
    round = sealAuditLog(sealerDb, { wait: false }).then((r) => {
      sealing.rounds++;
      sealing.sealed += r.sealed;
      sealing.worst = Math.max(sealing.worst, performance.now() - s);
    });
  }, 1000);
  const results: { writers: number; design: Design; t: Timing }[] = [];
  for (const writers of WRITERS)
    for (const design of ['head-lock', 'sealed'] as const) {
      const t = await appendRun(url.toString(), design, writers, APPENDS);
      results.push({ writers, design, t });
      log(
        `${design.padEnd(9)} ${writers} writer${writers > 1 ? 's' : ' '} x ${APPENDS} tx: append (INSERT in the tx) ${ms(t.insert)}; ` +
          `whole tx ${ms(t.tx)}; lone autocommit INSERT ${ms(t.single)}; ${Math.round(t.perSec)} tx/s; ` +
          `floor (select 1 in the tx) ${ms(t.noop)}`,
      );
    }
  clearInterval(timer);
  await round;
  for (const writers of WRITERS) {
    const [old, now] = ['head-lock', 'sealed'].map(
      (d) => results.find((r) => r.writers === writers && r.design === d)!.t,
    );
    log(
      `${writers} writer(s): append p95 ${pct(now.insert, 95).toFixed(2)} ms vs ${pct(old.insert, 95).toFixed(2)} ms ` +
        `(${(pct(old.insert, 95) / pct(now.insert, 95)).toFixed(1)}x lower; target <= 1 ms); whole tx p95 ` +
        `${pct(now.tx, 95).toFixed(2)} vs ${pct(old.tx, 95).toFixed(2)} ms; throughput ${(now.perSec / old.perSec).toFixed(2)}x`,
    );
  }
  log(
    `sealer during the appends: ${sealing.rounds} rounds, ${sealing.sealed.toLocaleString('en')} entries, ` +
      `longest round ${sealing.worst.toFixed(0)} ms`,
  );
  // The sealer's own speed on a backlog: entries inserted while it does not run.
  const backlog = 20_000;
  await c.query(`insert into audit_log (action, actor_email, target_type, target_id, details)
    select 'bench.backlog', 'w@example.test', 'execution', md5(g::text)::uuid::text, jsonb_build_object('i', g)
    from generate_series(1, ${backlog}) g`);
  t0 = performance.now();
  const sealed = await sealAuditLog(sealerDb);
  const sealMs = performance.now() - t0;
  log(
    `sealer on a backlog: ${sealed.sealed.toLocaleString('en')} entries in ${secs(sealMs)} ` +
      `(${Math.round(sealed.sealed / (sealMs / 1000)).toLocaleString('en')} entries/s)`,
  );
  await sealerDb.$client.end();
  await c.query(`drop schema audit_headlock cascade`);
  await c.query('drop table bench_caller');
  await c.end();
  const after = await verifyChain(db, { key: KEY });
  log(
    `after the appends: ${after.ok ? 'the chain verifies' : `NOT VERIFIED: ${JSON.stringify(after.failure)}`} ` +
      `(${after.entries.toLocaleString('en')} entries, ${secs(after.ms)}); load average ${await load()}`,
  );
  checks.check('the chain verifies after the appends and the sealer', after.ok);
  await db.$client.end();
  if (!KEEP) await DATABASE.drop();
  checks.finish();
}

main().catch((err) => {
  console.error('[bench:audit]', err);
  process.exit(1);
});
