// Authentication, the token service (T) and token kinds.
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '@/lib/simulator';
import { basic, call, createAccount, expectProblem, start, token } from './helpers';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(async () => {
  await sim.close();
});

const tokenReq = (headers: Record<string, string>, body = 'grant_type=client_credentials') =>
  call(sim, 'POST', '/oauth2/token', {
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    raw: body,
  });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Endpoints T: POST {auth_url}/oauth2/token', () => {
  it('Endpoints T: grant_type=client_credentials with HTTP Basic client id and secret returns {access_token, expires_in, token_type}', async () => {
    const r = await tokenReq({ authorization: basic(sim), accept: 'application/json' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ access_token: expect.any(String), expires_in: expect.any(Number), token_type: 'Bearer' });
  });

  it('Authentication 4: the token is a JWT whose exp and iat claims tell its life', async () => {
    const t = await token(sim);
    const claims = decodeJwt(t);
    expect(typeof claims.exp).toBe('number');
    expect(typeof claims.iat).toBe('number');
    expect(claims.exp! - claims.iat!).toBe(3600);
  });

  it('Limits: access token validity is 3600 seconds by default (expires_in)', async () => {
    sim.reset();
    const r = await tokenReq({ authorization: basic(sim) });
    expect(r.json.expires_in).toBe(3600);
  });

  it('Authentication 5: tokens are cached, so consecutive calls return the same token', async () => {
    const a = await token(sim);
    const b = await token(sim);
    expect(b).toBe(a);
  });

  it('Errors 2: wrong client secret gets 401 with {title, status, detail}', async () => {
    expectProblem(await tokenReq({ authorization: basic(sim, sim.clientId, 'wrong') }), 401, /client credentials/i);
  });

  it('Errors 2: unknown client id gets 401', async () => {
    expectProblem(await tokenReq({ authorization: basic(sim, 'nobody', sim.clientSecret) }), 401);
  });

  it('Errors 2: missing Basic credentials get 401 with a WWW-Authenticate header', async () => {
    const r = await tokenReq({});
    expectProblem(r, 401);
    expect(r.headers.get('www-authenticate')).toMatch(/Basic/);
  });

  it('Errors 3: missing grant_type gets 400', async () => {
    expectProblem(await tokenReq({ authorization: basic(sim) }, ''), 400, /grant_type/);
  });

  it('Errors 3: grant_type other than client_credentials gets 400', async () => {
    expectProblem(await tokenReq({ authorization: basic(sim) }, 'grant_type=password'), 400, /client_credentials/);
  });

  it('Endpoints T: a wrong verb on the token path gets 405 with an Allow header', async () => {
    const r = await call(sim, 'GET', '/oauth2/token');
    expectProblem(r, 405);
    expect(r.headers.get('allow')).toBe('POST');
  });

  it('Limits: token endpoint rate 10 per second; above that 429 {"title":"Too Many Requests","status":429,"detail":"Request limit exceeded"}', async () => {
    await pause(1100);
    const results = await Promise.all(Array.from({ length: 14 }, () => tokenReq({ authorization: basic(sim) })));
    const codes = results.map((r) => r.status);
    expect(codes.filter((c) => c === 200).length).toBe(10);
    const limited = results.filter((r) => r.status === 429);
    expect(limited.length).toBe(4);
    expect(limited[0].json).toEqual({ title: 'Too Many Requests', status: 429, detail: 'Request limit exceeded' });
    expect(limited[0].headers.get('retry-after')).toBeTruthy();
    await pause(1100);
    expect((await tokenReq({ authorization: basic(sim) })).status).toBe(200);
  });
});

