import { afterEach, describe, expect, it } from 'vitest';
import { IdvClient } from '@/lib/idv/client';
import { IdvHttpError, IdvNetworkError, isNotFound, isPermanent, isRetryable, redactUrl } from '@/lib/idv/errors';
import { HttpClient, parseRetryAfter } from '@/lib/idv/http';
import {
  closedPortUrl,
  FakeClock,
  sendJson,
  startTokenService,
  STATUS_ACCOUNT as A,
  STATUS_EXECUTION as W,
  STATUS_PATH,
  statusBody,
  testConfig,
  type TestServer,
} from '../../support/idv/fault-server';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A service whose status endpoint answers with `answers` in turn (then the last one forever). */
async function serviceAnswering(answers: Array<(res: import('node:http').ServerResponse) => void>) {
  let i = 0;
  server = await startTokenService((req, res) => {
    const answer = answers[Math.min(i++, answers.length - 1)];
    answer(res);
  });
  return server;
}

function clientFor(
  s: TestServer,
  clock = new FakeClock(),
  extra: { maxRetries?: number; timeoutMs?: number; random?: () => number } = {},
) {
  return new IdvClient(testConfig(s.url, { maxRetries: extra.maxRetries ?? 4, timeoutMs: extra.timeoutMs ?? 2000 }), {
    sleep: clock.sleep,
    now: clock.now,
    random: extra.random ?? (() => 0.5),
  });
}

const ok = (res: import('node:http').ServerResponse) => sendJson(res, 200, statusBody);
const fail =
  (status: number, body?: unknown, headers?: Record<string, string>) => (res: import('node:http').ServerResponse) =>
    body === undefined ? (res.writeHead(status, headers), res.end()) : sendJson(res, status, body, headers);

describe('retries on 5xx', () => {
  it('retries 503 and 502 with jittered exponential backoff, then succeeds', async () => {
    const s = await serviceAnswering([fail(503), fail(502), ok]);
    const clock = new FakeClock();
    const client = clientFor(s, clock);
    const status = await client.getStatus(A, W);
    expect(status.workflowExecution.status).toBe('PROCESSED');
    expect(s.to(STATUS_PATH)).toHaveLength(3);
    // full jitter with random()=0.5: half of 250 * 2^n
    expect(clock.sleeps).toEqual([125, 250]);
  });

  it('stops at the retry cap and raises the service error {title, status, detail}', async () => {
    const body = { title: 'Service Unavailable', status: 503, detail: 'Processing is down' };
    const s = await serviceAnswering([fail(503, body)]);
    const clock = new FakeClock();
    const client = clientFor(s, clock, { maxRetries: 3 });
    const err = await client.getStatus(A, W).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdvHttpError);
    const e = err as IdvHttpError;
    expect(e.status).toBe(503);
    expect(e.title).toBe('Service Unavailable');
    expect(e.detail).toBe('Processing is down');
    expect(e.attempts).toBe(4);
    expect(e.operation).toBe('R5 getStatus');
    expect(e.message).toContain('Processing is down');
    expect(s.to(STATUS_PATH)).toHaveLength(4);
    expect(clock.sleeps).toHaveLength(3);
    expect(isRetryable(e)).toBe(true);
  });

  it('carries the raw text when the error body does not parse', async () => {
    const s = await serviceAnswering([
      (res) => {
        res.writeHead(500, { 'Content-Type': 'text/html' });
        res.end('<html><body>Bad gateway upstream</body></html>');
      },
    ]);
    const err = (await clientFor(s, new FakeClock(), { maxRetries: 1 })
      .getStatus(A, W)
      .catch((e: unknown) => e)) as IdvHttpError;
    expect(err).toBeInstanceOf(IdvHttpError);
    expect(err.status).toBe(500);
    expect(err.title).toBeUndefined();
    expect(err.rawText).toBe('<html><body>Bad gateway upstream</body></html>');
    expect(err.message).toContain('Bad gateway upstream');
  });

  it('caps each backoff at maxDelayMs', () => {
    const h = new HttpClient({ userAgent: 'x', timeoutMs: 1000, deps: { random: () => 0.9999 } });
    const delays = Array.from({ length: 8 }, (_, n) => h.backoff(n));
    expect(delays).toEqual([249, 499, 999, 1999, 3999, 7999, 7999, 7999]);
    const zero = new HttpClient({ userAgent: 'x', timeoutMs: 1000, deps: { random: () => 0 } });
    expect(zero.backoff(3)).toBe(0);
  });

  it('does not retry 4xx other than 401/408/429 and classifies 404 as not found', async () => {
    const s = await serviceAnswering([fail(404, { title: 'Not Found', status: 404, detail: 'No such execution' })]);
    const err = await clientFor(s)
      .getStatus(A, W)
      .catch((e: unknown) => e);
    expect(isNotFound(err)).toBe(true);
    expect(isPermanent(err)).toBe(true);
    expect(isRetryable(err)).toBe(false);
    expect(s.to(STATUS_PATH)).toHaveLength(1);
  });

  it('keeps the Allow header of a 405', async () => {
    const s = await serviceAnswering([
      fail(405, { title: 'Method Not Allowed', status: 405 }, { Allow: 'POST, DELETE' }),
    ]);
    const err = (await clientFor(s)
      .getStatus(A, W)
      .catch((e: unknown) => e)) as IdvHttpError;
    expect(err.status).toBe(405);
    expect(err.allow).toBe('POST, DELETE');
  });
});

