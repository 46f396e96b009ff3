/**
 * `npm run bench:callbacks`: callback storms at a fixed rate against a production build served as
 * `npm start` serves it, on Postgres and on the embedded database, each through the console
 * server's own door (lib/sync/callback-endpoint.ts) and, as the baseline measured in the same run,
 * through Next's route (CALLBACK_VIA_NEXT=1). One storm: scripts/bench/callback-storm.ts.
 *
 * Postgres: a database `verdict_bench_callbacks` on the local server (TEST_DATABASE_URL's server,
 * else postgres://postgres@127.0.0.1:5432), dropped and created afresh for each storm. Embedded:
 * a temporary data folder, as `npm start` runs without DATABASE_URL.
 *
 * The start-up backfill of the simulator's executions completes first; then autocannon posts
 * service-shaped callbacks for those executions (the same executions many times over, as a service
 * retrying after an outage sends) while the worker drains the inbox and fetches. Prints latency
 * p50 / p95 / p99 of every response, the achieved rate, lost and duplicated callbacks, how long
 * the inbox took to drain, and the baseline's p99 over the door's.
 *
 *   npm run bench:callbacks                               # both databases, both doors, 60 s each
 *   npm run bench:callbacks -- --db=postgres --door=edge  # one storm (--embedded = --db=embedded)
 *   npm run bench:callbacks -- --rate=50 --duration=10    # the same rate on both databases
 *   npm run bench:callbacks -- --app-dir=../verdict-base  # the storms against another checkout
 *   npm run bench:callbacks -- --db=postgres --door=edge --duration=10 --break=lose  # exit 1
 */
import path from 'node:path';
import { runStorm, type StormResult } from './bench/callback-storm';
import { benchServerUrl, breakOption, Checks } from './bench/verdict';

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const flag = (name: string) => process.argv.includes(`--${name}`);

const DATABASES = (flag('embedded') ? 'embedded' : arg('db', 'postgres,embedded')).split(',') as Array<
  'postgres' | 'embedded'
>;
const DOORS = arg('door', 'next,edge').split(',') as Array<'next' | 'edge'>;
/** Each database's target (issue 14): the rate and the p99 it must keep. */
const TARGET = { postgres: { rate: 200, p99: 50 }, embedded: { rate: 100, p99: 250 } };
const DOOR_NAME = { edge: "console server's door", next: "Next's route (baseline)" };
const BREAK = breakOption(['lose'] as const);
const checks = new Checks('[bench] ');

const adminUrl = () => benchServerUrl().toString();

const ms = (v: number) => `${v.toFixed(1)} ms`;

function report(r: StormResult, what: string) {
  return [
    `  ${what}`,
    `    sent ${r.sent}, answered ${r.answered}, ${r.succeeded} of them 2xx (${Object.entries(r.statuses)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}), errors ${r.errors}, timeouts ${r.timeouts}`,
    `    achieved ${r.achieved.toFixed(1)}/s successful answers; latency p50 ${ms(r.p50)}, p95 ${ms(r.p95)}, p99 ${ms(r.p99)}, max ${ms(r.max)}`,
    `    acknowledged ${r.acknowledged}, lost ${r.lost}; stored ${r.stored} in all, ${r.storedTwice} of them twice`,
    `    ${r.drainSec === null ? 'inbox: none (this checkout handles each callback in its request)' : `inbox empty ${r.drainSec.toFixed(1)} s after the storm`}; ` +
      `simulator retrieval ${r.retrieval.requests} requests, peak ${r.retrieval.peakPerSec}/s, 429s ${r.retrieval.rejected}`,
    `    machine load (1 min) ${r.loadBefore.toFixed(1)} before the storm, ${r.loadAfter.toFixed(1)} at its end`,
  ].join('\n');
}

async function main() {
  const appDir = path.resolve(arg('app-dir', process.cwd()));
  const duration = Number(arg('duration', '60'));
  const results: Array<{ db: 'postgres' | 'embedded'; door: 'next' | 'edge'; rate: number; r: StormResult }> = [];
  for (const db of DATABASES) {
    const rate = Number(arg('rate', String(TARGET[db].rate)));
    for (const door of DOORS) {
      console.log(
        `[bench] ${db === 'embedded' ? 'embedded database' : 'Postgres'}, ${DOOR_NAME[door]}: ${rate}/s for ${duration} s; starting…`,
      );
      const r = await runStorm({
        embedded: db === 'embedded',
        viaNext: door === 'next',
        rate,
        duration,
        connections: Number(arg('connections', '50')),
        port: Number(arg('port', '3331')),
        executions: Number(arg('executions', '200')),
        appDir,
        adminUrl: adminUrl(),
        loseOne: BREAK === 'lose',
      });
      console.log(report(r, `${db}, ${DOOR_NAME[door]}, ${rate}/s offered`));
      results.push({ db, door, rate, r });
      const name = `${db}, ${DOOR_NAME[door]}`;
      checks.check(`${name}: every answer a success`, r.succeeded === r.answered, `${r.succeeded} of ${r.answered}`);
      checks.check(`${name}: no acknowledged callback lost`, r.lost === 0, `${r.lost} of ${r.acknowledged}`);
      checks.check(`${name}: none stored twice`, r.storedTwice === 0, `${r.storedTwice}`);
    }
  }

  console.log('');
  console.log(
    `${'database'.padEnd(10)} ${'door'.padEnd(24)} ${'offered'.padStart(8)} ${'achieved'.padStart(9)} ${'p50'.padStart(9)} ${'p95'.padStart(9)} ${'p99'.padStart(9)}  lost  target`,
  );
  for (const { db, door, rate, r } of results) {
    const t = TARGET[db];
    const met = r.achieved >= t.rate * 0.98 && r.p99 <= t.p99 && r.lost === 0;
    console.log(
      `${db.padEnd(10)} ${DOOR_NAME[door].padEnd(24)} ${`${rate}/s`.padStart(8)} ${`${r.achieved.toFixed(1)}/s`.padStart(9)} ` +
        `${ms(r.p50).padStart(9)} ${ms(r.p95).padStart(9)} ${ms(r.p99).padStart(9)}  ${String(r.lost).padStart(4)}  ` +
        `${rate === t.rate ? `${t.rate}/s, p99 <= ${t.p99} ms: ${met ? 'met' : 'NOT met'}` : '-'}`,
    );
  }
  for (const db of DATABASES) {
    const edge = results.find((x) => x.db === db && x.door === 'edge')?.r;
    const next = results.find((x) => x.db === db && x.door === 'next')?.r;
    if (edge && next)
      console.log(
        `${db}: the door achieved ${(edge.achieved / next.achieved).toFixed(1)}x the baseline's rate; the baseline's p50 is ${(next.p50 / edge.p50).toFixed(1)}x the door's, its p99 ${(next.p99 / edge.p99).toFixed(1)}x`,
      );
  }
  checks.finish();
}

main().catch((err) => {
  console.error('[bench] failed:', err instanceof Error ? err.stack : err);
  process.exit(1);
});
