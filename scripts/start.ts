/**
 * `npm start` (and `npm run dev` with --dev): everything a new user needs, in one command.
 * Starts the embedded database when DATABASE_URL is not set, applies migrations, creates the
 * users, starts the built-in simulator when no real service is configured, builds the console
 * if needed and serves it, then prints how to sign in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensureUsers } from '@/lib/auth/seed';
import { startDemoCaseHistory } from '@/lib/cases/demo';
import { createDb } from '@/lib/db/client';
import { runMigrations } from '@/lib/db/migrate';
import { isRealServiceConfigured } from '@/lib/env';
import { auditSigningKey } from '@/lib/evidence/signing';
import { ensureBuild } from '@/lib/server/build-stamp';
import { loadConfigOrExit, lockDownDataDir, openDatabase, persistentSecret } from '@/lib/server/runtime';
import { lineLogger, logError, startProcessLog } from '@/lib/log';
import { startMetricsListener } from '@/lib/server/metrics-listener';
import { flushTracing, startTracing } from '@/lib/telemetry/tracing';
import { startServices, type Services } from './services';

const dev = process.argv.includes('--dev');
const log = lineLogger('start');

async function main() {
  // This process runs the workers (and the simulator, in demo mode): JSON lines, a trace, /metrics.
  startProcessLog('start');
  const env = loadConfigOrExit();
  await startTracing('verdict-worker');
  const demo = !isRealServiceConfigured(env);
  // Read by this process's workers too (the webhooks' outbound policy allows loopback in demo mode).
  process.env.VERDICT_DEMO = demo ? '1' : '';
  const dataDir = path.resolve(env.DATA_DIR);
  lockDownDataDir(dataDir);

  const secret = env.NEXTAUTH_SECRET ?? persistentSecret(dataDir, 'auth-secret');
  const callbackSecret = env.IDV_CALLBACK_SECRET ?? persistentSecret(dataDir, 'callback-secret', 24);
  // Encrypts webhook signing secrets in the database; the key stays out of it (lib/server/secret-box.ts).
  const webhookKey = env.WEBHOOK_SECRET_KEY ?? persistentSecret(dataDir, 'webhook-key');
  process.env.WEBHOOK_SECRET_KEY = webhookKey;
  // Keys the hashes of shared values in the ring tables (lib/rings/link-keys.ts); written before
  // any process that ingests starts, so the console, the worker and the sync CLI hash alike.
  const linkKey = process.env.LINK_KEY_SECRET || persistentSecret(dataDir, 'link-key');
  process.env.LINK_KEY_SECRET = linkKey;
  // The audit signing key (unless AUDIT_SIGNING_KEY is set) is made before any process that uses it
  // starts: the console signs exports with the same key the worker signs checkpoints with.
  auditSigningKey(dataDir);
  let demoPassword = env.DEMO_PASSWORD;
  if (!demoPassword && demo) {
    const file = path.join(dataDir, 'demo-password');
    demoPassword = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : randomBytes(9).toString('base64url');
    fs.writeFileSync(file, demoPassword, { mode: 0o600 });
  }

  const database = await openDatabase({ dataDir, port: env.PGLITE_PORT, own: true, log });
  const stops: Array<() => Promise<void>> = [];
  const running: { child?: ChildProcess } = {};
  let stopping = false;
  const shutdown = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    log('Stopping…');
    running.child?.kill('SIGTERM');
    for (const stop of stops.reverse()) await stop().catch((e) => logError('stop', e));
    await flushTracing().catch(() => undefined);
    await database.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  log('Applying database migrations…');
  await runMigrations(database.url);
  const db = createDb(database.url, 2);
  // Known-e-mail admins with a configured password exist in demo mode only.
  if (!demo && env.DEMO_PASSWORD)
    log('DEMO_PASSWORD is ignored: demo users exist only in demo mode (no service configured).');
  const seeded = await ensureUsers(db, {
    demoPassword: demo ? demoPassword : undefined,
    adminEmail: env.ADMIN_EMAIL,
    adminPassword: env.ADMIN_PASSWORD,
  });
  await db.$client.end();
  if (seeded.length === 0)
    log('No users configured: set ADMIN_EMAIL and ADMIN_PASSWORD (or DEMO_PASSWORD) to create the first admin.');

  const port = env.PORT;
  const host = env.HOST;
  const baseUrl = `http://${host === '127.0.0.1' || host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    NEXTAUTH_SECRET: secret,
    NEXTAUTH_URL: env.NEXTAUTH_URL ?? baseUrl,
    IDV_CALLBACK_SECRET: callbackSecret,
    WEBHOOK_SECRET_KEY: webhookKey,
    LINK_KEY_SECRET: linkKey,
    VERDICT_DEMO: demo ? '1' : '',
    NEXT_TELEMETRY_DISABLED: '1',
  };

  const services: Services = await startServices({
    env,
    demo,
    databaseUrl: database.url,
    callbackUrl: `http://127.0.0.1:${port}/api/idv/callback?token=${encodeURIComponent(callbackSecret)}`,
    log,
  });
  Object.assign(childEnv, services.env);
  stops.push(services.stop);
  if (env.WORKER) {
    const metricsListener = await startMetricsListener();
    if (metricsListener) stops.push(() => metricsListener.close());
  }
  if (demo) {
    // The queues page of a first demo start shows weeks of case work (lib/cases/demo.ts).
    const demoDb = createDb(database.url, 1);
    const stopDemo = startDemoCaseHistory(demoDb, log);
    stops.push(async () => {
      await stopDemo();
      await demoDb.$client.end();
    });
  }

  if (!dev) await ensureBuild(childEnv, log);
  log(dev ? 'Starting the console in development mode…' : 'Starting the console…');
  // Next runs behind our own server, which decides the client's address (scripts/console-server.ts).
  // `node --import tsx`, not the tsx command: the tsx wrapper kills a child that is too busy to
  // acknowledge a relayed SIGTERM within 30 ms, which would cut the console's drain short.
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/console-server.ts', ...(dev ? ['--dev'] : [])], {
    env: { ...childEnv, PORT: String(port), HOST: host, NODE_ENV: dev ? 'development' : 'production' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  running.child = child;
  child.on('exit', (code) => {
    if (!stopping) {
      console.error(`[verdict] The console process exited with code ${code}.`);
      void shutdown(code ?? 1);
    }
  });
  try {
    await waitForHttp(
      `http://${host === '0.0.0.0' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${port}/api/health`,
      child,
      // A production start takes seconds on a quiet machine but can take minutes on a saturated one;
      // the wait ends early when the console exits, and a console that never answers is stopped, not left behind.
      (dev ? 300 : 180) * 1000,
    );
  } catch (err) {
    console.error(`[verdict] ${err instanceof Error ? err.message : err}`);
    await shutdown(1);
    return;
  }
  services.onConsoleReady?.();

  const lines = [
    '',
    `  Verdict is running at ${baseUrl}`,
    `  Database: ${database.embedded ? `embedded PGlite in ${path.relative(process.cwd(), dataDir) || '.'}/pglite` : 'DATABASE_URL'}`,
    `  Service:  ${demo ? `built-in simulator at ${services.env.IDV_BASE_URL ?? '(starting)'}` : 'configured service'}`,
  ];
  if (demoPassword) {
    lines.push('', '  Sign in with one of these (password below):');
    for (const u of seeded.filter((s) => s.email.endsWith('@verdict.local')))
      lines.push(`    ${u.role.padEnd(8)} ${u.email}`);
    lines.push(
      `    password ${demoPassword}${env.DEMO_PASSWORD ? ' (from DEMO_PASSWORD)' : ` (generated; kept in ${path.relative(process.cwd(), dataDir)}/demo-password)`}`,
    );
  } else if (env.ADMIN_EMAIL) {
    lines.push('', `  Sign in as ${env.ADMIN_EMAIL} with ADMIN_PASSWORD.`);
  }
  lines.push('', '  Press Ctrl+C to stop.', '');
  // For the person at the terminal, not the log: straight to stdout (it holds the demo password).
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number) {
  const started = Date.now();
  let reported = started;
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('The console exited before it answered.');
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (r.status < 500) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() - reported >= 15_000) {
      reported = Date.now();
      log(`Still waiting for the console to answer (${Math.round((reported - started) / 1000)} s)…`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The console did not answer at ${url} within ${timeoutMs / 1000} s; stopping.`);
}

main().catch((err) => {
  console.error('[verdict] Start-up failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
