/**
 * One callback storm of `npm run bench:callbacks` (scripts/bench-callbacks.ts): a production
 * build served as `npm start` serves it (scripts/start.ts: migrations, the worker in the parent,
 * the console server with Next behind it), the simulator (its rate limits on) as the service, a
 * fresh database (Postgres or the embedded one), and autocannon posting callbacks at a fixed rate.
 *
 * `viaNext` starts the console with CALLBACK_VIA_NEXT=1: the callback goes through Next's route
 * instead of the console server's own door (lib/sync/callback-endpoint.ts), the baseline.
 *
 * Each callback carries a unique `userReference`, so the database tells how many acknowledged
 * callbacks were stored (lost must be 0) and whether any was stored twice.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { generateExecution, startSimulator } from '@/lib/simulator';
import { callbackRequest, type CallbackStorm } from './callback-request';
import { benchDatabaseName, pct as percentile } from './verdict';

export interface StormOptions {
  embedded: boolean;
  viaNext: boolean;
  rate: number;
  duration: number;
  connections: number;
  port: number;
  executions: number;
  appDir: string;
  /** A local Postgres server's URL (any database); the storm's own database is created beside it. */
  adminUrl: string;
  /** `--break=lose`: one stored callback of the storm is deleted before counting, so a loss is seen. */
  loseOne?: boolean;
}

export interface StormResult {
  sent: number;
  answered: number;
  /** Answers with a 2xx status: the only ones that count as throughput. */
  succeeded: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Successful answers per second of the storm. */
  achieved: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  acknowledged: number;
  lost: number;
  stored: number;
  storedTwice: number;
  drainSec: number | null;
  loadBefore: number;
  loadAfter: number;
  retrieval: { requests: number; peakPerSec: number; rejected: number };
}

const DB_NAME = benchDatabaseName('callbacks');
const log = (s: string) => console.log(`[bench] ${s}`);

async function freshDatabase(adminUrl: string): Promise<string> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists "${DB_NAME}" with (force)`);
  await admin.query(`create database "${DB_NAME}"`);
  await admin.end();
  const u = new URL(adminUrl);
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

export async function runStorm(o: StormOptions): Promise<StormResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-bench-callbacks-'));
  const secret = randomBytes(24).toString('base64url');
  const anchor = new Date();
  const sim = await startSimulator({ port: 0, executions: o.executions, anchor });
  let child: ChildProcess | undefined;
  let db: Client | undefined;
  try {
    const databaseUrl = o.embedded ? undefined : await freshDatabase(o.adminUrl);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(o.port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      IDV_BASE_URL: sim.url,
      IDV_CLIENT_ID: sim.clientId,
      IDV_CLIENT_SECRET: sim.clientSecret,
      IDV_CALLBACK_SECRET: secret,
      NEXTAUTH_SECRET: randomBytes(32).toString('base64url'),
      NEXT_TELEMETRY_DISABLED: '1',
      CALLBACK_VIA_NEXT: o.viaNext ? '1' : '',
      DATABASE_URL: databaseUrl ?? '',
    };
    if (!databaseUrl) delete env.DATABASE_URL;
    const started = Date.now();
    child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'scripts/start.ts'], {
      cwd: o.appDir,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout!.on('data', (b: Buffer) => {
      for (const line of b.toString().split('\n'))
        if (/Start-up failed|exited with code|Error/.test(line)) console.log(`  ${line}`);
    });
    const base = `http://127.0.0.1:${o.port}`;
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

    const executions = Array.from({ length: o.executions }, (_, i) => {
      const e = generateExecution(sim.seed, i, { count: o.executions, days: 90, anchor });
      return { id: e.result.workflow.id as string, account: e.result.account.id as string };
    });
    const runTag = `bench:${randomBytes(4).toString('hex')}`;
    const storm: CallbackStorm = { sent: 0, acknowledged: new Set() };
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    const loadBefore = os.loadavg()[0];
    log(`storm: ${o.rate}/s for ${o.duration} s…`);
    const options: autocannon.Options = {
      url: `${base}/api/idv/callback?token=${encodeURIComponent(secret)}`,
      connections: o.connections,
      overallRate: o.rate,
      duration: o.duration,
      requests: [callbackRequest({ simUrl: sim.url, runTag, executions, storm })],
    };
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(options, (err, res) => (err ? reject(err) : resolve(res)));
      instance.on('response', (_client, statusCode, _bytes, responseTime) => {
        latencies.push(responseTime);
        statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      });
    });
    const stormEnded = Date.now();
    const loadAfter = os.loadavg()[0];
    if (o.loseOne)
      await db.query(
        `delete from callbacks where id = (select id from callbacks where body->>'userReference' like $1 limit 1)`,
        [`${runTag}:%`],
      );
    // Stored: every callback of this run in the database (acknowledged or still in flight when the storm ended).
    const refs = (
      await db.query<{ ref: string; n: string }>(
        `select body->>'userReference' as ref, count(*) as n from callbacks where body->>'userReference' like $1 group by 1`,
        [`${runTag}:%`],
      )
    ).rows;
    const storedRefs = new Set(refs.map((r) => r.ref));
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
    const succeeded = Object.entries(statuses)
      .filter(([code]) => Number(code) >= 200 && Number(code) < 300)
      .reduce((n, [, k]) => n + k, 0);
    const r = sim.stats().rates.retrieval;
    return {
      sent: storm.sent,
      answered: latencies.length,
      succeeded,
      statuses,
      errors: result.errors,
      timeouts: result.timeouts,
      achieved: succeeded / o.duration,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? NaN,
      acknowledged: storm.acknowledged.size,
      lost: [...storm.acknowledged].filter((ref) => !storedRefs.has(ref)).length,
      stored: storedRefs.size,
      storedTwice: refs.filter((x) => Number(x.n) > 1).length,
      drainSec,
      loadBefore,
      loadAfter,
      retrieval: { requests: r.requests, peakPerSec: r.peakPerSec, rejected: r.rejected },
    };
  } finally {
    await db?.end().catch(() => undefined);
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child!.once('exit', r));
    }
    await sim.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
