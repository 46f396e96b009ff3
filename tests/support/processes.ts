import { spawn, type ChildProcess } from 'node:child_process';
import { until } from './wait';

export interface ChildRun {
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when a line matching `re` has been printed. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code (signal exits as -1). */
  exited: Promise<number>;
  /** SIGKILL if still running (cleanup). */
  kill(): void;
}

/**
 * Starts one of the repository's scripts as a real child process, as the npm scripts run them
 * (`node --conditions=react-server --import tsx`), with `env` on top of this process's environment.
 */
export function startScript(
  script: string,
  env: Record<string, string>,
  args: string[] = [],
  opts: { reactServer?: boolean } = {},
): ChildRun {
  // The console server runs without the react-server condition (Next sets up its own graphs).
  const conditions = (opts.reactServer ?? true) ? ['--conditions=react-server'] : [];
  const child = spawn(process.execPath, [...conditions, '--import', 'tsx', script, ...args], {
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (b: Buffer) => {
    out += b.toString();
    for (const l of listeners) l();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  return {
    child,
    output: () => out,
    exited,
    waitFor(re, timeoutMs = 60_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (re.test(out)) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`${script} did not print ${re} within ${timeoutMs} ms; output:\n${out.slice(-3000)}`));
        }, timeoutMs);
        void exited.then((code) => {
          if (!re.test(out)) {
            listeners.delete(check);
            clearTimeout(timer);
            reject(new Error(`${script} exited (${code}) before printing ${re}; output:\n${out.slice(-3000)}`));
          }
        });
        listeners.add(check);
        check();
      });
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * `npm start` (scripts/start.ts) with `env`, resolved once it says the console is running; a
 * start-up that does not get there is killed, so no half-started console outlives the test.
 */
export async function startConsole(env: Record<string, string>, timeoutMs = 240_000): Promise<ChildRun> {
  const run = startScript('scripts/start.ts', env);
  try {
    await run.waitFor(/Verdict is running at/, timeoutMs);
  } catch (err) {
    run.kill();
    throw err;
  }
  return run;
}

/** Shuts the process down as a service manager would: SIGTERM, up to `graceMs` to exit, then SIGKILL. */
export async function stopGracefully(run: ChildRun, graceMs = 20_000): Promise<void> {
  run.child.kill('SIGTERM');
  await Promise.race([run.exited, new Promise((r) => setTimeout(r, graceMs))]);
  run.kill();
}

/** Waits until a console started here answers its readiness check (a dev console compiles first: minutes). */
export function consoleReady(base: string, timeoutMs = 180_000): Promise<number> {
  return until(
    () =>
      fetch(`${base}/api/health`).then(
        (r) => r.status,
        () => 0,
      ),
    (s) => s === 200,
    timeoutMs,
    'the console to be ready',
    250,
  );
}
