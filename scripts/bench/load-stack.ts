/**
 * The processes of `npm run bench:load`, each started as an operator would start it: the
 * simulator (`scripts/simulator.ts`, rate limits on), consoles (`scripts/console-server.ts`, as
 * `npm start` runs it, on the production build) and workers (`npm run worker`). Their output goes
 * to one log file per process; the faults (SIGKILL a worker, restart Postgres, the service
 * answering 503) are here too, with the CPU time each kind of process used (the profile).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface Proc {
  name: string;
  child: ChildProcess;
  /** Resolves when the process printed a line matching `re`; rejects when it exits first. */
  printed(re: RegExp, timeoutMs: number): Promise<void>;
  exited: Promise<number | null>;
}

/** Starts one process (`node <args>`) with its output in `<logDir>/<name>.log`: every benchmark's way to start one. */
export function launch(name: string, args: string[], env: NodeJS.ProcessEnv, logDir: string): Proc {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const file = fs.createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
  let out = '';
  const onData = (b: Buffer) => {
    file.write(b);
    out = (out + b.toString()).slice(-20_000);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const printed = (re: RegExp, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (re.test(out)) done(resolve);
      }, 100);
      const limit = setTimeout(
        () => done(() => reject(new Error(`${name} did not print ${re}:\n${out.slice(-2000)}`))),
        timeoutMs,
      );
      const done = (f: () => void) => {
        clearInterval(timer);
        clearTimeout(limit);
        f();
      };
      void exited.then((code) => done(() => reject(new Error(`${name} exited (${code}):\n${out.slice(-2000)}`))));
    });
  return { name, child, printed, exited };
}

export interface StackOptions {
  databaseUrl: string;
  rows: number;
  anchor: Date;
  seed: string;
  days: number;
  consolePorts: number[];
  simPort: number;
  logDir: string;
  /** Consoles write V8 CPU profiles here at exit (`--cpu-prof`). */
  profileDir?: string;
}

export class LoadStack {
  readonly clientId = `load-bench-${randomBytes(3).toString('hex')}`;
  readonly clientSecret = randomBytes(18).toString('base64url');
  readonly callbackSecret = randomBytes(24).toString('base64url');
  readonly simUrl: string;
  readonly consoles: string[];
  private readonly procs = new Set<Proc>();
  private readonly common: NodeJS.ProcessEnv;
  worker: Proc | undefined;
  workersStarted = 0;
  /** Start-ups that failed and were tried again. */
  readonly restarts: string[] = [];

  constructor(private readonly o: StackOptions) {
    this.simUrl = `http://127.0.0.1:${o.simPort}`;
    this.consoles = o.consolePorts.map((p) => `http://127.0.0.1:${p}`);
    const base = { ...process.env };
    delete base.NODE_OPTIONS;
    this.common = {
      ...base,
      DATABASE_URL: o.databaseUrl,
      IDV_BASE_URL: this.simUrl,
      IDV_CLIENT_ID: this.clientId,
      IDV_CLIENT_SECRET: this.clientSecret,
      IDV_USER_AGENT: 'Verdict load bench/1.0',
      IDV_CALLBACK_SECRET: this.callbackSecret,
      NEXTAUTH_SECRET: randomBytes(32).toString('base64url'),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64url'),
      DATA_DIR: fs.mkdtempSync(path.join(o.logDir, 'data-')),
      NEXT_TELEMETRY_DISABLED: '1',
      NODE_ENV: 'production',
    };
  }

  private start(name: string, args: string[], env: Record<string, string> = {}): Proc {
    const p = launch(name, args, { ...this.common, ...env }, this.o.logDir);
    this.procs.add(p);
    void p.exited.then(() => this.procs.delete(p));
    return p;
  }

  /** The service: the same seed, size, spread and end as the seeded cache, its rate limits on. */
  async startSimulator() {
    const sim = this.start('simulator', [
      '--import',
      'tsx',
      'scripts/simulator.ts',
      ...['--port', String(this.o.simPort), '--seed', this.o.seed, '--executions', String(this.o.rows)],
      ...['--days', String(this.o.days), '--anchor', this.o.anchor.toISOString()],
      ...['--client-id', this.clientId, '--client-secret', this.clientSecret, '--quiet'],
    ]);
    await sim.printed(/simulator listening/, 60_000);
  }

  /** The consoles running now, to restart them with another configuration (the baseline). */
  private consoleProcs: Proc[] = [];

