/**
 * The database of `npm run bench:load`: a clone of an already seeded database (`--reuse`, cloned
 * with TEMPLATE so the source is never touched) or a fresh one seeded by ./seed.ts, then what the
 * run needs on top: the sync marked done (the cache was written from the same generator the
 * simulator serves), analysts who sign in with a password, open cases to claim, and the
 * executions the callback storm and the feedback draw from.
 */
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { hashPassword } from '@/lib/auth/password';
import { matchQueues } from '@/lib/cases/match';
import { createDb } from '@/lib/db/client';
import { runMigrations } from '@/lib/db/migrate';
import { generateExecution } from '@/lib/simulator/generator';
import { seed } from './seed';

/** The seeding's generator settings (./seed.ts): the simulator must serve the same data. */
export const SEED = 'verdict-bench';
export const SEED_DAYS = 365;

export interface LoadDatabase {
  url: string;
  name: string;
  rows: number;
  /** The time the seeded data ends at; the simulator is started with it. */
  anchor: Date;
  analysts: Array<{ email: string; password: string }>;
  stormExecutions: Array<{ id: string; account: string }>;
  feedbackPool: string[];
  drop(): Promise<void>;
}

export function serverUrl(): URL {
  const u = new URL(
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(u.hostname))
    throw new Error(`The benchmark only runs against a local server, not ${u.hostname}`);
  return u;
}

async function adminQuery(q: string) {
  const c = new Client({ connectionString: serverUrl().toString() });
  await c.connect();
  try {
    return await c.query(q);
  } finally {
    await c.end();
  }
}

/** CREATE DATABASE … TEMPLATE fails while anyone is connected to the source: wait for a quiet moment. */
async function cloneDatabase(source: string, name: string, log: (s: string) => void) {
  const until = Date.now() + 15 * 60_000;
  for (let tries = 0; ; tries++) {
    try {
      await adminQuery(`create database "${name}" template "${source}"`);
      return;
    } catch (err) {
      if (!/being accessed by other users/.test(String(err)) || Date.now() > until) throw err;
      if (tries % 10 === 0) log(`  ${source} is in use; retrying the clone…`);
      await new Promise((r) => setTimeout(r, 2_000));
    }
  }
}

/** The seeding anchored its data at the top of an hour: find which one, from the newest row (index 0). */
function findAnchor(rows: number, newest: { id: string; created_at: Date }): Date {
  const near = Math.floor(newest.created_at.getTime() / 3_600_000) * 3_600_000;
  for (let h = -2; h <= 3; h++) {
    const anchor = new Date(near + h * 3_600_000);
    const g = generateExecution(SEED, 0, { count: rows, days: SEED_DAYS, anchor });
    if (
      String(g.result.workflow.id).toLowerCase() === newest.id &&
      new Date(String(g.result.createdAt)).getTime() === newest.created_at.getTime()
    )
      return anchor;
  }
  throw new Error('The database was not seeded by scripts/bench/seed.ts (its newest execution matches no anchor).');
}

export async function prepareLoadDatabase(opts: {
  reuse?: string;
  rows: number;
  keep: boolean;
  analysts: number;
  stormExecutions: number;
  feedbackPool: number;
  openCases: number;
  log: (s: string) => void;
}): Promise<LoadDatabase> {
  const { log } = opts;
  const name = `verdict_load_${Date.now().toString(36)}`;
  if (opts.reuse) {
    log(`Cloning ${opts.reuse} into ${name}…`);
    await cloneDatabase(opts.reuse, name, log);
  } else await adminQuery(`create database "${name}"`);
  const u = serverUrl();
  u.pathname = `/${name}`;
  const url = u.toString();
  const drop = async () => {
    if (opts.keep) return log(`Kept ${name}.`);
    await adminQuery(`drop database if exists "${name}" with (force)`);
    log(`Dropped ${name}.`);
  };
  try {
    await runMigrations(url);
    if (!opts.reuse) {
      log(`Seeding ${opts.rows.toLocaleString('en-US')} executions…`);
      await seed(url, opts.rows);
    }
    const d = createDb(url, 2);
    try {
      const one = async <T>(q: ReturnType<typeof sql>) =>
        (await d.execute<T & Record<string, unknown>>(q)).rows[0] as T;
      const rows = (await one<{ n: number }>(sql`select count(*)::int as n from executions`)).n;
      const newest = await one<{ id: string; created_at: string }>(
        sql`select id, created_at from executions order by created_at desc limit 1`,
      );
      const anchor = findAnchor(rows, { id: newest.id, created_at: new Date(newest.created_at) });

      // The cache holds what the service holds as of the seeding: the start-up sync only walks
      // the newest page (as a worker joining a synced installation does), not a million rows.
      await d.execute(sql`
        insert into sync_runs (kind, state, started_by, finished_at, head_created_at, seen, written)
        select 'backfill', 'completed', 'bench:load seeding', now(), max(created_at), count(*), count(*) from executions`);

      const password = 'load-bench-password-1';
      const hash = await hashPassword(password);
      const analysts = Array.from({ length: opts.analysts }, (_, i) => ({
        email: `load-analyst-${String(i + 1).padStart(2, '0')}@bench.local`,
        password,
      }));
      for (const a of analysts)
        await d.execute(
          sql`insert into users (email, name, role, password_hash) values (${a.email}, ${a.email.split('@')[0]}, 'analyst', ${hash})
              on conflict do nothing`,
        );

      // The storm and the feedback never name the same execution, so each count stands alone.
      const storm = (
        await d.execute<{ id: string; account_id: string }>(
          sql`select id, account_id from executions where status = 'PROCESSED' order by id limit ${opts.stormExecutions}`,
        )
      ).rows.map((r) => ({ id: r.id, account: r.account_id }));
      const pool = (
        await d.execute<{ id: string }>(sql`
          select e.id from executions e
          where e.status = 'PROCESSED' and e.wiped_out_at is null and e.feedback_status is null
            and not exists (select 1 from feedback_submissions f where f.execution_id = e.id)
          order by e.id desc limit ${opts.feedbackPool}`)
      ).rows.map((r) => r.id);

      // "Next case" needs open cases: the newest executions each queue matches, as matching places them.
      let opened = 0;
      for (const q of await matchQueues(d)) {
        const r = await d.execute(sql`
          insert into cases (execution_id, queue_id, state, arrived_at, due_at)
          select executions.id, ${q.id}::uuid, 'open', now(), now() + interval '1 day'
          from executions
          where ${q.where ?? sql`true`}
            and not exists (select 1 from cases c where c.execution_id = executions.id)
          order by executions.created_at desc limit ${Math.ceil(opts.openCases / 4)}
          on conflict do nothing`);
        opened += r.rowCount ?? 0;
        if (opened >= opts.openCases) break;
      }
      log(
        `Database ${name}: ${rows.toLocaleString('en-US')} executions (data ending ${anchor.toISOString()}), ${opened} open cases, ${analysts.length} analysts.`,
      );
      return { url, name, rows, anchor, analysts, stormExecutions: storm, feedbackPool: pool, drop };
    } finally {
      await d.$client.end();
    }
  } catch (err) {
    await drop().catch(() => undefined);
    throw err;
  }
}
