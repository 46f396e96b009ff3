// The customer journey through the API, step by step, exactly as an integration would do it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '@/lib/simulator';
import { call, callbackReceiver, expectProblem, images, statusOf, UA, upload, waitFor, type Json } from './helpers';
import { startTestSimulator } from '../support/simulator';
import { idCardAndSelfieWorkflow } from '../support/idv/wire-samples';

describe('End-to-end customer journey', () => {
  let sim: RunningSimulator;
  let hook: Awaited<ReturnType<typeof callbackReceiver>>;
  const state: Json = {};

  beforeAll(async () => {
    hook = await callbackReceiver();
    sim = await startTestSimulator({
      seed: 'journey',
      executions: 50,
      processingDelayMs: 80,
      sweepIntervalMs: 20,
      callbackRetryDelaysMs: [30, 60],
    });
  });
  afterAll(async () => {
    await sim.close();
    await hook.close();
  });

  it('1. obtains an access token with client credentials (T)', async () => {
    const res = await fetch(`${sim.url}/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: 'Basic ' + Buffer.from(`${sim.clientId}:${sim.clientSecret}`).toString('base64'),
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ access_token: expect.any(String), expires_in: 3600, token_type: 'Bearer' });
    state.access = body.access_token;
  });

  it('2. creates an account with an ID and a SELFIE credential over the API channel (A1)', async () => {
    const r = await call(sim, 'POST', '/api/v1/accounts', {
      token: state.access,
      headers: { 'user-agent': UA },
      body: {
        customerInternalReference: 'journey-0001',
        userReference: 'cust-42',
        reportingCriteria: 'journey-test',
        callbackUrl: hook.url,
        tokenLifetime: '30m',
        workflowDefinition: {
          ...idCardAndSelfieWorkflow('FRA'),
          capabilities: { watchlistScreening: {}, documentVerification: { enableExtraction: true } },
        },
        userConsent: {
          userIp: '203.0.113.9',
          userLocation: { country: 'FRA' },
          consent: { obtained: 'yes', obtainedAt: new Date().toISOString() },
        },
      },
    });
    expect(r.status, r.text).toBe(200);
    state.accountId = r.json.account.id;
    state.executionId = r.json.workflowExecution.id;
    state.id = r.json.workflowExecution.credentials.find((c: Json) => c.category === 'ID');
    state.selfie = r.json.workflowExecution.credentials.find((c: Json) => c.category === 'SELFIE');
    state.tx = state.id.api.token;
    expect(state.id.api.parts).toEqual({
      front: expect.stringMatching(/\/parts\/FRONT$/),
      back: expect.stringMatching(/\/parts\/BACK$/),
    });
    expect(state.selfie.api.parts).toEqual({ face: expect.stringMatching(/\/parts\/FACE$/) });
  });

  it('3. uploads the ID front and back and the selfie with the transaction token (C2)', async () => {
    const f = await upload(sim, state.id.api.parts.front, state.tx, images.front());
    expect(f.status, f.text).toBe(200);
    expect(f.json).toMatchObject({
      account: { id: state.accountId },
      workflowExecution: { id: state.executionId },
      credential: { id: state.id.id },
      part: { id: expect.any(String) },
      api: { token: state.tx },
    });
    expect((await upload(sim, state.id.api.parts.back, state.tx, images.back())).status).toBe(200);
    expect((await upload(sim, state.selfie.api.parts.face, state.tx, images.face())).status).toBe(200);
    const status = await statusOf(sim, state.access, state);
    expect(status.json.workflowExecution.status).toBe('INITIATED');
  });

  it('4. finalizes the workflow execution (C5) and it moves to ACQUIRED then PROCESSED', async () => {
    const r = await call(sim, 'PUT', state.id.api.workflowExecution, { token: state.tx });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      timestamp: expect.any(String),
      account: { id: state.accountId },
      workflowExecution: { id: state.executionId },
    });
    const s = await statusOf(sim, state.access, state);
    expect(['ACQUIRED', 'PROCESSED']).toContain(s.json.workflowExecution.status);
  });

  it('5. receives the callback with the real shape and no personal data', async () => {
    const cb = await waitFor(() => hook.received.find((x) => x.body.workflowExecution?.id === state.executionId), 5000);
    expect(cb.body).toEqual({
      callbackSentAt: expect.any(String),
      userReference: 'cust-42',
      workflowExecution: {
        id: state.executionId,
        href: `${sim.url}/api/v1/workflow-executions/${state.executionId}`,
        definitionKey: '10013',
        status: 'PROCESSED',
      },
      account: { id: state.accountId, href: `${sim.url}/api/v1/accounts/${state.accountId}` },
    });
    state.callbackHref = cb.body.workflowExecution.href;
  });

  it('6. retrieves the result through the callback link (R4) and the account path (R2)', async () => {
    const viaLink = await call(sim, 'GET', state.callbackHref, { token: state.access });
    expect(viaLink.status).toBe(200);
    const r = await call(sim, 'GET', `/api/v1/accounts/${state.accountId}/workflow-executions/${state.executionId}`, {
      token: state.access,
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual(viaLink.json);
    const res = r.json;
    expect(res.workflow).toMatchObject({
      id: state.executionId,
      status: 'PROCESSED',
      definitionKey: '10013',
      userReference: 'cust-42',
      customerInternalReference: 'journey-0001',
      reportingCriteria: 'journey-test',
    });
    expect(['PASSED', 'WARNING', 'REJECTED']).toContain(res.decision.type);
    expect(res.decision.risk.score).toBeGreaterThanOrEqual(0);
    expect(Object.keys(res.capabilities)).toEqual(
      expect.arrayContaining([
        'usability',
        'imageChecks',
        'extraction',
        'liveness',
        'similarity',
        'watchlistScreening',
      ]),
    );
    expect(res.capabilities.extraction[0].data).toMatchObject({
      issuingCountry: 'FRA',
      type: 'ID_CARD',
      firstName: expect.any(String),
      documentNumber: expect.any(String),
    });
    expect(
      res.credentials
        .find((c: Json) => c.category === 'ID')
        .parts.map((p: Json) => p.classifier)
        .sort(),
    ).toEqual(['BACK', 'FRONT']);
    expect(res.captureClient.state[0]).toEqual([
      'started',
      'id-front-uploaded',
      'id-back-uploaded',
      'selfie-uploaded',
      'finalized',
    ]);
    expect(res.consent).toMatchObject({ obtained: 'yes' });
    expect(res.steps.href).toBe(
      `${sim.url}/api/v1/accounts/${state.accountId}/workflow-executions/${state.executionId}/steps`,
    );
    state.result = res;
  });

  it('7. retrieves the steps (R7) and the rule executions (R8) consistent with the result', async () => {
    const steps = await call(sim, 'GET', state.result.steps.href, { token: state.access });
    expect(steps.status).toBe(200);
    const ids = new Set(
      Object.values(state.result.capabilities)
        .flat()
        .map((e: any) => e.id),
    );
    for (const s of steps.json.steps) for (const id of s.capabilityIds) expect(ids.has(id)).toBe(true);
    const rules = await call(
      sim,
      'GET',
      `/api/v1/accounts/${state.accountId}/workflow-executions/${state.executionId}/rules`,
      { token: state.access },
    );
    expect(rules.status).toBe(200);
    expect(rules.json.executions[0].rulesets[0]).toMatchObject({
      id: expect.any(String),
      rulesMatched: expect.any(Array),
      rulesNotMatched: expect.any(Array),
    });
    expect(rules.json).toEqual(state.result.rules);
  });

  it('8. downloads the uploaded images back (R1), byte for byte', async () => {
    const res = await fetch(`${sim.url}/api/v1/accounts/${state.accountId}/credentials/${state.id.id}/parts/FRONT`, {
      headers: { authorization: `Bearer ${state.access}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(images.front())).toBe(true);
  });

  it('9. sends FRAUD feedback (R11) and sees it in the result feedback', async () => {
    const r = await call(
      sim,
      'PUT',
      `/api/v1/accounts/${state.accountId}/workflow-executions/${state.executionId}/feedback`,
      { token: state.access, body: { status: 'FRAUD', reason: 'IDENTITY_FRAUD' } },
    );
    expect(r.status, r.text).toBe(200);
    const again = await call(
      sim,
      'GET',
      `/api/v1/accounts/${state.accountId}/workflow-executions/${state.executionId}`,
      { token: state.access },
    );
    expect(again.json.feedback).toEqual({ status: 'FRAUD', reason: 'IDENTITY_FRAUD', providedAt: expect.any(String) });
  });

  it('10. deletes the execution (R3): parts and details are gone, the record remains with wipedOutAt', async () => {
    const del = await call(
      sim,
      'DELETE',
      `/api/v1/accounts/${state.accountId}/workflow-executions/${state.executionId}`,
      { token: state.access },
    );
    expect(del.status).toBe(200);
    const part = await call(sim, 'GET', `/api/v1/accounts/${state.accountId}/credentials/${state.id.id}/parts/FRONT`, {
      token: state.access,
    });
    expectProblem(part, 404);
    expectProblem(await call(sim, 'GET', state.result.steps.href, { token: state.access }), 404);
    expectProblem(
      await call(sim, 'GET', `/api/v1/accounts/${state.accountId}/workflow-executions/${state.executionId}/rules`, {
        token: state.access,
      }),
      404,
    );
    const r = await call(sim, 'GET', `/api/v1/accounts/${state.accountId}/workflow-executions/${state.executionId}`, {
      token: state.access,
    });
    expect(r.status).toBe(200);
    expect(r.json.wipedOutAt).toEqual(expect.any(String));
    expect(r.json.capabilities.extraction[0].data).toBeUndefined();
    expect(r.json.decision.type).toBe(state.result.decision.type);
  });

  it('11. deletes the account (R10): the account is gone', async () => {
    const del = await call(sim, 'DELETE', `/api/v1/accounts/${state.accountId}`, { token: state.access });
    expect(del.status).toBe(200);
    expectProblem(await call(sim, 'GET', `/api/v1/accounts/${state.accountId}`, { token: state.access }), 404);
  });
});
