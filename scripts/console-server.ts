/**
 * The console's HTTP server: Next's request handler behind one step of our own. Every request's
 * address claims are replaced by the socket address (or the trusted proxy hop) before Next sees
 * it (`lib/edge/client-address.ts`). The service's callbacks are answered here, by the same
 * receiver as the route, without Next's per-request machinery (lib/sync/callback-endpoint.ts). A
 * request that met a database outage answers 503 instead of 500 (lib/db/outage-status.ts).
 * Started by `npm start` / `npm run dev` (scripts/start.ts); it listens on HOST (default
 * 127.0.0.1, so a fresh install is not reachable from the network).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import next from 'next';
import { applyClientAddress, trustedProxyHops } from '@/lib/edge/client-address';
import { log, startProcessLog } from '@/lib/log';
import { serveWithOutageStatus } from '@/lib/db/outage-status';
import { markDraining, runShutdown } from '@/lib/db/shutdown';
import { callbackDeps, isCallbackRequest, serveCallback } from '@/lib/sync/callback-endpoint';
import { runInRequest, type RequestContext } from '@/lib/telemetry/context';
import { metrics, secondsSince } from '@/lib/telemetry/metrics';
import { routeTemplate } from '@/lib/auth/route-labels';
import {
  activeTraceIds,
  currentSpanAttributes,
  flushTracing,
  SpanKind,
  startTracing,
  withSpan,
} from '@/lib/telemetry/tracing';

/** How long a stopping console lets requests in flight finish before it cuts them. */
const DRAIN_MS = Number(process.env.SHUTDOWN_GRACE_MS ?? 10_000);

/**
 * Every request runs in its context (request id, route template; the guards add the user) and
 * its span, and ends with one log line and one histogram observation. The request id is ours,
 * never the caller's: a forged `X-Request-Id` cannot tie two requests together in the log.
 */
function observed(req: http.IncomingMessage, res: http.ServerResponse, serve: () => void) {
  const t0 = performance.now();
  const method = req.method ?? 'GET';
  const ctx: RequestContext = { requestId: randomUUID(), route: routeTemplate(req.url ?? '/'), method };
  res.setHeader('X-Request-Id', ctx.requestId);
  runInRequest(ctx, () =>
    withSpan(
      `${method} ${ctx.route}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'http.route': ctx.route } },
      () =>
        new Promise<void>((resolve) => {
          // 'close' is emitted in the socket's context, not the request's: what it records is taken here.
          const ids = activeTraceIds();
          const setSpanAttributes = currentSpanAttributes();
          res.once('close', () => {
            const seconds = secondsSince(t0);
            const status = res.statusCode;
            setSpanAttributes({ 'http.response.status_code': status });
            metrics().httpRequestDuration.observe(
              { route: ctx.route, method, status: `${Math.floor(status / 100)}xx` },
              seconds,
            );
            // Assets are counted, not logged: a page load fetches dozens of them.
            if (ctx.route !== '/_next')
              log.info({ ...ctx, ...ids, status, durationMs: Math.round(seconds * 1000) }, 'request');
            resolve();
          });
          serve();
        }),
    ),
  ).catch(() => undefined);
}

async function main() {
  startProcessLog('console');
  await startTracing('verdict-console');
  const dev = process.argv.includes('--dev');
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST || '127.0.0.1';
  const hops = trustedProxyHops();
  const app = next({ dev, hostname: host, port, dir: process.cwd() });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = http.createServer((req, res) => {
    applyClientAddress(req, hops);
    observed(req, res, () => {
      if (isCallbackRequest(req)) void serveCallback(req, res, callbackDeps());
      // A page that met a database outage answers 503 with Retry-After, not Next's 500.
      else serveWithOutageStatus(res, () => void handle(req, res));
    });
  });
  const upgrade = (
    app as unknown as {
      getUpgradeHandler?: () => (req: http.IncomingMessage, socket: unknown, head: Buffer) => Promise<void>;
    }
  ).getUpgradeHandler?.();
  if (upgrade) {
    server.on('upgrade', (req, socket, head) => {
      applyClientAddress(req, hops);
      void upgrade(req, socket, head);
    });
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  // SIGTERM: readiness turns DOWN, no new connections, requests in flight finish (keep-alive
  // connections close after their response), then the pools close and the process exits 0.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    markDraining();
    log.info({ signal }, `${signal}: draining the console (no new connections)…`);
    const cut = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
    server.close(() => {
      clearTimeout(cut);
      // The pools the routes opened (database, job queue) registered themselves (lib/db/shutdown.ts).
      void runShutdown().then(async () => {
        await flushTracing().catch(() => undefined);
        log.info('Console stopped: requests in flight finished, pools closed.');
        process.exit(0);
      });
    });
    server.closeIdleConnections();
    // Whatever holds the close (a hung pool) does not hold the exit.
    setTimeout(() => process.exit(0), DRAIN_MS + 5_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  log.fatal({ error: err instanceof Error ? err.message : String(err) }, 'the console server failed to start');
  process.exit(1);
});
