/**
 * `npm run bench:load`: Verdict spread over processes under load. A production build (built if
 * needed), Postgres with a seeded cache (one million executions unless `--rows`), the simulator
 * as the service in its own process with its rate limits on and serving the same executions,
 * two consoles on two ports and one `npm run worker`. Then, at the same time:
 *
 * - N analysts (autocannon, one instance and one session each; scripts/bench/analysts.ts): sign
 *   in once, then list with varied filters, open a detail, press "next case", and submit
 *   feedback on every third loop, with think time between clicks;
 * - a callback storm at `--callback-rate` per second, split over the consoles.
 *
 * It prints per route p50 / p95 / p99 and throughput, callbacks p99, the peak request rate the
 * simulator saw per class of operations against its limits (429s must be 0), and lost or doubled
 * callbacks, feedback and case claims counted in the database and at the simulator (must be 0);
 * then whether the cache equals the service for every execution the run touched, the CPU each
 * kind of process used during the load (where the time goes), and each target against what was
 * achieved; then the naive baseline in the same run (`--baseline` seconds): the same load with
 * callbacks answered by Next's route as before the console server's door, and the ratios. Targets: 20 analysts at 2 s think time, list and detail p95 <= 300 ms, while
 * callbacks arrive at 100/s.
 *
 * Faults under load (mid-run): `--kill-worker` (SIGKILL, then a new worker), `--restart-postgres`
 * (`pg_ctlcluster … restart`: needs root or the postgres user), `--sim-503 [s]` (the service
 * answers 503 for s seconds, default 20). After recovery the same counts and comparison run.
 *
 *   npm run bench:load                                   # 1,000,000 rows seeded afresh (slow)
 *   npm run bench:load -- --reuse verdict_bench_xxxx     # cloned (TEMPLATE) from a seeded database
 *   npm run bench:load -- --rows 20000 --duration 30     # small
 *   npm run bench:load -- --rows 20000 --kill-worker --restart-postgres --sim-503 20
 *   npm run bench:load -- --analysts 40 --think 1 --callback-rate 200
 *   npm run bench:load -- --reconcile                    # also the full reconciliation (npm run sync -- reconcile)
 *   npm run bench:load -- --profile                      # also the consoles' CPU profiles, summarized
 *   npm run bench:load -- --baseline 0                   # without the naive baseline phase (default 30 s)
 *
 * The database server comes from BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local
 * postgres://postgres@127.0.0.1:5432/postgres; only a local server is accepted. The database the
 * run works on is its own (dropped afterwards unless `--keep`); a `--reuse` source is never written.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { ensureBuild } from '@/lib/server/build-stamp';
import { runAnalysts, runStorm, signIn, type Route } from './bench/analysts';
import {
  compareWithService,
  countCallbacks,
  countClaims,
  countFeedback,
  settle,
  type Counted,
} from './bench/load-checks';
import { prepareLoadDatabase, SEED, SEED_DAYS } from './bench/load-db';
import { cpuSeconds, cpuUsedBetween, LoadStack } from './bench/load-stack';
import { summarizeProfiles } from './bench/cpu-profile';

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[i + 1] : undefined;
};
const ROWS = Number(option('rows') ?? 1_000_000);
const ANALYSTS = Number(option('analysts') ?? 20);
const THINK_S = Number(option('think') ?? 2);
const DURATION = Number(option('duration') ?? 60);
const CALLBACK_RATE = Number(option('callback-rate') ?? 100);
const STORM_EXECUTIONS = Number(option('storm-executions') ?? 200);
const SIM_503 = flag('sim-503') ? Number(option('sim-503') ?? 20) : 0;
const TARGET_P95_MS = 300;
/** Seconds of the baseline phase (0: none): the same load with callbacks through Next's route. */
const BASELINE_S = Number(option('baseline') ?? 30);
const log = (s: string) => console.log(`[bench] ${s}`);

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
const ms = (v: number) => (Number.isNaN(v) ? '—' : `${v.toFixed(0)} ms`);

