import 'server-only';
/**
 * A worker process's /metrics (`npm run worker`, and `npm start`'s own process, which runs the
 * workers beside the console): a small listener of its own on METRICS_WORKER_HOST (default
 * 127.0.0.1) : METRICS_WORKER_PORT (default 9464; 0 turns it off), with the console's bearer
 * check. Off while METRICS_TOKEN is unset: there would be nobody it may answer.
 */
import http from 'node:http';
import { log } from '@/lib/log';
import { METRICS_REFUSED, metricsAuthorized, metricsResponse } from '@/lib/server/metrics-endpoint';

export async function startMetricsListener(
  opts: { port?: number } = {},
): Promise<{ port: number; close(): Promise<void> } | null> {
  // lib/env/index.ts checked the value at start-up; `opts.port` (tests) may be 0 for any free port.
  const port = opts.port ?? Number(process.env.METRICS_WORKER_PORT || 9464);
  if (!process.env.METRICS_TOKEN || (opts.port === undefined && port === 0)) return null;
  const host = process.env.METRICS_WORKER_HOST || '127.0.0.1';
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || req.method !== 'GET') {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"title":"Not Found","status":404}');
      return;
    }
    if (!metricsAuthorized(req.headers.authorization)) {
      res.writeHead(METRICS_REFUSED.status, METRICS_REFUSED.headers).end(METRICS_REFUSED.body);
      return;
    }
    metricsResponse().then(
      (m) => res.writeHead(200, { 'Content-Type': m.contentType }).end(m.body),
      () => res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"title":"Metrics failed","status":500}'),
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
  } catch (err) {
    // Another worker on this host has the port: this one runs without its own metrics.
    log.warn({ port, code: (err as NodeJS.ErrnoException).code }, 'worker metrics listener did not start');
    return null;
  }
  const bound = (server.address() as { port: number }).port;
  log.info({ address: `http://${host}:${bound}/metrics` }, 'worker metrics listening');
  return { port: bound, close: () => new Promise((r) => server.close(() => r())) };
}