describe('Authentication: bearer tokens on the REST operations', () => {
  it('Authentication 1 / Errors 2: a retrieval call without Authorization gets 401', async () => {
    expectProblem(await call(sim, 'GET', '/api/v1/workflow-executions'), 401, /Authorization/);
  });

  it('Errors 2: a malformed (incorrect) token gets 401', async () => {
    expectProblem(await call(sim, 'GET', '/api/v1/workflow-executions', { token: 'not.a.jwt' }), 401, /invalid/);
  });

  it('Errors 2: a token signed by someone else gets 401', async () => {
    const t = await token(sim);
    const [h, p] = t.split('.');
    expectProblem(
      await call(sim, 'GET', '/api/v1/workflow-executions', {
        token: `${h}.${p}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
      }),
      401,
    );
  });

  it('Authentication 1: Basic authentication for the REST operations is deprecated and refused with 401', async () => {
    expectProblem(
      await call(sim, 'GET', '/api/v1/workflow-executions', { headers: { authorization: basic(sim) } }),
      401,
      /Basic/,
    );
  });

  it('Errors 2: an expired access token gets 401 (token expiry shortened with the fault knob)', async () => {
    sim.faults.tokenLifetimeSec = 1;
    try {
      const t = await token(sim);
      expect(decodeJwt(t).exp! - decodeJwt(t).iat!).toBe(1);
      await pause(2100);
      expectProblem(await call(sim, 'GET', '/api/v1/workflow-executions', { token: t }), 401, /expired/);
    } finally {
      sim.faults.tokenLifetimeSec = null;
    }
  });

  it('Authentication 5: a fresh token is issued when the cached one is close to expiry', async () => {
    sim.faults.tokenLifetimeSec = 2;
    try {
      const a = await token(sim);
      await pause(1100);
      const b = await token(sim);
      expect(b).not.toBe(a);
    } finally {
      sim.faults.tokenLifetimeSec = null;
    }
  });

  it('Authentication 6: the transaction token (api.token) is refused on retrieval operations (wrong kind, 401)', async () => {
    const acc = await createAccount(sim, await token(sim));
    expectProblem(
      await call(sim, 'GET', `/api/v1/accounts/${acc.accountId}/workflow-executions/${acc.executionId}`, {
        token: acc.txToken,
      }),
      401,
      /Wrong token kind/,
    );
  });

  it('Authentication 6: the SDK token (sdk.token) is refused on API credential operations (wrong kind, 401)', async () => {
    const acc = await createAccount(sim, await token(sim));
    expectProblem(
      await call(sim, 'PUT', acc.creds.ID.api.workflowExecution, { token: acc.sdkToken }),
      401,
      /Wrong token kind/,
    );
  });

  it('Notes: credential operations refuse the OAuth access token (wrong kind, 401)', async () => {
    const access = await token(sim);
    const acc = await createAccount(sim, access);
    expectProblem(
      await call(sim, 'PUT', acc.creds.ID.api.workflowExecution, { token: access }),
      401,
      /transaction token/,
    );
  });

  it('Authentication 6: a transaction token authorizes only its own workflow execution (403 elsewhere)', async () => {
    const access = await token(sim);
    const a = await createAccount(sim, access);
    const b = await createAccount(sim, access);
    expectProblem(
      await call(sim, 'PUT', b.creds.ID.api.workflowExecution, { token: a.txToken }),
      403,
      /does not authorize/,
    );
  });

  it('Authentication 6: a transaction token expires per tokenLifetime (401 after expiry)', async () => {
    // The access token is taken first: the 1 s fault shortens every token the simulator issues,
    // and a loaded machine can spend that second before the account is created.
    const access = await token(sim);
    sim.faults.tokenLifetimeSec = 1;
    try {
      const acc = await createAccount(sim, access, { tokenLifetime: '5m' });
      expect(decodeJwt(acc.txToken).exp! - decodeJwt(acc.txToken).iat!).toBeLessThanOrEqual(1);
      await pause(2100);
      expectProblem(await call(sim, 'PUT', acc.creds.ID.api.workflowExecution, { token: acc.txToken }), 401, /expired/);
    } finally {
      sim.faults.tokenLifetimeSec = null;
    }
  });

  it('Authentication 6: tokenLifetime sets the transaction token life (e.g. 2h)', async () => {
    const acc = await createAccount(sim, await token(sim), { tokenLifetime: '2h' });
    const c = decodeJwt(acc.txToken);
    expect(c.exp! - c.iat!).toBe(7200);
    const d = decodeJwt((await createAccount(sim, await token(sim))).txToken);
    expect(d.exp! - d.iat!).toBe(1800);
  });

  it('/__sim test tools require the client credentials (401 without)', async () => {
    expectProblem(await call(sim, 'GET', '/__sim/faults'), 401);
    expect((await call(sim, 'GET', '/__sim/faults', { headers: { authorization: basic(sim) } })).status).toBe(200);
  });
});