async function main() {
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-bench-load-'));
  log(`logs of every process in ${logDir}`);
  await ensureBuild({ ...process.env }, log);
  const db = await prepareLoadDatabase({
    reuse: option('reuse'),
    rows: ROWS,
    keep: flag('keep'),
    analysts: ANALYSTS,
    stormExecutions: STORM_EXECUTIONS,
    feedbackPool: 2_000,
    openCases: 5_000,
    log,
  });
  const stack = new LoadStack({
    databaseUrl: db.url,
    rows: db.rows,
    anchor: db.anchor,
    seed: SEED,
    days: SEED_DAYS,
    consolePorts: [Number(option('port') ?? 3341), Number(option('port') ?? 3341) + 1],
    simPort: Number(option('sim-port') ?? 4341),
    logDir,
    profileDir: flag('profile') ? path.join(logDir, 'profiles') : undefined,
  });
  const pg = new Client({ connectionString: db.url });
  // Ctrl+C: the processes started here stop and the run's database goes, as at the end.
  process.once(
    'SIGINT',
    () =>
      void stack
        .stop()
        .then(db.drop)
        .finally(() => process.exit(130)),
  );
  try {
    await stack.startSimulator();
    await Promise.all([stack.startConsoles(), stack.startWorker()]);
    log(
      `simulator ${stack.simUrl}, consoles ${stack.consoles.join(' and ')}, one worker; signing in ${ANALYSTS} analysts…`,
    );
    const analysts = await Promise.all(
      db.analysts.map(async (a, i) => ({
        email: a.email,
        cookie: await signIn(stack.consoles[i % stack.consoles.length], a.email, a.password),
      })),
    );
    // Warm-up: each route once per console, so the first-request costs of the build stay out of the figures.
    const warmUp = async () => {
      for (const base of stack.consoles)
        for (const p of ['/executions', `/executions/${db.feedbackPool.at(-1)}`, '/queues'])
          await fetch(`${base}${p}`, { headers: { cookie: analysts[0].cookie } }).then((r) => r.text());
    };
    await warmUp();
    /** One phase of load: the analysts and the callback storm side by side. */
    const load = (durationSec: number, tag: string, feedbackPool: string[]) =>
      Promise.all([
        runAnalysts({
          consoles: stack.consoles,
          analysts,
          thinkMs: THINK_S * 1000,
          durationSec,
          feedbackPool,
          runTag: tag,
        }),
        runStorm({
          consoles: stack.consoles,
          secret: stack.callbackSecret,
          simUrl: stack.simUrl,
          rate: CALLBACK_RATE,
          durationSec,
          executions: db.stormExecutions,
          runTag: tag,
        }),
      ]);

    const runTag = `load${randomBytes(3).toString('hex')}`;
    const faults: string[] = [];
    const scheduled: Array<Promise<void>> = [];
    const at = (fraction: number, name: string, f: () => Promise<string>) =>
      scheduled.push(
        new Promise<void>((r) => setTimeout(r, DURATION * 1000 * fraction)).then(async () => {
          log(`fault: ${name}…`);
          const outcome = await f();
          faults.push(`${name}: ${outcome}`);
          log(`fault: ${name}: ${outcome}`);
        }),
      );
    if (SIM_503)
      at(
        0.2,
        `the service answers 503 for ${SIM_503} s`,
        async () => (await stack.serviceDown(SIM_503), 'service back'),
      );
    if (flag('kill-worker'))
      at(
        0.35,
        'SIGKILL the worker',
        async () => `a new worker was running ${((await stack.killWorker()) / 1000).toFixed(1)} s later`,
      );
    if (flag('restart-postgres'))
      at(0.6, 'restart Postgres', async () => `restarted in ${(stack.restartPostgres() / 1000).toFixed(1)} s`);

    const cpuBefore = cpuSeconds(stack.pids());
    const loadBefore = os.loadavg()[0];
    const started = new Date();
    log(
      `load: ${ANALYSTS} analysts (think ${THINK_S} s) and callbacks at ${CALLBACK_RATE}/s for ${DURATION} s${faults.length || scheduled.length ? ', with faults' : ''}…`,
    );
    const [[work, storm]] = await Promise.all([load(DURATION, runTag, db.feedbackPool), ...scheduled]);
    const cpuAfter = cpuSeconds(stack.pids());
    const loadAfter = os.loadavg()[0];

    await pg.connect();
    log('load over; waiting for the inbox, the fetches and the feedback deliveries to finish…');
    const settledIn = await settle(pg, {
      runTag,
      stormIds: db.stormExecutions.map((e) => e.id),
      feedbackIds: [...work.feedbackAcknowledged.keys()],
      timeoutMs: 600_000,
    });
    const sim = await stack.simStats();
    const counts: Counted[] = [
      await countCallbacks(
        pg,
        runTag,
        storm.acknowledged,
        db.stormExecutions.map((e) => e.id),
      ),
      await countFeedback(pg, work.feedbackAcknowledged, sim.feedback),
      await countClaims(pg, work.claims, started),
    ];
    const touchedFeedback = (
      await pg.query<{ id: string; account_id: string }>(
        `select id, account_id from executions where id = any($1::uuid[])`,
        [[...work.feedbackAcknowledged.keys()]],
      )
    ).rows.map((r) => ({ id: r.id, account: r.account_id }));
    const comparison = await compareWithService(pg, {
      simUrl: stack.simUrl,
      basic: stack.basic(),
      executions: [...db.stormExecutions.slice(0, 50), ...touchedFeedback],
      perSec: 8,
    });
    let reconcile = '';
    if (flag('reconcile')) {
      log('full reconciliation (npm run sync -- reconcile)…');
      const code = await stack.reconcile();
      const r = (
        await pg.query(
          `select state, seen, written, service_total, cache_total from sync_runs where kind = 'reconcile' order by id desc limit 1`,
        )
      ).rows[0] as Record<string, unknown> | undefined;
      reconcile = `exit ${code}; ${r ? `${r.state}: ${r.seen} listed, ${r.written} written, service ${r.service_total} / cache ${r.cache_total}` : 'no run recorded'}`;
    }

    // ------------------------------------------------------------------------------------------
    const lines: string[] = [''];
    lines.push(
      `  ${ANALYSTS} analysts, think ${THINK_S} s, ${DURATION} s, callbacks at ${CALLBACK_RATE}/s offered; ${db.rows.toLocaleString('en-US')} executions; 2 consoles + 1 worker on Postgres`,
    );
    lines.push(
      `  machine load (1 min) ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, ${os.cpus().length} cores`,
    );
    if (faults.length) lines.push(`  faults: ${faults.join('; ')}`);
    if (stack.restarts.length)
      lines.push(`  restarted by the bench as a supervisor would: ${stack.restarts.join('; ')}`);
    lines.push(
      '',
      `  ${'route'.padEnd(10)} ${'requests'.padStart(8)} ${'per s'.padStart(6)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'p99'.padStart(7)}  statuses`,
    );
    const p95: Partial<Record<Route, number>> = {};
    for (const route of Object.keys(work.latencies) as Route[]) {
      const s = work.latencies[route].slice().sort((a, b) => a - b);
      p95[route] = pct(s, 95);
      lines.push(
        `  ${route.padEnd(10)} ${String(s.length).padStart(8)} ${(s.length / DURATION).toFixed(1).padStart(6)} ${ms(pct(s, 50)).padStart(7)} ${ms(pct(s, 95)).padStart(7)} ${ms(pct(s, 99)).padStart(7)}  ${JSON.stringify(work.statuses[route])}`,
      );
    }
    lines.push('', '  the list per filter (where its time goes):');
    for (const [f, l] of Object.entries(work.listByFilter)) {
      const sorted = l.slice().sort((a, b) => a - b);
      lines.push(
        `    ${(f || '(no filter)').padEnd(42)} ${String(sorted.length).padStart(5)}  p50 ${ms(pct(sorted, 50)).padStart(7)}  p95 ${ms(pct(sorted, 95)).padStart(7)}`,
      );
    }
    lines.push('');
    const cb = storm.latencies.slice().sort((a, b) => a - b);
    lines.push(
      `  ${'callbacks'.padEnd(10)} ${String(cb.length).padStart(8)} ${(cb.length / DURATION).toFixed(1).padStart(6)} ${ms(pct(cb, 50)).padStart(7)} ${ms(pct(cb, 95)).padStart(7)} ${ms(pct(cb, 99)).padStart(7)}  ${JSON.stringify(storm.statuses)}`,
    );
    lines.push(`  analysts' connection errors ${work.errors}, timeouts ${work.timeouts}; storm errors ${storm.errors}`);
    lines.push('', '  the service (simulator /__sim/stats), per class of operations:');
    let rejected = 0;
    let overLimit = false;
    for (const [k, r] of Object.entries(sim.rates)) {
      rejected += r.rejected;
      // A token bucket allows its burst in the first second, its rate after.
      if (r.limit && r.peakPerSec > Math.max(r.limit.perSec, r.limit.burst)) overLimit = true;
      lines.push(
        `    ${k.padEnd(9)} ${String(r.requests).padStart(7)} requests, peak ${r.peakPerSec}/s (limit ${r.limit ? `${r.limit.perSec}/s, burst ${r.limit.burst}` : 'off'}), 429s ${r.rejected}`,
      );
    }
    lines.push(`    answers by status: ${JSON.stringify(sim.byStatus)}`);
    lines.push('', `  after the load, the work behind it finished in ${settledIn.toFixed(1)} s:`);
    for (const c of counts) lines.push(`    ${c.label.padEnd(12)} lost ${c.lost}, twice ${c.twice} — ${c.detail}`);
    lines.push(
      `    cache = service for ${comparison.compared - comparison.differ.length}/${comparison.compared} touched executions (read back with R2)${comparison.differ.length ? `; differ: ${comparison.differ.slice(0, 5).join('; ')}` : ''}`,
    );
    if (reconcile) lines.push(`    full reconciliation: ${reconcile}`);
    const window = DURATION * os.cpus().length;
    lines.push(
      '',
      `  where the time went during the load (CPU seconds; ${window} available on ${os.cpus().length} cores):`,
    );
    for (const [k, used] of cpuUsedBetween(cpuBefore, cpuAfter))
      lines.push(
        `    ${k.padEnd(24)} ${used.toFixed(1).padStart(6)} s  ${((used / window) * 100).toFixed(0).padStart(3)}%`,
      );
    lines.push('    (a process killed during the load is not counted)');
    const achieved = cb.length / DURATION;
    const lostOrTwice = counts.reduce((s, c) => s + c.lost + c.twice, 0);
    const targets: Array<[string, string, boolean]> = [
      [`list p95 <= ${TARGET_P95_MS} ms`, ms(p95.list ?? NaN), (p95.list ?? Infinity) <= TARGET_P95_MS],
      [`detail p95 <= ${TARGET_P95_MS} ms`, ms(p95.detail ?? NaN), (p95.detail ?? Infinity) <= TARGET_P95_MS],
      [
        `callbacks ${CALLBACK_RATE}/s accepted`,
        `${achieved.toFixed(1)}/s, p99 ${ms(pct(cb, 99))}`,
        achieved >= CALLBACK_RATE * 0.95,
      ],
      [
        'service: zero 429s, peaks within limits',
        `${rejected} 429s${overLimit ? ', a peak over its limit' : ''}`,
        rejected === 0 && !overLimit,
      ],
      ['lost or twice: 0', String(lostOrTwice), lostOrTwice === 0],
      ['cache = service', `${comparison.differ.length} differ`, comparison.differ.length === 0],
    ];
    if (BASELINE_S > 0) {
      // The naive baseline, in the same run on the same data: the design this replaced, where the
      // service's callbacks are answered by Next's route like any page (CALLBACK_VIA_NEXT=1)
      // instead of by the console server's own door before Next.
      log(`baseline: the same load for ${BASELINE_S} s with callbacks through Next's route (CALLBACK_VIA_NEXT=1)…`);
      await stack.restartConsoles({ CALLBACK_VIA_NEXT: '1' });
      await warmUp();
      const baseTag = `${runTag}b`;
      // Feedback is measured in the main phase only: the pool's executions are spent there.
      const [bWork, bStorm] = await load(BASELINE_S, baseTag, []);
      // As after the main phase: the work behind the callbacks finishes before they are counted.
      await settle(pg, {
        runTag: baseTag,
        stormIds: db.stormExecutions.map((e) => e.id),
        feedbackIds: [],
        timeoutMs: 600_000,
      });
      const bLost = await countCallbacks(
        pg,
        baseTag,
        bStorm.acknowledged,
        db.stormExecutions.map((e) => e.id),
      );
      const row = (name: string, ours: number[], theirs: number[], p: number) => {
        const a = pct(
          ours.slice().sort((x, y) => x - y),
          p,
        );
        const b = pct(
          theirs.slice().sort((x, y) => x - y),
          p,
        );
        return `    ${name.padEnd(16)} p${p} ${ms(a).padStart(7)}  baseline ${ms(b).padStart(7)}  ${(b / a).toFixed(1)}x`;
      };
      lines.push(
        `  against the naive baseline (callbacks through Next's route, ${BASELINE_S} s, same analysts and rate):`,
        row('callbacks', storm.latencies, bStorm.latencies, 99),
        `    ${'callbacks/s'.padEnd(16)} ${(cb.length / DURATION).toFixed(1)}  baseline ${(bStorm.latencies.length / BASELINE_S).toFixed(1)}; baseline lost ${bLost.lost}, twice ${bLost.twice} (${bLost.detail})`,
        row('list', work.latencies.list, bWork.latencies.list, 95),
        row('detail', work.latencies.detail, bWork.latencies.detail, 95),
        row('next case', work.latencies['next case'], bWork.latencies['next case'], 95),
      );
    }
    lines.push('', '  target                                   achieved');
    for (const [t, a, ok] of targets) lines.push(`    ${t.padEnd(40)} ${a.padEnd(28)} ${ok ? 'met' : 'MISSED'}`);
    lines.push('');
    console.log(lines.join('\n'));
    process.exitCode = targets.every((t) => t[2]) ? 0 : 1;
    if (flag('profile')) {
      await stack.stop();
      console.log(summarizeProfiles(path.join(logDir, 'profiles')).join('\n'));
    }
  } finally {
    await pg.end().catch(() => undefined);
    await stack.stop();
    await db.drop();
  }
}

main().catch((err) => {
  console.error('[bench] failed:', err instanceof Error ? err.stack : err);
  process.exit(1);
});
