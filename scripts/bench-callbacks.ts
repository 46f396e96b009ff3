/**
 * `npm run bench:callbacks`: a callback storm at a fixed rate against a production build, served
 * as `npm start` serves it (scripts/start.ts: migrations, the worker in the parent, the console
 * server with Next behind it), with the simulator (its rate limits on) as the service.
 *
 * Postgres (default): a database `verdict_bench_callbacks` on the local server (TEST_DATABASE_URL's
 * server, else postgres://postgres@127.0.0.1:5432), dropped and created afresh. `--embedded`: the
 * embedded database in a temporary data folder, as `npm start` runs without DATABASE_URL.
 *
 * The start-up backfill of the simulator's executions completes first; then autocannon posts
 * service-shaped callbacks for those executions (the same executions many times over, as a service
 * retrying after an outage sends) at `--rate` per second for `--duration` seconds over
 * `--connections` connections, while the worker drains the inbox and fetches. Each callback
 * carries a unique `userReference`, so the database tells how many acknowledged callbacks were
 * stored (lost must be 0) and whether any was stored twice. It prints latency p50 / p95 / p99 (of
 * every response), the achieved rate, and how long the inbox took to drain after the storm.
 *
 *   npm run bench:callbacks                          # Postgres, 200/s for 60 s
 *   npm run bench:callbacks -- --embedded            # embedded database, 100/s for 60 s
 *   npm run bench:callbacks -- --rate=50 --duration=10
 *   npm run bench:callbacks -- --app-dir=../verdict-base   # the same storm against another checkout (a baseline)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { generateExecution, startSimulator } from '@/lib/simulator';

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const flag = (name: string) => process.argv.includes(`--${name}`);

const EMBEDDED = flag('embedded');
const RATE = Number(arg('rate', EMBEDDED ? '100' : '200'));
const DURATION = Number(arg('duration', '60'));
const CONNECTIONS = Number(arg('connections', '50'));
const PORT = Number(arg('port', '3331'));
const EXECUTIONS = Number(arg('executions', '200'));
const APP_DIR = path.resolve(arg('app-dir', process.cwd()));
const DB_NAME = 'verdict_bench_callbacks';

const log = (s: string) => console.log(`[bench] ${s}`);

function adminUrl(): URL {
  const u = new URL(process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(u.hostname))
    throw new Error(`the benchmark runs on a local Postgres only, not ${u.hostname}`);
  return u;
}

async function freshDatabase(): Promise<string> {
  const admin = new Client({ connectionString: adminUrl().toString() });
  await admin.connect();
  await admin.query(`drop database if exists "${DB_NAME}" with (force)`);
  await admin.query(`create database "${DB_NAME}"`);
  await admin.end();
  const u = adminUrl();
  u.pathname = `/${DB_NAME}`;
  return u.toString();
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number, stepMs = 500): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

const ms = (v: number) => `${v.toFixed(1)} ms`;
const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-bench-callbacks-'));
  const secret = randomBytes(24).toString('base64url');
  const anchor = new Date();
  const sim = await startSimulator({ port: 0, executions: EXECUTIONS, anchor });
  let child: ChildProcess | undefined;
  let db: Client | undefined;
  const cleanUp = async () => {
    await db?.end().catch(() => undefined);
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child!.once('exit', r));
    }
    await sim.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const databaseUrl = EMBEDDED ? undefined : await freshDatabase();
    log(
      `${EMBEDDED ? 'embedded database' : `Postgres database ${DB_NAME}`}; app ${path.relative(process.cwd(), APP_DIR) || '.'}; ` +
        `${RATE}/s for ${DURATION} s over ${CONNECTIONS} connections; building if needed and starting…`,
    );
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      IDV_BASE_URL: sim.url,
      IDV_CLIENT_ID: sim.clientId,
      IDV_CLIENT_SECRET: sim.clientSecret,
      IDV_CALLBACK_SECRET: secret,
      NEXTAUTH_SECRET: randomBytes(32).toString('base64url'),
      NEXT_TELEMETRY_DISABLED: '1',
      DATABASE_URL: databaseUrl ?? '',
    };
    if (!databaseUrl) delete env.DATABASE_URL;
    const started = Date.now();
    child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'scripts/start.ts'], {
      cwd: APP_DIR,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout!.on('data', (b: Buffer) => {
      for (const line of b.toString().split('\n'))
        if (/Start-up failed|exited with code|Error/.test(line)) console.log(`  ${line}`);
    });
    const base = `http://127.0.0.1:${PORT}`;
    await waitFor('the console', async () => ((await fetch(`${base}/api/health`)).ok ? true : undefined), 600_000);
    const url = databaseUrl ?? fs.readFileSync(path.join(dataDir, 'pglite.url'), 'utf8').trim();
    db = new Client({ connectionString: url });
    await db.connect();
    log(`console up after ${((Date.now() - started) / 1000).toFixed(1)} s; waiting for the start-up backfill…`);
    await waitFor(
      'the start-up backfill',
      async () =>
        (await db!.query(`select 1 from sync_runs where kind = 'backfill' and state = 'completed'`)).rowCount
          ? true
          : undefined,
      300_000,
    );

    const executions = Array.from({ length: EXECUTIONS }, (_, i) => {
      const e = generateExecution(sim.seed, i, { count: EXECUTIONS, days: 90, anchor });
      return { id: e.result.workflow.id as string, account: e.result.account.id as string };
    });
    const runTag = `bench:${randomBytes(4).toString('hex')}`;
    let seq = 0;
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    const acknowledged = new Set<string>();
    const loadBefore = os.loadavg()[0];
    log(`storm: ${RATE}/s for ${DURATION} s…`);
    const options: autocannon.Options = {
      url: `${base}/api/idv/callback?token=${encodeURIComponent(secret)}`,
      connections: CONNECTIONS,
      overallRate: RATE,
      duration: DURATION,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          // One request in flight per connection: its context names the callback the answer is for.
          setupRequest: (req, context) => {
            const e = executions[seq % executions.length];
            const n = seq++;
            (context as { ref?: string }).ref = `${runTag}:${n}`;
            return {
              ...req,
              body: JSON.stringify({
                callbackSentAt: new Date().toISOString(),
                userReference: (context as { ref?: string }).ref,
                workflowExecution: {
                  id: e.id,
                  href: `${sim.url}/api/v1/workflow-executions/${e.id}`,
                  definitionKey: '10013',
                  status: 'PROCESSED',
                },
                account: { id: e.account, href: `${sim.url}/api/v1/accounts/${e.account}` },
              }),
            };
          },
          onResponse: (status, _body, context) => {
            if (status === 200) acknowledged.add((context as { ref?: string }).ref!);
          },
        },
      ],
    };
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(options, (err, res) => (err ? reject(err) : resolve(res)));
      instance.on('response', (_client, statusCode, _bytes, responseTime) => {
        latencies.push(responseTime);
        statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      });
    });
    const stormEnded = Date.now();
    // Stored: every callback of this run in the database (acknowledged or still in flight when the storm ended).
    const refs = (
      await db.query<{ ref: string; n: string }>(
        `select body->>'userReference' as ref, count(*) as n from callbacks where body->>'userReference' like $1 group by 1`,
        [`${runTag}:%`],
      )
    ).rows;
    const storedRefs = new Set(refs.map((r) => r.ref));
    const storedTwice = refs.filter((r) => Number(r.n) > 1).length;
    const lost = [...acknowledged].filter((ref) => !storedRefs.has(ref)).length;
    const hasInbox = (
      await db.query(
        `select 1 from information_schema.columns where table_name = 'callbacks' and column_name = 'dispatched_at'`,
      )
    ).rowCount;
    let drainSec: number | null = null;
    if (hasInbox) {
      await waitFor(
        'the inbox to drain',
        async () =>
          Number((await db!.query(`select count(*) as n from callbacks where dispatched_at is null`)).rows[0].n) === 0
            ? true
            : undefined,
        300_000,
        100,
      );
      drainSec = (Date.now() - stormEnded) / 1000;
    }
    const sorted = latencies.slice().sort((a, b) => a - b);
    const rates = sim.stats().rates;
    const lines = [
      '',
      `  callbacks, ${EMBEDDED ? 'embedded database' : 'Postgres'}, ${RATE}/s offered for ${DURATION} s (${CONNECTIONS} connections)`,
      `  sent ${seq}, answered ${latencies.length} (${Object.entries(statuses)
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ')}), errors ${result.errors}, timeouts ${result.timeouts}`,
      `  achieved ${(latencies.length / DURATION).toFixed(1)}/s; latency p50 ${ms(pct(sorted, 50))}, p95 ${ms(pct(sorted, 95))}, p99 ${ms(pct(sorted, 99))}, max ${ms(sorted.at(-1) ?? NaN)}`,
      `  acknowledged ${acknowledged.size}, all of them stored but ${lost} (lost ${lost}); stored ${storedRefs.size} in all, ${storedTwice} of them twice`,
      `  machine load (1 min) ${loadBefore.toFixed(1)} before the storm, ${os.loadavg()[0].toFixed(1)} after, on ${os.cpus().length} cores`,
      drainSec === null
        ? '  inbox: none (this checkout handles each callback in its request)'
        : `  inbox empty ${drainSec.toFixed(1)} s after the storm`,
      `  simulator: retrieval ${rates.retrieval.requests} requests, peak ${rates.retrieval.peakPerSec}/s, 429s ${rates.retrieval.rejected}`,
      '',
    ];
    console.log(lines.join('\n'));
    process.exitCode = lost === 0 && storedTwice === 0 ? 0 : 1;
  } finally {
    await cleanUp();
  }
}

main().catch((err) => {
  console.error('[bench] failed:', err instanceof Error ? err.stack : err);
  process.exit(1);
});
