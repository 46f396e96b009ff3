/**
 * The console's HTTP server: Next's request handler behind one step of our own. Every request's
 * address claims are replaced by the socket address (or the trusted proxy hop) before Next sees
 * it (`lib/edge/client-address.ts`). The service's callbacks are answered here, by the same
 * receiver as the route, without Next's per-request machinery (lib/sync/callback-endpoint.ts). A
 * request that met a database outage answers 503 instead of 500 (lib/server/outage-status.ts).
 * Started by `npm start` / `npm run dev` (scripts/start.ts); it listens on HOST (default
 * 127.0.0.1, so a fresh install is not reachable from the network).
 */
import http from 'node:http';
import next from 'next';
import { applyClientAddress, trustedProxyHops } from '@/lib/edge/client-address';
import { serveWithOutageStatus } from '@/lib/server/outage-status';
import { markDraining, runShutdown } from '@/lib/server/shutdown';
import { callbackDeps, isCallbackRequest, serveCallback } from '@/lib/sync/callback-endpoint';

/** How long a stopping console lets requests in flight finish before it cuts them. */
const DRAIN_MS = Number(process.env.SHUTDOWN_GRACE_MS ?? 10_000);

async function main() {
  const dev = process.argv.includes('--dev');
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST || '127.0.0.1';
  const hops = trustedProxyHops();
  const app = next({ dev, hostname: host, port, dir: process.cwd() });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = http.createServer((req, res) => {
    applyClientAddress(req, hops);
    if (isCallbackRequest(req)) void serveCallback(req, res, callbackDeps());
    // A page that met a database outage answers 503 with Retry-After, not Next's 500.
    else serveWithOutageStatus(res, () => void handle(req, res));
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
    console.log(`[verdict] ${signal}: draining the console (no new connections)…`);
    const cut = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
    server.close(() => {
      clearTimeout(cut);
      // The pools the routes opened (database, job queue) registered themselves (lib/server/shutdown.ts).
      void runShutdown().then(() => {
        console.log('[verdict] Console stopped: requests in flight finished, pools closed.');
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
  console.error('[verdict] The console server failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
