import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP receiver of webhooks on 127.0.0.1 for the tests: records every request it gets
 * and answers as `mode` says. It can stop and start again on the same port (a receiver that is
 * down, then up again).
 */
export type ReceiverMode =
  { status: number; body?: string; headers?: Record<string, string> } | { slowMs: number; status?: number };

export interface ReceivedRequest {
  at: number;
  headers: Record<string, string>;
  body: string;
  /** What the receiver answered (null: it held the request past the sender's time limit). */
  answered: number | null;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  mode: ReceiverMode;
  requests: ReceivedRequest[];
  /** Requests answered 2xx, per webhook-id. */
  accepted(): Map<string, number>;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startReceiver(mode: ReceiverMode = { status: 200 }, port = 0): Promise<WebhookReceiver> {
  let server: http.Server | null = null;
  const r: WebhookReceiver = {
    url: '',
    port,
    mode,
    requests: [],
    accepted() {
      const m = new Map<string, number>();
      for (const q of r.requests)
        if (q.answered !== null && q.answered >= 200 && q.answered < 300)
          m.set(q.headers['webhook-id'], (m.get(q.headers['webhook-id']) ?? 0) + 1);
      return m;
    },
    async start() {
      server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const entry: ReceivedRequest = {
            at: Date.now(),
            headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
            body: Buffer.concat(chunks).toString('utf8'),
            answered: null,
          };
          r.requests.push(entry);
          const m = r.mode;
          const answer = (status: number, body = 'ok', headers: Record<string, string> = {}) => {
            if (res.destroyed) return;
            entry.answered = status;
            res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(body);
          };
          if ('slowMs' in m) setTimeout(() => answer(m.status ?? 200), m.slowMs).unref();
          else answer(m.status, m.body ?? (m.status < 300 ? 'ok' : `status ${m.status}`), m.headers);
        });
      });
      await new Promise<void>((resolve) => server!.listen(r.port, '127.0.0.1', resolve));
      r.port = (server!.address() as AddressInfo).port;
      r.url = `http://127.0.0.1:${r.port}/hooks`;
    },
    async stop() {
      const s = server;
      server = null;
      if (!s) return;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
  await r.start();
  return r;
}
