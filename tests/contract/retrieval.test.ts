// R1-R12: retrieval, status, report, steps, rules, account, feedback, list; deletion and wipes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '@/lib/simulator';
import { generateExecution } from '@/lib/simulator/generator';
import {
  call,
  completeJourney,
  createAccount,
  expectProblem,
  start,
  startSignedIn,
  token,
  waitFor,
  type Json,
} from './helpers';

const ANCHOR = new Date('2026-06-01T12:00:00Z');
let sim: RunningSimulator;
let access: string;
let seeded: Json[]; // first page of R12 (generated executions)
const UNKNOWN = '8d0c1f7e-1a2b-4c3d-8e4f-5a6b7c8d9e0f';

beforeAll(async () => {
  ({ sim, access } = await startSignedIn({ executions: 300, anchor: ANCHOR }));
  seeded = (await call(sim, 'GET', '/api/v1/workflow-executions?size=100', { token: access })).json.workflowExecutions;
});
afterAll(() => sim.close());

const get = (path: string) => call(sim, 'GET', path, { token: access });
/** Generated executions with images of their ID: processed and not wiped. */
const withIdImages = () =>
  seeded.filter(
    (e) =>
      e.workflow.status === 'PROCESSED' &&
      !e.wipedOutAt &&
      e.credentials.some((c: Json) => c.category === 'ID' && c.parts.length),
  );
const processed = () => withIdImages()[0];
const execPath = (e: Json) => `/api/v1/accounts/${e.account.id}/workflow-executions/${e.workflow.id}`;

describe('R12: list workflow executions', () => {
  it('Endpoints R12: GET /api/v1/workflow-executions returns {workflowExecutions: [...]} with the default size 50', async () => {
    const r = await get('/api/v1/workflow-executions');
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(['workflowExecutions']);
    expect(r.json.workflowExecutions).toHaveLength(50);
    expect(r.json.workflowExecutions[0]).toMatchObject({
      workflow: { id: expect.any(String), status: expect.any(String) },
      account: { id: expect.any(String) },
      createdAt: expect.any(String),
    });
  });

  it('R12: newest first across pages', async () => {
    const all: string[] = [];
    for (let page = 1; page <= 4; page++)
      all.push(
        ...(await get(`/api/v1/workflow-executions?size=100&page=${page}`)).json.workflowExecutions.map(
          (e: Json) => e.createdAt,
        ),
      );
    expect(all).toHaveLength(300);
    const sorted = [...all].sort().reverse();
    expect(all).toEqual(sorted);
  });

  it('R12: pages do not overlap and a page past the end is empty', async () => {
    const p1 = (await get('/api/v1/workflow-executions?size=7&page=1')).json.workflowExecutions.map(
      (e: Json) => e.workflow.id,
    );
    const p2 = (await get('/api/v1/workflow-executions?size=7&page=2')).json.workflowExecutions.map(
      (e: Json) => e.workflow.id,
    );
    expect(new Set([...p1, ...p2]).size).toBe(14);
    expect((await get('/api/v1/workflow-executions?size=100&page=99')).json.workflowExecutions).toEqual([]);
  });

  it('Limits: list page size 1..100 — 1 and 100 accepted; 0, 101 and "abc" rejected with 400', async () => {
    expect((await get('/api/v1/workflow-executions?size=1')).json.workflowExecutions).toHaveLength(1);
    expect((await get('/api/v1/workflow-executions?size=100')).json.workflowExecutions).toHaveLength(100);
    expectProblem(await get('/api/v1/workflow-executions?size=0'), 400, /^size must be 1\.\.100/);
    expectProblem(await get('/api/v1/workflow-executions?size=101'), 400, /^size must be 1\.\.100/);
    expectProblem(await get('/api/v1/workflow-executions?size=abc'), 400, /^size must be an integer/);
    expectProblem(await get('/api/v1/workflow-executions?size=-5'), 400, /^size/);
  });

  it('Limits: list page number at least 1, default 1 — page 0 and "x" rejected with 400', async () => {
    const def = (await get('/api/v1/workflow-executions?size=3')).json.workflowExecutions;
    const one = (await get('/api/v1/workflow-executions?size=3&page=1')).json.workflowExecutions;
    expect(def).toEqual(one);
    expectProblem(await get('/api/v1/workflow-executions?page=0'), 400, /^page must be >= 1/);
    expectProblem(await get('/api/v1/workflow-executions?page=x'), 400, /^page/);
    expectProblem(await get('/api/v1/workflow-executions?page=1.5'), 400, /^page/);
  });

  it('R12: generated and API-created executions live side by side, API ones newest', async () => {
    const acc = await createAccount(sim, access);
    const first = (await get('/api/v1/workflow-executions?size=2')).json.workflowExecutions;
    expect(first[0].workflow.id).toBe(acc.executionId);
    expect(first[1].workflow.id).toBe(seeded[0].workflow.id);
  });

  it('R12: deep pages of a large generated set are answered quickly (O(page) work)', async () => {
    const big = await start({ executions: 1_000_000, days: 365, anchor: ANCHOR });
    try {
      const t = await token(big);
      const started = Date.now();
      const r = await call(big, 'GET', '/api/v1/workflow-executions?size=100&page=9999', { token: t });
      expect(r.status).toBe(200);
      expect(r.json.workflowExecutions).toHaveLength(100);
      expect(Date.now() - started).toBeLessThan(3000);
      const last = await call(big, 'GET', '/api/v1/workflow-executions?size=100&page=10000', { token: t });
      expect(last.json.workflowExecutions).toHaveLength(100);
      expect(
        (await call(big, 'GET', '/api/v1/workflow-executions?size=100&page=10001', { token: t })).json
          .workflowExecutions,
      ).toEqual([]);
    } finally {
      await big.close();
    }
  });
});