describe('429 and Retry-After', () => {
  it('waits the Retry-After seconds before the retry', async () => {
    const s = await serviceAnswering([
      fail(429, { title: 'Too Many Requests', status: 429, detail: 'Request limit exceeded' }, { 'Retry-After': '2' }),
      ok,
    ]);
    const clock = new FakeClock();
    await clientFor(s, clock).getStatus(A, W);
    expect(clock.sleeps).toEqual([2000]);
    expect(s.to(STATUS_PATH)).toHaveLength(2);
  });

  it('understands an HTTP-date Retry-After', async () => {
    const clock = new FakeClock();
    const at = new Date(clock.now() + 3000).toUTCString();
    const s = await serviceAnswering([fail(429, undefined, { 'Retry-After': at }), ok]);
    await clientFor(s, clock).getStatus(A, W);
    expect(clock.sleeps).toEqual([3000]);
  });

  it('uses backoff when 429 has no Retry-After, and gives up at the cap with the 429 body', async () => {
    const s = await serviceAnswering([
      fail(429, { title: 'Too Many Requests', status: 429, detail: 'Request limit exceeded' }),
    ]);
    const clock = new FakeClock();
    const err = (await clientFor(s, clock, { maxRetries: 2 })
      .getStatus(A, W)
      .catch((e: unknown) => e)) as IdvHttpError;
    expect(err.status).toBe(429);
    expect(err.detail).toBe('Request limit exceeded');
    expect(clock.sleeps).toEqual([125, 250]);
  });

  it('hands a Retry-After longer than maxRetryAfterMs to the caller instead of sleeping', async () => {
    const s = await serviceAnswering([fail(429, undefined, { 'Retry-After': '600' }), ok]);
    const clock = new FakeClock();
    const err = (await clientFor(s, clock)
      .getStatus(A, W)
      .catch((e: unknown) => e)) as IdvHttpError;
    expect(err.status).toBe(429);
    expect(err.retryAfterMs).toBe(600_000);
    expect(clock.sleeps).toEqual([]);
  });

  it('parses Retry-After forms', () => {
    const now = Date.UTC(2025, 0, 1);
    expect(parseRetryAfter('5', now)).toBe(5000);
    expect(parseRetryAfter(new Date(now + 7000).toUTCString(), now)).toBe(7000);
    expect(parseRetryAfter(new Date(now - 7000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('network errors and timeouts', () => {
  it('retries a refused connection and then raises IdvNetworkError', async () => {
    const url = await closedPortUrl();
    const clock = new FakeClock();
    const client = new IdvClient(testConfig(url, { maxRetries: 2 }), {
      sleep: clock.sleep,
      now: clock.now,
      random: () => 0.5,
    });
    const err = (await client.getStatus(A, W).catch((e: unknown) => e)) as IdvNetworkError;
    expect(err).toBeInstanceOf(IdvNetworkError);
    expect(err.operation).toBe('T getToken'); // the token request is the first to fail
    expect(err.code).toBe('ECONNREFUSED');
    expect(err.timedOut).toBe(false);
    expect(err.attempts).toBe(3);
    expect(isRetryable(err)).toBe(true);
  });

  it('times out a slow response, retries a GET, and reports timedOut', async () => {
    server = await startTokenService((req, res) => {
      setTimeout(() => sendJson(res, 200, statusBody), 1500);
    });
    const clock = new FakeClock();
    // The token request has the same time limit: 300 ms leave it room on a loaded machine.
    const client = clientFor(server, clock, { maxRetries: 1, timeoutMs: 300 });
    const started = Date.now();
    const err = (await client.getStatus(A, W).catch((e: unknown) => e)) as IdvNetworkError;
    expect(err).toBeInstanceOf(IdvNetworkError);
    expect(err.timedOut).toBe(true);
    expect(err.attempts).toBe(2);
    expect(err.message).toContain('timed out');
    expect(server.to(STATUS_PATH)).toHaveLength(2);
    // Neither attempt waited for the answer, which comes after 1500 ms.
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('times out a response whose body stalls after the headers', async () => {
    server = await startTokenService((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      res.write('{"workflowExecution":');
      // never finishes
    });
    const err = (await clientFor(server, new FakeClock(), { maxRetries: 0, timeoutMs: 150 })
      .getStatus(A, W)
      .catch((e: unknown) => e)) as IdvNetworkError;
    expect(err).toBeInstanceOf(IdvNetworkError);
    expect(err.timedOut).toBe(true);
  });

  it('does not repeat a POST that timed out or got a 500 (account create may have happened)', async () => {
    let mode: 'slow' | '500' | '503' = 'slow';
    let n503 = 0;
    server = await startTokenService((req, res) => {
      if (mode === 'slow') return void setTimeout(() => sendJson(res, 200, {}), 1000);
      if (mode === '500') return sendJson(res, 500, { title: 'Internal Server Error', status: 500 });
      if (n503++ === 0) return sendJson(res, 503, { title: 'Service Unavailable', status: 503 });
      sendJson(res, 200, { account: { id: A }, workflowExecution: { id: W, credentials: [] } });
    });
    // 300 ms: the token request before the first call has the same time limit.
    const client = clientFor(server, new FakeClock(), { maxRetries: 3, timeoutMs: 300 });
    const body = { customerInternalReference: 'ref-1', workflowDefinition: { key: 10013 } };

    const timedOut = (await client.createAccount(body).catch((e: unknown) => e)) as IdvNetworkError;
    expect(timedOut.timedOut).toBe(true);
    expect(server.to('/api/v1/accounts')).toHaveLength(1);

    mode = '500';
    const e500 = (await client.createAccount(body).catch((e: unknown) => e)) as IdvHttpError;
    expect(e500.status).toBe(500);
    expect(server.to('/api/v1/accounts')).toHaveLength(2);

    mode = '503'; // refused, so safe to repeat
    const created = await client.createAccount(body);
    expect(created.account.id).toBe(A);
    expect(server.to('/api/v1/accounts')).toHaveLength(4);
  });

  it('a caller abort stops the call without retries', async () => {
    const ac = new AbortController();
    server = await startTokenService((req, res) => {
      // The caller gives up while the request is in flight (not after a fixed time, which on a
      // loaded machine could come before the request is even sent).
      ac.abort(new Error('page closed'));
      setTimeout(() => sendJson(res, 200, statusBody), 1000);
    });
    const client = clientFor(server, new FakeClock(), { maxRetries: 3 });
    await expect(client.getStatus(A, W, { signal: ac.signal })).rejects.toThrow('page closed');
    expect(server.to(STATUS_PATH)).toHaveLength(1);
  });
});

describe('headers', () => {
  it('sends Accept: application/json, the User-Agent and the bearer token on every request', async () => {
    const s = await serviceAnswering([fail(502), ok]);
    await clientFor(s).getStatus(A, W);
    for (const r of s.requests) {
      expect(r.headers.accept).toBe('application/json');
      expect(r.headers['user-agent']).toBe('Verdict-Test/1.0');
    }
    for (const r of s.to(STATUS_PATH)) expect(r.headers.authorization).toBe('Bearer tok-1');
  });

  it('never puts query secrets or user info into error URLs', async () => {
    const s = await serviceAnswering([fail(400, { title: 'Bad Request', status: 400 })]);
    const err = (await clientFor(s)
      .addPart('tx', `${s.url}/upload?token=abc123&page=2`, 'FRONT', new Uint8Array([1, 2, 3]), 'image/png')
      .catch((e: unknown) => e)) as IdvHttpError;
    expect(err).toBeInstanceOf(IdvHttpError);
    expect(err.url).toBe(`${s.url}/upload?token=REDACTED&page=2`);
    expect(err.message).not.toContain('abc123');
    expect(redactUrl('https://user:pw@h.example/p?X-Amz-Signature=s&sig=t&size=5')).toBe(
      'https://h.example/p?X-Amz-Signature=REDACTED&sig=REDACTED&size=5',
    );
  });
});
