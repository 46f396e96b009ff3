// Events (callbacks), expiry statuses, and the fault knobs used by other test suites.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '@/lib/simulator';
import {
  accountBody,
  basic,
  call,
  callbackReceiver,
  completeJourney,
  createAccount,
  expectProblem,
  images,
  start,
  startSignedIn,
  statusOf,
  token,
  uploadPart,
  waitFor,
  type Json,
} from './helpers';

let sim: RunningSimulator;
let access: string;
let hook: Awaited<ReturnType<typeof callbackReceiver>>;

beforeAll(async () => {
  hook = await callbackReceiver();
  ({ sim, access } = await startSignedIn({ callbackUrl: hook.url, sessionTimeoutMs: 300 }));
});
afterAll(async () => {
  await sim.close();
  await hook.close();
});

const forExec = <T extends { body: Json }>(h: { received: T[] }, id: string) =>
  h.received.filter((r) => r.body.workflowExecution?.id === id);
const simGet = (path: string) => call(sim, 'GET', path, { headers: { authorization: basic(sim) } });
const simPut = (path: string, body: unknown) =>
  call(sim, 'PUT', path, { headers: { authorization: basic(sim) }, body });

describe('Events: callbacks', () => {
  it('Events 1: a callback is sent to the configured default URL when an execution completes', async () => {
    const done = await completeJourney(sim, access);
    const cb = await waitFor(() => forExec(hook, done.executionId)[0]);
    expect(cb.body.workflowExecution.status).toBe('PROCESSED');
    expect(cb.headers['content-type']).toMatch(/application\/json/);
  });

  it('Events 1: callbackUrl on the account request overrides the default URL', async () => {
    const other = await callbackReceiver();
    try {
      const done = await completeJourney(sim, access, { callbackUrl: other.url });
      await waitFor(() => forExec(other, done.executionId)[0]);
      await new Promise((r) => setTimeout(r, 100));
      expect(forExec(hook, done.executionId)).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('service facts: callback body {callbackSentAt, userReference only if set, workflowExecution{id, href without account segment, definitionKey string, status}, account{id, href}}', async () => {
    const b = accountBody();
    delete b.userReference;
    const done = await completeJourney(sim, access, {
      userReference: undefined,
      workflowDefinition: { ...b.workflowDefinition, key: 10013 },
    });
    const cb = await waitFor(() => forExec(hook, done.executionId)[0]);
    expect(Object.keys(cb.body).sort()).toEqual(['account', 'callbackSentAt', 'workflowExecution']);
    expect(cb.body.workflowExecution).toEqual({
      id: done.executionId,
      href: `${sim.url}/api/v1/workflow-executions/${done.executionId}`,
      definitionKey: '10013',
      status: 'PROCESSED',
    });
    expect(cb.body.account).toEqual({ id: done.accountId, href: `${sim.url}/api/v1/accounts/${done.accountId}` });
    expect(Date.now() - Date.parse(cb.body.callbackSentAt)).toBeLessThan(10_000);
  });

  it('callbacks are retried with backoff on failure, and every attempt is recorded (GET /__sim/callbacks)', async () => {
    const flaky = await callbackReceiver((n) => (n <= 2 ? 500 : 200));
    try {
      const done = await completeJourney(sim, access, { callbackUrl: flaky.url });
      await waitFor(() => (flaky.received.length >= 3 ? true : undefined), 3000);
      const attempts = (await simGet('/__sim/callbacks')).json.attempts.filter(
        (a: Json) => a.executionId === done.executionId,
      );
      expect(attempts.map((a: Json) => [a.attempt, a.status])).toEqual([
        [1, 500],
        [2, 500],
        [3, 200],
      ]);
      // Each retry waits its delay of the schedule (30 ms, then 60 ms: tests/contract/helpers.ts) after
      // the failed attempt; on a loaded machine any wait may come out longer, so the two gaps are
      // each held to their own delay (less two milliseconds of clock rounding), not to one another.
      const t = flaky.received.map((r) => r.at);
      expect(t[1] - t[0]).toBeGreaterThanOrEqual(30 - 2);
      expect(t[2] - t[1]).toBeGreaterThanOrEqual(60 - 2);
      expect(sim.callbackAttempts().filter((a) => a.executionId === done.executionId)).toHaveLength(3);
    } finally {
      await flaky.close();
    }
  });

  it('callbacks to an unreachable URL give up after the last retry, each attempt recorded with its error', async () => {
    const dead = await callbackReceiver();
    const url = dead.url;
    await dead.close();
    const done = await completeJourney(sim, access, { callbackUrl: url });
    const attempts = await waitFor(() => {
      const a = sim.callbackAttempts().filter((x) => x.executionId === done.executionId);
      // An attempt is recorded when it starts; its error lands when the connection fails.
      return a.length === 4 && a.every((x) => x.error !== undefined || x.status !== undefined) ? a : undefined;
    }, 10_000);
    for (const a of attempts) expect(a.error).toEqual(expect.any(String));
  });

  it('Statuses: an execution with an upload but never finalized expires as SESSION_EXPIRED and a callback is sent', async () => {
    const acc = await createAccount(sim, access);
    await uploadPart(sim, acc, 'front', images.front());
    const cb = await waitFor(() => forExec(hook, acc.executionId)[0], 3000);
    expect(cb.body.workflowExecution.status).toBe('SESSION_EXPIRED');
    const r = await call(sim, 'GET', `/api/v1/accounts/${acc.accountId}/workflow-executions/${acc.executionId}`, {
      token: access,
    });
    expect(r.json.workflow.status).toBe('SESSION_EXPIRED');
    expect(r.json.decision).toEqual({
      type: 'NOT_EXECUTED',
      details: { label: 'SESSION_EXPIRED' },
      risk: { score: -1 },
    });
    expectProblem(await uploadPart(sim, acc, 'back', images.back()), 400, /SESSION_EXPIRED/);
  });

  it('Statuses: an execution whose transaction token expires before use becomes TOKEN_EXPIRED and a callback is sent', async () => {
    sim.faults.tokenLifetimeSec = 1;
    try {
      const acc = await createAccount(sim, access);
      const cb = await waitFor(() => forExec(hook, acc.executionId)[0], 4000);
      expect(cb.body.workflowExecution.status).toBe('TOKEN_EXPIRED');
      const s = await statusOf(sim, access, acc);
      expect(s.json.workflowExecution.status).toBe('TOKEN_EXPIRED');
    } finally {
      sim.faults.tokenLifetimeSec = null;
    }
  });

  it('callback URL rules of the real service (HTTPS, no IP host, no port) apply when insecure callbacks are not allowed', async () => {
    const strict = await start({ allowInsecureCallbacks: false });
    try {
      const t = await token(strict);
      const post = (callbackUrl: string) =>
        call(strict, 'POST', '/api/v1/accounts', { token: t, body: accountBody({ callbackUrl }) });
      expectProblem(await post('http://hooks.example.com/x'), 400, /HTTPS/);
      expectProblem(await post('https://203.0.113.5/x'), 400, /IP address/);
      expectProblem(await post('https://hooks.example.com:8443/x'), 400, /port/);
      expect((await post('https://hooks.example.com/idv?secret=abc')).status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('Fault knobs (GET/PUT /__sim/faults, POST /__sim/reset)', () => {
  it('GET /__sim/faults returns every knob', async () => {
    const r = await simGet('/__sim/faults');
    expect(r.json).toEqual({
      latencyMs: 0,
      errorRate: 0,
      burst429: 0,
      tokenLifetimeSec: null,
      dropCallbacks: 0,
      duplicateCallbacks: false,
      stallProcessing: false,
    });
  });

  it('PUT /__sim/faults validates the knobs (400 on out-of-range values or unknown knobs)', async () => {
    expectProblem(await simPut('/__sim/faults', { errorRate: 2 }), 400, /errorRate/);
    expectProblem(await simPut('/__sim/faults', { latencyMs: -1 }), 400, /latencyMs/);
    expectProblem(await simPut('/__sim/faults', { chaos: true }), 400, /chaos/);
  });

  it('latencyMs adds latency to every service response', async () => {
    await simPut('/__sim/faults', { latencyMs: 150 });
    try {
      const t0 = Date.now();
      expect((await call(sim, 'GET', '/')).status).toBe(200);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    } finally {
      await simPut('/__sim/faults', { latencyMs: 0 });
    }
  });

  it('errorRate 1 makes every service request fail with 503 and the error body; health reports DEGRADED', async () => {
    await simPut('/__sim/faults', { errorRate: 1 });
    try {
      const r = await call(sim, 'GET', '/api/v1/workflow-executions', { token: access });
      expectProblem(r, 503);
      expect((await simGet('/__sim/faults')).status).toBe(200);
    } finally {
      await simPut('/__sim/faults', { errorRate: 0 });
    }
    sim.faults.errorRate = 0.0001;
    expect((await call(sim, 'GET', '/')).json.status).toBe('DEGRADED');
    sim.faults.errorRate = 0;
  });

  it('burst429 answers the next N requests with 429, Retry-After and the documented body', async () => {
    await simPut('/__sim/faults', { burst429: 2 });
    const a = await call(sim, 'GET', '/api/v1/workflow-executions', { token: access });
    const b = await call(sim, 'POST', '/oauth2/token', {
      headers: { authorization: basic(sim), 'content-type': 'application/x-www-form-urlencoded' },
      raw: 'grant_type=client_credentials',
    });
    const c = await call(sim, 'GET', '/api/v1/workflow-executions?size=1', { token: access });
    for (const r of [a, b]) {
      expect(r.json).toEqual({ title: 'Too Many Requests', status: 429, detail: 'Request limit exceeded' });
      expect(r.headers.get('retry-after')).toBe('1');
    }
    expect(c.status).toBe(200);
  });

  it('dropCallbacks 1 drops callbacks (recorded as dropped, never delivered)', async () => {
    sim.faults.dropCallbacks = 1;
    try {
      const done = await completeJourney(sim, access);
      await new Promise((r) => setTimeout(r, 150));
      expect(forExec(hook, done.executionId)).toHaveLength(0);
      expect(sim.callbackAttempts().find((a) => a.executionId === done.executionId)).toMatchObject({ dropped: true });
    } finally {
      sim.faults.dropCallbacks = 0;
    }
  });

  it('duplicateCallbacks delivers each callback twice', async () => {
    await simPut('/__sim/faults', { duplicateCallbacks: true });
    try {
      const done = await completeJourney(sim, access);
      const got = await waitFor(() =>
        forExec(hook, done.executionId).length >= 2 ? forExec(hook, done.executionId) : undefined,
      );
      expect(got[0].body.workflowExecution).toEqual(got[1].body.workflowExecution);
    } finally {
      await simPut('/__sim/faults', { duplicateCallbacks: false });
    }
  });

  it('stallProcessing keeps finalized executions ACQUIRED until it is turned off', async () => {
    await simPut('/__sim/faults', { stallProcessing: true });
    const acc = await createAccount(sim, access);
    await uploadPart(sim, acc, 'front', images.front());
    await uploadPart(sim, acc, 'face', images.face());
    await call(sim, 'PUT', acc.creds.ID.api.workflowExecution, { token: acc.txToken });
    await new Promise((r) => setTimeout(r, 400));
    const statusPath = `/api/v1/accounts/${acc.accountId}/workflow-executions/${acc.executionId}/status`;
    expect((await call(sim, 'GET', statusPath, { token: access })).json.workflowExecution.status).toBe('ACQUIRED');
    expect((await call(sim, 'GET', '/')).json.details.processing).toBe('DEGRADED');
    await simPut('/__sim/faults', { stallProcessing: false });
    await waitFor(async () =>
      (await call(sim, 'GET', statusPath, { token: access })).json.workflowExecution.status === 'PROCESSED'
        ? true
        : undefined,
    );
  });

  it('tokenLifetimeSec shortens token expiry (expires_in follows it)', async () => {
    await simPut('/__sim/faults', { tokenLifetimeSec: 5 });
    try {
      const r = await call(sim, 'POST', '/oauth2/token', {
        headers: { authorization: basic(sim), 'content-type': 'application/x-www-form-urlencoded' },
        raw: 'grant_type=client_credentials',
      });
      expect(r.json.expires_in).toBeLessThanOrEqual(5);
    } finally {
      await simPut('/__sim/faults', { tokenLifetimeSec: null });
    }
  });

  it('POST /__sim/reset clears API-created data and the fault knobs', async () => {
    const s = await start();
    try {
      const t = await token(s);
      const acc = await createAccount(s, t);
      s.faults.latencyMs = 5;
      const r = await call(s, 'POST', '/__sim/reset', { headers: { authorization: basic(s) } });
      expect(r.status).toBe(200);
      expect(s.faults.latencyMs).toBe(0);
      const t2 = await token(s);
      expectProblem(await call(s, 'GET', `/api/v1/workflow-executions/${acc.executionId}`, { token: t2 }), 404);
      expectProblem(await call(s, 'POST', '/__sim/reset'), 401);
    } finally {
      await s.close();
    }
  });
});

describe('Health', () => {
  it('GET / returns {status: UP, details{api, callback, mobile, processing, retrieval, web}}', async () => {
    const r = await call(sim, 'GET', '/');
    expect(r.json).toEqual({
      status: 'UP',
      details: { api: 'UP', callback: 'UP', mobile: 'UP', processing: 'UP', retrieval: 'UP', web: 'UP' },
    });
  });
});
