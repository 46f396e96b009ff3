import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { IdvClient } from '@/lib/idv/client';
import { IdvHttpError } from '@/lib/idv/errors';
import {
  FakeClock,
  makeJwt,
  sendJson,
  startServer,
  startTokenService,
  STATUS_ACCOUNT as A,
  STATUS_EXECUTION as W,
  STATUS_PATH,
  statusBody,
  testConfig,
  tokenHandler,
  type Recorded,
  type TestServer,
} from '../../support/idv/fault-server';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type TokenOpts = Parameters<typeof tokenHandler>[0];

/** Token endpoint + a status endpoint that accepts only `accept(token)`. */
async function service(
  tokenOpts: TokenOpts,
  accept: (auth: string | undefined, req: Recorded) => boolean = () => true,
) {
  server = await startTokenService((req, res) => {
    if (!accept(req.headers.authorization, req)) {
      return sendJson(res, 401, { title: 'Unauthorized', status: 401, detail: 'Invalid or expired token' });
    }
    sendJson(res, 200, statusBody);
  }, tokenOpts);
  return server;
}

const tokenRequests = (s: TestServer) => s.to('/oauth2/token');

describe('token request', () => {
  it('POSTs grant_type=client_credentials with HTTP Basic and Accept: application/json', async () => {
    const s = await service({ expiresIn: 3600 });
    const client = new IdvClient(testConfig(s.url));
    expect(await client.getToken()).toBe('tok-1');
    const [r] = tokenRequests(s);
    expect(r.method).toBe('POST');
    expect(r.headers.authorization).toBe(`Basic ${Buffer.from('client-id:client-secret').toString('base64')}`);
    expect(r.headers.accept).toBe('application/json');
    expect(r.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(r.body.toString()).toBe('grant_type=client_credentials');
    expect(client.tokens.tokenRequests).toBe(1);
  });

  it('keeps the client secret and the access token out of logs and JSON of the client', async () => {
    const s = await service({ expiresIn: 3600, make: () => 'secret-access-token' });
    const client = new IdvClient(testConfig(s.url));
    await client.getToken();
    const printed = inspect(client, { depth: 20 }) + JSON.stringify(client.config);
    expect(printed).not.toContain('client-secret');
    expect(printed).not.toContain('secret-access-token');
    expect(client.config.clientSecret).toBe('client-secret');
  });

  it('10 concurrent calls share one token request (single flight)', async () => {
    const s = await service({ expiresIn: 3600, delayMs: 100 });
    const client = new IdvClient(testConfig(s.url));
    const results = await Promise.all(Array.from({ length: 10 }, () => client.getStatus(A, W)));
    expect(results).toHaveLength(10);
    expect(tokenRequests(s)).toHaveLength(1);
    expect(client.tokens.tokenRequests).toBe(1);
    expect(new Set(s.to(STATUS_PATH).map((r) => r.headers.authorization))).toEqual(new Set(['Bearer tok-1']));
  });

  it('a failed token request is shared by all waiters and the next call tries again', async () => {
    let fail = true;
    const tokens = tokenHandler({ expiresIn: 3600 });
    server = await startServer((req, res) => {
      if (fail) return sendJson(res, 401, { title: 'Unauthorized', status: 401, detail: 'Bad client credentials' });
      return tokens(req, res);
    });
    const client = new IdvClient(testConfig(server.url));
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => client.getToken()));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    const reason = (results[0] as PromiseRejectedResult).reason as IdvHttpError;
    expect(reason).toBeInstanceOf(IdvHttpError);
    expect(reason.status).toBe(401);
    expect(reason.detail).toBe('Bad client credentials');
    expect(reason.operation).toBe('T getToken');
    expect(reason.message).not.toContain('client-secret');
    expect(tokenRequests(server)).toHaveLength(1);
    fail = false;
    expect(await client.getToken()).toBe('tok-1');
  });
});