describe('R2, R4, R5: result and status', () => {
  it('Endpoints R2: GET /accounts/{a}/workflow-executions/{w} returns the workflow execution result', async () => {
    const e = processed();
    const r = await get(execPath(e));
    expect(r.status).toBe(200);
    expect(r.json).toEqual(e);
  });

  it('R2: generated executions equal the generator output for their index (deterministic)', async () => {
    const g = generateExecution('contract', 0, { count: 300, days: 90, anchor: ANCHOR, baseUrl: sim.url });
    expect((await get(execPath(g.result))).json).toEqual(g.result);
  });

  it('Endpoints R4: GET /workflow-executions/{w} (callback link form) returns the same result', async () => {
    const e = processed();
    expect((await get(`/api/v1/workflow-executions/${e.workflow.id}`)).json).toEqual(e);
  });

  it('Endpoints R5: status returns {account{id,href}, workflowExecution{id, href, definitionKey, status}}', async () => {
    const e = processed();
    const r = await get(`${execPath(e)}/status`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      account: { id: e.account.id, href: `${sim.url}/api/v1/accounts/${e.account.id}` },
      workflowExecution: {
        id: e.workflow.id,
        href: `${sim.url}${execPath(e)}`,
        definitionKey: e.workflow.definitionKey,
        status: 'PROCESSED',
      },
    });
  });

  it('Unknown ids: a valid UUID that does not exist gets 404; an invalid one gets 400', async () => {
    expectProblem(await get(`/api/v1/workflow-executions/${UNKNOWN}`), 404);
    expectProblem(await get('/api/v1/workflow-executions/123'), 400, /workflowExecutionId must be a UUID/);
    expectProblem(await get(`/api/v1/accounts/${UNKNOWN}/workflow-executions/${UNKNOWN}/status`), 404);
  });

  it('R2: an execution under the wrong account gets 404', async () => {
    const [a, b] = seeded;
    expectProblem(await get(`/api/v1/accounts/${b.account.id}/workflow-executions/${a.workflow.id}`), 404);
  });
});

