/**
 * A small real HTTP server on a loopback port, so the client's real fetch meets real faults:
 * 5xx sequences, 429 with Retry-After, 401, slow answers, unparsable bodies.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IdvConfig } from '@/lib/idv/config';
import { IDV_CONFIG_DEFAULTS } from '@/lib/idv/config';

export interface Recorded {
  method: string;
  /** Path and query. */
  url: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Fake-or-real time the request arrived (Date.now). */
  at: number;
}

export type Handler = (req: Recorded, res: http.ServerResponse) => void | Promise<void>;

export interface TestServer {
  url: string;
  requests: Recorded[];
  /** Requests whose path starts with the prefix. */
  to(prefix: string): Recorded[];
  setHandler(h: Handler): void;
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: Recorded[] = [];
  let current = handler;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      const rec: Recorded = {
        method: req.method ?? 'GET',
        url,
        path: url.split('?')[0],
        headers: req.headers,
        body: Buffer.concat(chunks),
        at: Date.now(),
      };
      requests.push(rec);
      Promise.resolve(current(rec, res)).catch((err) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    to: (prefix) => requests.filter((r) => r.path.startsWith(prefix)),
    setHandler: (h) => {
      current = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A port nothing listens on (a server was there a moment ago). */
export async function closedPortUrl(): Promise<string> {
  const s = await startServer(() => undefined);
  await s.close();
  return s.url;
}

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
/** An unsigned JWT (the client decodes without verifying). */
export function makeJwt(claims: Record<string, unknown>): string {
  return `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url(claims)}.c2lnbmF0dXJl`;
}

/** A clock whose sleep advances it at once: backoff and rate limits cost no real time. */
export class FakeClock {
  t: number;
  sleeps: number[] = [];
  constructor(start = Date.UTC(2025, 0, 1, 12, 0, 0)) {
    this.t = start;
  }
  now = () => this.t;
  /** Yields a macrotask first, so work already due (promise callbacks) sees the time before the jump. */
  sleep = (ms: number) =>
    new Promise<void>((resolve) =>
      setImmediate(() => {
        this.sleeps.push(ms);
        this.t += ms;
        resolve();
      }),
    );
  advance(ms: number) {
    this.t += ms;
  }
}

export function testConfig(baseUrl: string, overrides: Partial<IdvConfig> = {}): IdvConfig {
  return {
    ...IDV_CONFIG_DEFAULTS,
    authUrl: baseUrl,
    accountUrl: baseUrl,
    apiUrl: baseUrl,
    retrievalUrl: baseUrl,
    clientId: 'client-id',
    clientSecret: 'client-secret',
    userAgent: 'Verdict-Test/1.0',
    timeoutMs: 2_000,
    // Generous by default; rate-limit tests set their own.
    retrievalRatePerSec: 1000,
    retrievalBurst: 1000,
    accountRatePerSec: 1000,
    accountBurst: 1000,
    apiRatePerSec: 1000,
    apiBurst: 1000,
    tokenRatePerSec: 1000,
    tokenBurst: 1000,
    ...overrides,
  };
}

/** A token endpoint at /oauth2/token that hands out tok-1, tok-2, ... (or what `make` returns). */
export function tokenHandler(opts: { expiresIn?: number; make?: (n: number) => string; delayMs?: number } = {}) {
  let n = 0;
  return async (_req: Recorded, res: http.ServerResponse) => {
    n++;
    const token = opts.make ? opts.make(n) : `tok-${n}`;
    if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
    const body: Record<string, unknown> = { access_token: token, token_type: 'Bearer' };
    if (opts.expiresIn !== undefined) body.expires_in = opts.expiresIn;
    sendJson(res, 200, body);
  };
}

/** A stub service that hands out tokens at /oauth2/token (see `tokenHandler`) and passes every other request to `handler`. */
export function startTokenService(
  handler: Handler,
  tokenOpts: Parameters<typeof tokenHandler>[0] = { expiresIn: 3600 },
): Promise<TestServer> {
  const tokens = tokenHandler(tokenOpts);
  return startServer((req, res) => (req.path === '/oauth2/token' ? tokens(req, res) : handler(req, res)));
}

/** The execution the stub services report on (R5 status): its ids, the path of the call and the answer. */
export const STATUS_ACCOUNT = 'acc-1';
export const STATUS_EXECUTION = 'wf-1';
export const STATUS_PATH = `/api/v1/accounts/${STATUS_ACCOUNT}/workflow-executions/${STATUS_EXECUTION}/status`;
export const statusBody = {
  account: { id: STATUS_ACCOUNT },
  workflowExecution: { id: STATUS_EXECUTION, definitionKey: '10013', status: 'PROCESSED' },
};