  async startConsoles(env: Record<string, string> = {}) {
    this.consoleProcs = [];
    await Promise.all(
      this.o.consolePorts.map(async (port, i) => {
        const url = `http://127.0.0.1:${port}`;
        // `node --import tsx`, as scripts/start.ts runs it (the tsx wrapper would cut a drain short).
        const prof = this.o.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${this.o.profileDir}`] : [];
        const p = this.start(`console-${i + 1}`, [...prof, '--import', 'tsx', 'scripts/console-server.ts'], {
          PORT: String(port),
          HOST: '127.0.0.1',
          NEXTAUTH_URL: url,
          ...env,
        });
        this.consoleProcs.push(p);
        await waitUntil(`console ${i + 1}`, 180_000, async () => (await fetch(`${url}/api/health`)).ok, p);
      }),
    );
  }

  /** Stops the consoles (SIGTERM: each drains its requests) and starts them again with `env` added. */
  async restartConsoles(env: Record<string, string>) {
    await Promise.all(
      this.consoleProcs.map(async (p) => {
        p.child.kill('SIGTERM');
        await p.exited;
      }),
    );
    await this.startConsoles(env);
  }

  /** As a supervisor would (systemd's Restart=on-failure): a worker that fails to start is started again. */
  async startWorker(attempts = 5) {
    for (let attempt = 1; ; attempt++) {
      this.workersStarted++;
      const w = this.start(`worker-${this.workersStarted}`, [
        '--conditions=react-server',
        '--import',
        'tsx',
        'scripts/worker.ts',
      ]);
      try {
        await w.printed(/Sync worker running/, 120_000);
        this.worker = w;
        return;
      } catch (err) {
        if (attempt >= attempts) throw err;
        this.restarts.push(`worker-${this.workersStarted} failed to start (${String(err).split('\n')[1] ?? err})`);
        w.child.kill('SIGKILL');
        await new Promise((r) => setTimeout(r, 2_000));
      }
    }
  }

  /** As a crash: SIGKILL, no chance to release anything; then a new worker takes over. */
  async killWorker(): Promise<number> {
    const w = this.worker!;
    const t0 = Date.now();
    w.child.kill('SIGKILL');
    await w.exited;
    await this.startWorker();
    return Date.now() - t0;
  }

  /** The local cluster serving the database restarted under load (every connection of every process is cut). */
  restartPostgres(): number {
    const t0 = Date.now();
    const cluster = postgresCluster(Number(new URL(this.o.databaseUrl).port || 5432));
    execFileSync('pg_ctlcluster', [cluster.version, cluster.name, 'restart'], { stdio: 'ignore' });
    return Date.now() - t0;
  }

  /** Every operation of the service answers 503 for `seconds` (its fault knob `errorRate`). */
  async serviceDown(seconds: number): Promise<void> {
    await this.faults({ errorRate: 1 });
    await new Promise((r) => setTimeout(r, seconds * 1000));
    await this.faults({ errorRate: 0 });
  }

  private async faults(knobs: Record<string, unknown>) {
    const r = await fetch(`${this.simUrl}/__sim/faults`, {
      method: 'PUT',
      headers: { authorization: this.basic(), 'content-type': 'application/json' },
      body: JSON.stringify(knobs),
    });
    if (!r.ok) throw new Error(`PUT /__sim/faults: ${r.status}`);
  }

  basic() {
    return `Basic ${Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64')}`;
  }

  async simStats(): Promise<SimStats> {
    const r = await fetch(`${this.simUrl}/__sim/stats`, { headers: { authorization: this.basic() } });
    return (await r.json()) as SimStats;
  }

  /** `npm run sync -- reconcile` with the worker's configuration; resolves with its exit code. */
  async reconcile(): Promise<number | null> {
    const p = this.start('reconcile', ['--conditions=react-server', '--import', 'tsx', 'scripts/sync.ts', 'reconcile']);
    return p.exited;
  }

  pids(): Record<string, number[]> {
    const out: Record<string, number[]> = {};
    for (const p of this.procs) {
      const kind = p.name.replace(/-\d+$/, '');
      (out[kind] ??= []).push(p.child.pid!);
    }
    return out;
  }

  async stop() {
    await Promise.all(
      [...this.procs].map(async (p) => {
        p.child.kill('SIGTERM');
        const t = setTimeout(() => p.child.kill('SIGKILL'), 20_000);
        await p.exited;
        clearTimeout(t);
      }),
    );
  }
}

export interface SimStats {
  requests: number;
  byStatus: Record<string, number>;
  rates: Record<
    string,
    { requests: number; rejected: number; peakPerSec: number; limit: { perSec: number; burst: number } | null }
  >;
  feedback: { writes: number; executions: number; repeated: number };
}

async function waitUntil(what: string, timeoutMs: number, ok: () => Promise<boolean>, proc?: Proc) {
  const until = Date.now() + timeoutMs;
  let exited = false;
  void proc?.exited.then(() => (exited = true));
  for (;;) {
    if (await ok().catch(() => false)) return;
    if (exited) throw new Error(`${what} exited before it was ready`);
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The cluster (pg_lsclusters: version, name, port, …) listening on `port`. */
function postgresCluster(port: number): { version: string; name: string } {
  const lines = execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' }).trim().split('\n');
  const found = lines.map((l) => l.split(/\s+/)).find((f) => Number(f[2]) === port);
  if (!found) throw new Error(`no local Postgres cluster on port ${port} (pg_lsclusters)`);
  return { version: found[0], name: found[1] };
}

/** CPU seconds used so far by each process (by kind and pid), the Postgres server's processes included. */
export function cpuSeconds(pids: Record<string, number[]>): Map<string, number> {
  const tick = 100; // USER_HZ on Linux
  const of = (pid: number) => {
    try {
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const parts = f.slice(f.lastIndexOf(')') + 2).split(' ');
      return (Number(parts[11]) + Number(parts[12])) / tick;
    } catch {
      return 0;
    }
  };
  const out = new Map<string, number>();
  const pg = execFileSync('pgrep', ['-x', 'postgres'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  for (const [kind, list] of Object.entries({ ...pids, postgres: pg.map(Number) }))
    for (const pid of list) out.set(`${kind}:${pid}`, of(pid));
  const self = process.cpuUsage();
  out.set(`bench (load generator):${process.pid}`, (self.user + self.system) / 1e6);
  return out;
}

/** CPU seconds per kind of process between two readings (a process gone by the second is not counted). */
export function cpuUsedBetween(before: Map<string, number>, after: Map<string, number>): Array<[string, number]> {
  const byKind = new Map<string, number>();
  for (const [key, v] of after) {
    const kind = key.slice(0, key.lastIndexOf(':'));
    byKind.set(kind, (byKind.get(kind) ?? 0) + Math.max(0, v - (before.get(key) ?? 0)));
  }
  return [...byKind.entries()].sort((a, b) => b[1] - a[1]);
}