describe('expiry and refresh', () => {
  it('refreshes 300 s before expires_in runs out, not earlier', async () => {
    const s = await service({ expiresIn: 3600 });
    const clock = new FakeClock();
    const client = new IdvClient(testConfig(s.url), { now: clock.now, sleep: clock.sleep });
    expect(await client.getToken()).toBe('tok-1');
    clock.advance((3600 - 301) * 1000);
    expect(await client.getToken()).toBe('tok-1');
    clock.advance(2000); // 299 s left
    expect(await client.getToken()).toBe('tok-2');
    expect(client.tokens.tokenRequests).toBe(2);
  });

  it('reads the expiry from the JWT exp claim when expires_in is absent', async () => {
    const clock = new FakeClock();
    const nowSec = Math.floor(clock.now() / 1000);
    const s = await service({ make: (n) => makeJwt({ sub: 'c', n, iat: nowSec, exp: nowSec + 1800 }) });
    const client = new IdvClient(testConfig(s.url), { now: clock.now, sleep: clock.sleep });
    const first = await client.getToken();
    expect(client.tokens.expiresAt).toBe((nowSec + 1800) * 1000);
    clock.advance((1800 - 301) * 1000);
    expect(await client.getToken()).toBe(first);
    clock.advance(2000);
    expect(await client.getToken()).not.toBe(first);
  });

  it('the earlier of expires_in and exp wins (the service may hand out a cached, older token)', async () => {
    const clock = new FakeClock();
    const nowSec = Math.floor(clock.now() / 1000);
    const s = await service({ expiresIn: 3600, make: () => makeJwt({ iat: nowSec - 3000, exp: nowSec + 600 }) });
    const client = new IdvClient(testConfig(s.url), { now: clock.now, sleep: clock.sleep });
    await client.getToken();
    expect(client.tokens.expiresAt).toBe((nowSec + 600) * 1000);
  });

  it('never refreshes earlier than half the lifetime for short-lived tokens', async () => {
    const s = await service({ expiresIn: 120 });
    const clock = new FakeClock();
    const client = new IdvClient(testConfig(s.url), { now: clock.now, sleep: clock.sleep });
    await client.getToken();
    clock.advance(59_000);
    await client.getToken();
    expect(client.tokens.tokenRequests).toBe(1);
    clock.advance(2_000);
    await client.getToken();
    expect(client.tokens.tokenRequests).toBe(2);
  });

  it('keeps using the still-valid token when a refresh fails inside the margin', async () => {
    let down = false;
    const tokens = tokenHandler({ expiresIn: 3600 });
    server = await startServer((req, res) => {
      if (req.path === '/oauth2/token')
        return down ? sendJson(res, 500, { title: 'down', status: 500 }) : tokens(req, res);
      sendJson(res, 200, statusBody);
    });
    const clock = new FakeClock();
    const client = new IdvClient(testConfig(server.url, { maxRetries: 1 }), { now: clock.now, sleep: clock.sleep });
    await client.getToken();
    clock.advance((3600 - 100) * 1000);
    down = true;
    await expect(client.getStatus(A, W)).resolves.toBeTruthy();
    expect(server.to(STATUS_PATH)[0].headers.authorization).toBe('Bearer tok-1');
  });
});

describe('401 handling', () => {
  it('on 401 drops the token, fetches a fresh one and retries once', async () => {
    const s = await service({ expiresIn: 3600 }, (auth) => auth !== 'Bearer tok-1');
    const client = new IdvClient(testConfig(s.url));
    const status = await client.getStatus(A, W);
    expect(status.workflowExecution.id).toBe(W);
    expect(s.to(STATUS_PATH).map((r) => r.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(client.tokens.tokenRequests).toBe(2);
  });

  it('a second 401 is raised, not retried again', async () => {
    const s = await service({ expiresIn: 3600 }, () => false);
    const client = new IdvClient(testConfig(s.url));
    const err = (await client.getStatus(A, W).catch((e: unknown) => e)) as IdvHttpError;
    expect(err).toBeInstanceOf(IdvHttpError);
    expect(err.status).toBe(401);
    expect(err.title).toBe('Unauthorized');
    expect(err.detail).toBe('Invalid or expired token');
    expect(s.to(STATUS_PATH)).toHaveLength(2);
    expect(client.tokens.tokenRequests).toBe(2);
  });

  it('concurrent 401s on the same token cause one refetch', async () => {
    const s = await service({ expiresIn: 3600, delayMs: 30 }, (auth) => auth !== 'Bearer tok-1');
    const client = new IdvClient(testConfig(s.url));
    await Promise.all(Array.from({ length: 8 }, () => client.getStatus(A, W)));
    expect(client.tokens.tokenRequests).toBe(2);
  });

  it('upload calls with the transaction token never touch the OAuth token on 401', async () => {
    const s = await service({ expiresIn: 3600 }, () => false);
    const client = new IdvClient(testConfig(s.url));
    const err = (await client
      .finalize('tx-token', { accountId: A, workflowExecutionId: W })
      .catch((e: unknown) => e)) as IdvHttpError;
    expect(err.status).toBe(401);
    expect(client.tokens.tokenRequests).toBe(0);
    expect(s.requests).toHaveLength(1);
  });
});

describe('token service limits', () => {
  it('honours Retry-After on a 429 from the token service', async () => {
    let n = 0;
    const tokens = tokenHandler({ expiresIn: 3600 });
    server = await startServer((req, res) => {
      if (n++ === 0)
        return sendJson(
          res,
          429,
          { title: 'Too Many Requests', status: 429, detail: 'Request limit exceeded' },
          { 'Retry-After': '1' },
        );
      return tokens(req, res);
    });
    const clock = new FakeClock();
    const client = new IdvClient(testConfig(server.url), { now: clock.now, sleep: clock.sleep });
    expect(await client.getToken()).toBe('tok-1');
    expect(clock.sleeps).toContain(1000);
    expect(client.tokens.tokenRequests).toBe(2);
  });

  it('never sends more than tokenRatePerSec token requests, even when forced to refetch', async () => {
    const s = await service({ expiresIn: 3600 });
    const clock = new FakeClock();
    const client = new IdvClient(testConfig(s.url, { tokenRatePerSec: 10, tokenBurst: 1 }), {
      now: clock.now,
      sleep: clock.sleep,
    });
    const start = clock.now();
    const sentAt: number[] = [];
    for (let i = 0; i < 12; i++) {
      client.tokens.invalidate();
      await client.getToken();
      sentAt.push(clock.now() - start);
    }
    expect(client.tokens.tokenRequests).toBe(12);
    for (let i = 1; i < sentAt.length; i++) expect(sentAt[i] - sentAt[i - 1]).toBeGreaterThanOrEqual(100);
  });
});