describe('R1: part content', () => {
  it('Endpoints R1: GET /accounts/{a}/credentials/{c}/parts/{classifier} returns the image bytes', async () => {
    const e = processed();
    const id = e.credentials.find((c: Json) => c.category === 'ID');
    const res = await fetch(`${sim.url}/api/v1/accounts/${e.account.id}/credentials/${id.id}/parts/FRONT`, {
      headers: { authorization: `Bearer ${access}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const buf = Buffer.from(await res.arrayBuffer());
    expect(buf.subarray(1, 4).toString()).toBe('PNG');
    expect(buf.readUInt32BE(16)).toBeGreaterThanOrEqual(563);
    expect(buf.readUInt32BE(20)).toBeGreaterThanOrEqual(355);
  });

  it('R1: the selfie of a generated execution is a JPEG of at least 480 x 640', async () => {
    const e = seeded.find(
      (x) =>
        !x.wipedOutAt &&
        x.credentials.some((c: Json) => c.category === 'SELFIE' && c.parts.some((p: Json) => p.classifier === 'FACE')),
    )!;
    const s = e.credentials.find((c: Json) => c.category === 'SELFIE');
    const res = await fetch(`${sim.url}/api/v1/accounts/${e.account.id}/credentials/${s.id}/parts/FACE`, {
      headers: { authorization: `Bearer ${access}` },
    });
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.status).toBe(200);
  });

  it('R1: a classifier other than FRONT, BACK, FACE gets 400; a missing part gets 404', async () => {
    const e = processed();
    const id = e.credentials.find((c: Json) => c.category === 'ID');
    expectProblem(await get(`/api/v1/accounts/${e.account.id}/credentials/${id.id}/parts/SIDE`), 400);
    expectProblem(await get(`/api/v1/accounts/${e.account.id}/credentials/${id.id}/parts/FACE`), 404);
    expectProblem(await get(`/api/v1/accounts/${UNKNOWN}/credentials/${id.id}/parts/FRONT`), 404);
  });
});

describe('R6, R7, R8: report, steps, rules', () => {
  it('Endpoints R6: generate returns {workflowId, presignedUrl}; the URL serves a real PDF without a token', async () => {
    const e = processed();
    const r = await get(`${execPath(e)}/generate`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ workflowId: e.workflow.id, presignedUrl: expect.stringContaining('/reports/') });
    const pdf = await fetch(r.json.presignedUrl);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const text = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    expect(text.startsWith('%PDF-1.4')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(text).toContain(e.workflow.id);
    const tampered = await fetch(r.json.presignedUrl.replace(/signature=[0-9a-f]/, 'signature=z'));
    expect(tampered.status).toBe(403);
  });

  it('Endpoints R7: steps {steps: [{id, name, decision, capabilities[{id, category}], capabilityIds}]}', async () => {
    const e = processed();
    const r = await get(`${execPath(e)}/steps`);
    expect(r.status).toBe(200);
    expect(r.json.steps.length).toBeGreaterThan(0);
    for (const s of r.json.steps) {
      expect(s).toMatchObject({
        id: expect.any(Number),
        name: expect.any(String),
        decision: { type: expect.any(String), details: { label: expect.any(String) } },
        capabilityIds: expect.any(Array),
      });
    }
    expect(r.json.steps[0].name).toBe('ID_IV');
  });

  it('Endpoints R8: rules {executions: [{id, startedAt, completedAt, rulesets[{id, name, version, score, rulesMatched, rulesNotMatched}]}]}', async () => {
    const e = processed();
    const r = await get(`${execPath(e)}/rules`);
    expect(r.status).toBe(200);
    const ex = r.json.executions[0];
    expect(ex).toMatchObject({
      id: expect.any(String),
      startedAt: expect.any(String),
      completedAt: expect.any(String),
    });
    for (const rs of ex.rulesets) {
      expect(rs).toMatchObject({
        id: expect.any(String),
        name: expect.any(String),
        version: expect.any(Number),
        score: expect.any(Number),
      });
      for (const rule of [...rs.rulesMatched, ...rs.rulesNotMatched])
        expect(rule).toEqual({
          id: expect.any(String),
          name: expect.any(String),
          version: expect.any(Number),
          score: expect.any(Number),
        });
    }
  });

  it('R6/R7/R8: not available before PROCESSED (404)', async () => {
    const acc = await createAccount(sim, access);
    const p = `/api/v1/accounts/${acc.accountId}/workflow-executions/${acc.executionId}`;
    for (const suffix of ['/steps', '/rules', '/generate']) expectProblem(await get(p + suffix), 404);
  });
});

describe('R9, R10: account-level operations', () => {
  it('Endpoints R9: GET /accounts/{a} returns the account and its workflow executions', async () => {
    const e = processed();
    const r = await get(`/api/v1/accounts/${e.account.id}`);
    expect(r.status).toBe(200);
    expect(r.json.account).toMatchObject({ id: e.account.id, href: `${sim.url}/api/v1/accounts/${e.account.id}` });
    expect(r.json.workflowExecutions.map((x: Json) => x.id)).toContain(e.workflow.id);
  });

  it('Endpoints R10: DELETE /accounts/{a} deletes the account and all its executions (404 for the account, wipedOutAt on executions)', async () => {
    const done = await completeJourney(sim, access);
    const r = await call(sim, 'DELETE', `/api/v1/accounts/${done.accountId}`, { token: access });
    expect(r.status).toBe(200);
    expectProblem(await get(`/api/v1/accounts/${done.accountId}`), 404);
    expect((await get(`/api/v1/workflow-executions/${done.executionId}`)).json.wipedOutAt).toEqual(expect.any(String));
    expectProblem(await get(`/api/v1/accounts/${done.accountId}/credentials/${done.creds.ID.id}/parts/FRONT`), 404);
    expectProblem(await call(sim, 'DELETE', `/api/v1/accounts/${done.accountId}`, { token: access }), 404);
  });

  it('R10 on a generated account: its executions are wiped (overlay) and its parts are gone', async () => {
    const e = withIdImages()[3];
    const id = e.credentials.find((c: Json) => c.category === 'ID');
    expect((await call(sim, 'DELETE', `/api/v1/accounts/${e.account.id}`, { token: access })).status).toBe(200);
    expectProblem(await get(`/api/v1/accounts/${e.account.id}`), 404);
    expectProblem(await get(`/api/v1/accounts/${e.account.id}/credentials/${id.id}/parts/FRONT`), 404);
    const after = await get(`/api/v1/workflow-executions/${e.workflow.id}`);
    expect(after.json.wipedOutAt).toEqual(expect.any(String));
    expect(after.json.decision).toEqual(e.decision);
  });
});

describe('R3: delete one execution', () => {
  it('Endpoints R3: DELETE /accounts/{a}/workflow-executions/{w} returns 200; parts and details 404; record remains with wipedOutAt', async () => {
    const e = withIdImages()[5];
    const r = await call(sim, 'DELETE', execPath(e), { token: access });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      account: { id: e.account.id },
      workflowExecution: { id: e.workflow.id, wipedOutAt: expect.any(String) },
    });
    for (const s of ['/steps', '/rules', '/generate']) expectProblem(await get(execPath(e) + s), 404);
    const id = e.credentials.find((c: Json) => c.category === 'ID');
    expectProblem(await get(`/api/v1/accounts/${e.account.id}/credentials/${id.id}/parts/FRONT`), 404);
    const rec = await get(execPath(e));
    expect(rec.json.wipedOutAt).toEqual(expect.any(String));
    expect(rec.json.capabilities.extraction?.[0]?.data).toBeUndefined();
    const listed = (await get('/api/v1/workflow-executions?size=100')).json.workflowExecutions.find(
      (x: Json) => x.workflow.id === e.workflow.id,
    );
    expect(listed.wipedOutAt).toEqual(expect.any(String));
  });

  it('R3: deleting an unknown execution gets 404', async () => {
    expectProblem(
      await call(sim, 'DELETE', `/api/v1/accounts/${UNKNOWN}/workflow-executions/${UNKNOWN}`, { token: access }),
      404,
    );
  });
});

describe('R11: feedback', () => {
  const fbPath = (e: Json) => `${execPath(e)}/feedback`;
  const target = () => seeded.filter((x) => x.workflow.status === 'PROCESSED' && !x.wipedOutAt && !x.feedback)[10];

  it('Endpoints R11: PUT feedback {status, reason} returns 200 and R2 shows feedback {status, reason, providedAt}', async () => {
    const e = target();
    const r = await call(sim, 'PUT', fbPath(e), { token: access, body: { status: 'NOT_FRAUD', reason: 'NA' } });
    expect(r.status).toBe(200);
    expect((await get(execPath(e))).json.feedback).toEqual({
      status: 'NOT_FRAUD',
      reason: 'NA',
      providedAt: expect.any(String),
    });
  });

  it('Feedback: status values NA, FRAUD, NOT_FRAUD', async () => {
    const e = target();
    for (const status of ['NA', 'NOT_FRAUD'])
      expect((await call(sim, 'PUT', fbPath(e), { token: access, body: { status } })).status).toBe(200);
    expect(
      (await call(sim, 'PUT', fbPath(e), { token: access, body: { status: 'FRAUD', reason: 'SYNTHETIC_ID_FRAUD' } }))
        .status,
    ).toBe(200);
    expectProblem(
      await call(sim, 'PUT', fbPath(e), { token: access, body: { status: 'MAYBE' } }),
      400,
      /^status: must be one of NA, FRAUD, NOT_FRAUD/,
    );
  });

  it('Feedback: status is required', async () => {
    expectProblem(
      await call(sim, 'PUT', fbPath(target()), { token: access, body: { reason: 'PHISHING' } }),
      400,
      /^status: is required/,
    );
  });

  it('Feedback: reason values are the twelve of the spec; others get 400', async () => {
    const e = target();
    for (const reason of [
      'NA',
      'ACCOUNT_TAKEOVER',
      'COMPANY_POLICY',
      'FIRST_PARTY_FRAUD',
      'GOVERNMENT_REGULATIONS',
      'IDENTITY_FRAUD',
      'INSIDER_FRAUD',
      'MONEY_LAUNDERING',
      'PAYMENT_FRAUD',
      'PHISHING',
      'SYNTHETIC_ID_FRAUD',
      'THIRD_PARTY_FRAUD',
    ])
      expect(
        (await call(sim, 'PUT', fbPath(e), { token: access, body: { status: 'NOT_FRAUD', reason } })).status,
        reason,
      ).toBe(200);
    expectProblem(
      await call(sim, 'PUT', fbPath(e), { token: access, body: { status: 'NOT_FRAUD', reason: 'BORED' } }),
      400,
      /^reason: must be one of/,
    );
  });

  it('service facts: reason is required when status is FRAUD', async () => {
    expectProblem(
      await call(sim, 'PUT', fbPath(target()), { token: access, body: { status: 'FRAUD' } }),
      400,
      /^reason: is required when status is FRAUD/,
    );
  });

  it('R11: malformed JSON and wrong types get 400', async () => {
    expectProblem(
      await call(sim, 'PUT', fbPath(target()), {
        token: access,
        raw: '{status:',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      /Malformed JSON/,
    );
    expectProblem(await call(sim, 'PUT', fbPath(target()), { token: access, body: { status: 1 } }), 400, /^status/);
    expectProblem(await call(sim, 'PUT', fbPath(target()), { token: access, body: 'FRAUD' }), 400);
  });

  it('R11: feedback on an execution that is not PROCESSED gets 400; on an unknown one 404', async () => {
    const acc = await createAccount(sim, access);
    expectProblem(
      await call(sim, 'PUT', `/api/v1/accounts/${acc.accountId}/workflow-executions/${acc.executionId}/feedback`, {
        token: access,
        body: { status: 'NA' },
      }),
      400,
      /PROCESSED/,
    );
    expectProblem(
      await call(sim, 'PUT', `/api/v1/accounts/${UNKNOWN}/workflow-executions/${UNKNOWN}/feedback`, {
        token: access,
        body: { status: 'NA' },
      }),
      404,
    );
  });

  it('Feedback semantics: FRAUD on a document makes later transactions of the same document come back dataChecks REJECTED / CUSTOMER_FEEDBACK', async () => {
    const first = await completeJourney(sim, access);
    await call(sim, 'PUT', `/api/v1/accounts/${first.accountId}/workflow-executions/${first.executionId}/feedback`, {
      token: access,
      body: { status: 'FRAUD', reason: 'IDENTITY_FRAUD' },
    });
    const second = await completeJourney(sim, access);
    expect(second.result.capabilities.dataChecks[0].decision).toEqual({
      type: 'REJECTED',
      details: { label: 'CUSTOMER_FEEDBACK' },
    });
    expect(second.result.decision.type).toBe('REJECTED');
  });
});

describe('Retention: optional wipe after a configurable period (as the real service does)', () => {
  it('wipedOutAt is set and personal data removed once retention has passed', async () => {
    const s = await start({ retentionMs: 150, executions: 20 });
    try {
      const t = await token(s);
      const done = await completeJourney(s, t);
      const wiped = await waitFor(async () => {
        const r = await call(s, 'GET', `/api/v1/workflow-executions/${done.executionId}`, { token: t });
        return r.json.wipedOutAt ? r.json : undefined;
      }, 3000);
      expect(wiped.capabilities.extraction[0].data).toBeUndefined();
      expectProblem(
        await call(s, 'GET', `/api/v1/accounts/${done.accountId}/credentials/${done.creds.ID.id}/parts/FRONT`, {
          token: t,
        }),
        404,
      );
      const old = (await call(s, 'GET', '/api/v1/workflow-executions?size=5&page=2', { token: t })).json
        .workflowExecutions;
      expect(old.every((x: Json) => x.wipedOutAt || x.workflow.status !== 'PROCESSED')).toBe(true);
    } finally {
      await s.close();
    }
  });
});

describe('Rate limits of retrieval (service facts: 15 per second per customer)', () => {
  it('retrieval beyond the burst gets 429 with Retry-After and the error body', async () => {
    const s = await start({ rateLimits: { retrievalPerSec: 15, retrievalBurst: 5 } });
    try {
      const t = await token(s);
      // One after another until the first 429: the bucket lets its burst of 5 through, then one
      // more every 1/15 s that passes (seven requests taking over 133 ms on a loaded machine would
      // all be let through, so a fixed number of them is not the test).
      const codes: number[] = [];
      const started = Date.now();
      while (codes.length < 50 && !codes.includes(429))
        codes.push((await call(s, 'GET', '/api/v1/workflow-executions?size=1', { token: t })).status);
      const elapsed = Date.now() - started;
      expect(codes.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(codes).toContain(429);
      expect(codes.length - 1, 'requests let through').toBeLessThanOrEqual(5 + Math.ceil((15 * elapsed) / 1000));
    } finally {
      await s.close();
    }
  });
});
