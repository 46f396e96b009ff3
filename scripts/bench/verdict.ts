/**
 * What every benchmark reports the same way: percentiles, the ratio against its baseline, and its
 * own correctness checks with the exit code they decide (docs/benchmarks.md: a benchmark that
 * measures wrong results must not exit 0, or a figure can hide a bug).
 *
 * `--break=<what>` (or `--break <what>`) induces one named failure so that a reader can see the
 * check fire: each benchmark declares the failures it knows, and an unknown name is refused.
 *
 * And where every benchmark keeps its data: a database of its own, named apart per person, on a
 * local server only, created and dropped the same way.
 */

import fs from 'node:fs';
import { Client } from 'pg';

/** The p-th percentile (nearest rank) of samples in any order; NaN when there are none. */
export function pct(samples: number[], p: number): number {
  if (!samples.length) return NaN;
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export interface Spread {
  p50: number;
  p95: number;
}

export const spread = (samples: number[]): Spread => ({ p50: pct(samples, 50), p95: pct(samples, 95) });

/** Times `fn` `n` times after `warm` untimed runs. */
export async function timeIt(fn: () => Promise<unknown>, n: number, warm = 3): Promise<Spread> {
  for (let i = 0; i < warm; i++) await fn();
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await fn();
    t.push(performance.now() - s);
  }
  return spread(t);
}

/**
 * The machine's CPU time so far in ms (/proc/stat, every core): `busy` what its processes ran
 * (user, nice, system, irq, softirq), `steal` what the host gave other guests while ours waited.
 * Where the host steals, wall times swing twice over from run to run; the busy time a piece of
 * work costs does not, so a benchmark can show it beside its latencies. Zeros off Linux.
 */
export function machineCpu(): { busy: number; steal: number } {
  let f: number[];
  try {
    f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  } catch {
    return { busy: 0, steal: 0 };
  }
  const tick = 10; // USER_HZ is 100 on Linux: one tick is 10 ms.
  return { busy: (f[0] + f[1] + f[2] + f[5] + f[6]) * tick, steal: (f[7] ?? 0) * tick };
}

export const ms = (n: number) => `${n.toFixed(2)} ms`;

/**
 * The one ratio line: how many times lower our p50 / p95 are than the baseline's (latencies), and
 * how many times its throughput ours reaches when both are given. Both sides must have done the
 * same operations; the caller says how many in `what`.
 */
export function ratioLine(
  what: string,
  ours: Spread & { perSec?: number },
  baseline: Spread & { perSec?: number },
): string {
  const parts = [
    `p50 ${(baseline.p50 / ours.p50).toFixed(1)}x lower`,
    `p95 ${(baseline.p95 / ours.p95).toFixed(1)}x lower`,
  ];
  if (ours.perSec !== undefined && baseline.perSec !== undefined)
    parts.push(`${(ours.perSec / baseline.perSec).toFixed(2)}x the throughput`);
  return `ratio, ${what}: ${parts.join(', ')}`;
}

/** The benchmark's correctness checks: each printed as it is made, the exit code set by any failure. */
export class Checks {
  private failed: string[] = [];
  private made = 0;

  constructor(private readonly prefix = '') {}

  /** Records one check; returns whether it held. */
  check(name: string, ok: boolean, detail = ''): boolean {
    this.made++;
    if (!ok) this.failed.push(name);
    console.log(`${this.prefix}check ${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
    return ok;
  }

  get ok() {
    return this.failed.length === 0;
  }

  /** Prints the verdict and sets the exit code: 1 when any check failed or none was made. */
  finish(): number {
    if (this.made === 0) this.failed.push('no check was made');
    console.log(
      this.ok
        ? `${this.prefix}all ${this.made} checks held`
        : `${this.prefix}FAILED ${this.failed.length} of ${this.made} checks: ${this.failed.join('; ')}`,
    );
    process.exitCode = this.ok ? 0 : 1;
    return process.exitCode;
  }
}

/**
 * The failure `--break` asks for, one of `known`, or null. An unknown name stops the run: a typo
 * must not pass for a check that held.
 */
export function breakOption<T extends string>(known: readonly T[], argv = process.argv.slice(2)): T | null {
  const eq = argv.find((a) => a.startsWith('--break='));
  const i = argv.indexOf('--break');
  const value = eq ? eq.slice('--break='.length) : i >= 0 ? argv[i + 1] : undefined;
  if (value === undefined) return null;
  if (!(known as readonly string[]).includes(value))
    throw new Error(`--break=${value}: this benchmark can break ${known.map((k) => `'${k}'`).join(', ')}`);
  console.log(`--break=${value}: inducing this failure on purpose; the checks must fail and the exit code be 1`);
  return value as T;
}

/**
 * A benchmark database's name: `<prefix><name>`, the prefix from BENCH_DB_PREFIX (default
 * `verdict_bench_`), so that people sharing one server keep apart.
 */
export function benchDatabaseName(name: string): string {
  const prefix = process.env.BENCH_DB_PREFIX ?? 'verdict_bench_';
  const full = `${prefix}${name}`;
  if (!/^[a-z0-9_]+$/.test(full)) throw new Error(`Not a database name: ${full}`);
  return full;
}

/** The local server the benchmarks use: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the default one. */
export function benchServerUrl(): URL {
  const u = new URL(
    process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(u.hostname))
    throw new Error(`The benchmark only runs against a local server, not ${u.hostname}`);
  return u;
}

/**
 * Runs `fn` on a connection of its own to the benchmarks' server (its default database): creating,
 * copying and dropping a benchmark's database cannot happen on a connection to that database.
 */
async function withBenchServer<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: benchServerUrl().toString() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * The benchmark database `name` on the benchmarks' server: its URL, whether it is there, creating
 * it (empty, or as a copy of `template`) and dropping it (closing whatever connections it still has).
 */
export function benchDatabase(name: string) {
  const url = benchServerUrl();
  url.pathname = `/${name}`;
  return {
    url,
    exists: async () =>
      (await withBenchServer((c) => c.query('select 1 from pg_database where datname = $1', [name]))).rowCount === 1,
    create: async (template?: string) => {
      await withBenchServer((c) => c.query(`create database "${name}"${template ? ` template "${template}"` : ''}`));
    },
    drop: async () => {
      await withBenchServer((c) => c.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

/**
 * Cases claimed while someone held them: a claim event whose case's previous hold or return is a
 * hold. Claims are counted against holds, not per case: a claim left for CASE_CLAIM_MINUTES goes
 * back to its queue (lib/cases/claim.ts `releaseExpiredClaims`) and may rightly be claimed again.
 * A count of claim events per case took that for a double claim when the growth run's claims at
 * 10,000,000 came 45 minutes after those at 1,000,000 (500 released and claimed again).
 */
export const CLAIMED_WHILE_HELD_SQL = `select count(*)::int as n from (
  select type, lag(type) over (partition by case_id order by at, id) as prev from case_events
  where type in ('claimed', 'assigned', 'released', 'unassigned', 'requeued', 'reopened', 'escalated', 'resolved')
) t where type = 'claimed' and prev in ('claimed', 'assigned')`;
