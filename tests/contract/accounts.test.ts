// A1, A2: the account request table, the account response table, and their limits.
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '@/lib/simulator';
import {
  accountBody,
  call,
  createAccount,
  expectProblem,
  rawRequest,
  start,
  startSignedIn,
  statusOf,
  token,
  UA,
  type Json,
} from './helpers';

let sim: RunningSimulator;
let access: string;
beforeAll(async () => {
  ({ sim, access } = await startSignedIn());
});
afterAll(() => sim.close());

const create = (body: Json, headers: Record<string, string> = {}) =>
  call(sim, 'POST', '/api/v1/accounts', { token: access, body, headers });
const withDef = (wd: Json, over: Json = {}) => accountBody({ workflowDefinition: { key: '10013', ...wd }, ...over });

describe('A1: create account', () => {
  it('Endpoints A1: POST /api/v1/accounts with User-Agent and the account request returns 200 and the account response', async () => {
    const r = await create(accountBody());
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      timestamp: expect.any(String),
      account: { id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      web: expect.any(Object),
      sdk: { token: expect.any(String) },
      workflowExecution: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), credentials: expect.any(Array) },
    });
    expect(Date.parse(r.json.timestamp)).not.toBeNaN();
  });

  it('Account response: each credential entry has id, label, category, country, type, allowedChannels and api', async () => {
    const r = await create(accountBody());
    const id = r.json.workflowExecution.credentials.find((c: Json) => c.category === 'ID');
    expect(id).toMatchObject({
      id: expect.any(String),
      label: expect.any(String),
      category: 'ID',
      country: { predefinedType: 'DEFINED', values: ['DEU'] },
      type: { predefinedType: 'DEFINED', values: ['ID_CARD', 'PASSPORT'] },
      allowedChannels: ['WEB', 'API', 'SDK'],
      api: { token: expect.any(String), parts: expect.any(Object), workflowExecution: expect.any(String) },
    });
  });

  it('Account response: api.workflowExecution is the URL of the workflow execution used for finalization', async () => {
    const acc = await createAccount(sim, access);
    expect(acc.creds.ID.api.workflowExecution).toBe(
      `${sim.url}/api/v1/accounts/${acc.accountId}/workflow-executions/${acc.executionId}`,
    );
  });

  it('Part names per category: ID -> front, back; SELFIE -> face; DATA -> prepared_data; FACEMAP -> none', async () => {
    const r = await create(
      withDef({
        key: 'custom-1',
        credentials: [{ category: 'ID' }, { category: 'SELFIE' }, { category: 'DATA' }, { category: 'FACEMAP' }],
      }),
    );
    expect(r.status, r.text).toBe(200);
    const by = Object.fromEntries(r.json.workflowExecution.credentials.map((c: Json) => [c.category, c]));
    const w = r.json.workflowExecution.id,
      a = r.json.account.id;
    const base = `${sim.url}/api/v1/accounts/${a}/workflow-executions/${w}/credentials`;
    expect(by.ID.api.parts).toEqual({
      front: `${base}/${by.ID.id}/parts/FRONT`,
      back: `${base}/${by.ID.id}/parts/BACK`,
    });
    expect(by.SELFIE.api.parts).toEqual({ face: `${base}/${by.SELFIE.id}/parts/FACE` });
    expect(by.DATA.api.parts).toEqual({ prepared_data: `${base}/${by.DATA.id}/parts/PREPARED_DATA` });
    expect(by.FACEMAP.api).toBeUndefined();
  });

  it('Account response: a credential limited to WEB and SDK has no api member', async () => {
    const r = await create(
      withDef({ credentials: [{ category: 'ID', allowedChannels: ['WEB', 'SDK'] }, { category: 'SELFIE' }] }),
    );
    expect(r.status).toBe(200);
    const id = r.json.workflowExecution.credentials.find((c: Json) => c.category === 'ID');
    expect(id.allowedChannels).toEqual(['WEB', 'SDK']);
    expect(id.api).toBeUndefined();
  });

  it('C4: a DOCUMENT credential gets an api.parts.document upload URL', async () => {
    const r = await create(withDef({ key: 'doc-1', credentials: [{ category: 'DOCUMENT' }] }));
    expect(r.status).toBe(200);
    expect(r.json.workflowExecution.credentials[0].api.parts).toEqual({
      document: expect.stringMatching(/\/parts\/DOCUMENT$/),
    });
  });

  it('Authentication 6: account create yields a transaction token (api.token) and an SDK token (sdk.token) for that execution', async () => {
    const acc = await createAccount(sim, access);
    expect(decodeJwt(acc.txToken)).toMatchObject({ kind: 'transaction', wid: acc.executionId });
    expect(decodeJwt(acc.sdkToken)).toMatchObject({ kind: 'sdk', wid: acc.executionId });
  });

  it('Header User-Agent is required on account create (400 without it)', async () => {
    const r = await rawRequest(
      sim,
      'POST',
      '/api/v1/accounts',
      { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
      JSON.stringify(accountBody()),
    );
    expectProblem(r, 400, /User-Agent/);
  });

  it('Authentication 1: account create without a bearer token gets 401', async () => {
    expectProblem(await call(sim, 'POST', '/api/v1/accounts', { body: accountBody() }), 401);
  });

  it('Account request: customerInternalReference is required', async () => {
    const b = accountBody();
    delete b.customerInternalReference;
    expectProblem(await create(b), 400, /^customerInternalReference: is required/);
  });

  it('Account request: workflowDefinition is required', async () => {
    const b = accountBody();
    delete b.workflowDefinition;
    expectProblem(await create(b), 400, /^workflowDefinition: is required/);
  });

  it('Account request: workflowDefinition.key is required', async () => {
    expectProblem(
      await create(accountBody({ workflowDefinition: { credentials: [{ category: 'ID' }] } })),
      400,
      /workflowDefinition\.key/,
    );
  });

  it('Account request: definitionKey may be sent as a number and comes back as a string', async () => {
    const acc = await createAccount(sim, access, { workflowDefinition: { key: 10013 } });
    const r = await statusOf(sim, access, acc);
    expect(r.json.workflowExecution.definitionKey).toBe('10013');
  });

  it('Account request: credentials of a known definition key default from the definition', async () => {
    const r = await create(accountBody({ workflowDefinition: { key: '10013' } }));
    expect(r.status).toBe(200);
    expect(r.json.workflowExecution.credentials.map((c: Json) => c.category)).toEqual(['ID', 'SELFIE']);
  });

  it('Account request: an unknown definition key without credentials is refused (400)', async () => {
    expectProblem(
      await create(accountBody({ workflowDefinition: { key: 'nope' } })),
      400,
      /workflowDefinition\.credentials/,
    );
  });

  it.each([
    ['userReference', 100, 'u'],
    ['customerInternalReference', 100, 'c'],
    ['reportingCriteria', 255, 'r'],
  ] as const)(
    'Limits: %s 1..%i characters — the longest accepted, longer and empty rejected with 400',
    async (field, max, fill) => {
      expect((await create(accountBody({ [field]: fill.repeat(max) }))).status).toBe(200);
      expectProblem(
        await create(accountBody({ [field]: fill.repeat(max + 1) })),
        400,
        new RegExp(`^${field}: must be 1\\.\\.${max} characters`),
      );
      expectProblem(await create(accountBody({ [field]: '' })), 400, new RegExp(`^${field}`));
    },
  );

  it('Limits: callbackUrl 1..255 characters — 255 accepted, 256 rejected with 400', async () => {
    const base = 'https://hooks.example.com/';
    expect((await create(accountBody({ callbackUrl: base + 'a'.repeat(255 - base.length) }))).status).toBe(200);
    expectProblem(
      await create(accountBody({ callbackUrl: base + 'a'.repeat(256 - base.length) })),
      400,
      /^callbackUrl: must be 1\.\.255/,
    );
  });

  it('Account request: callbackUrl must be an absolute http(s) URL', async () => {
    expectProblem(await create(accountBody({ callbackUrl: 'not a url' })), 400, /callbackUrl/);
    expectProblem(await create(accountBody({ callbackUrl: 'ftp://example.com/x' })), 400, /callbackUrl/);
  });

  it('Account request: tokenLifetime format — optional sign, digits, one unit letter s, m, h or d', async () => {
    for (const ok of ['300s', '5m', '+30m', '2h', '60d'])
      expect((await create(accountBody({ tokenLifetime: ok }))).status, ok).toBe(200);
    for (const badValue of ['30', 'm30', '30min', '1.5h', '30 m', '30M', ''])
      expectProblem(await create(accountBody({ tokenLifetime: badValue })), 400, /^tokenLifetime/);
  });

  it('Account request: tokenLifetime outside 5 minutes .. 60 days is refused (e.g. -5m, 299s, 61d)', async () => {
    for (const v of ['-5m', '299s', '61d'])
      expectProblem(
        await create(accountBody({ tokenLifetime: v })),
        400,
        /^tokenLifetime: must be between 5 minutes and 60 days/,
      );
  });

  it('Account request: web {successUrl, errorUrl, locale} are strings and are accepted', async () => {
    const r = await create(
      accountBody({ web: { successUrl: 'https://example.com/ok', errorUrl: 'https://example.com/err', locale: 'de' } }),
    );
    expect(r.status).toBe(200);
    expect(r.json.web).toMatchObject({
      successUrl: 'https://example.com/ok',
      errorUrl: 'https://example.com/err',
      locale: 'de',
    });
    expectProblem(await create(accountBody({ web: { locale: 5 } })), 400, /^web\.locale/);
  });

  it('workflowDefinition.credentials[].category: values seen are documented, other values accepted and echoed (the list is open)', async () => {
    const r = await create(withDef({ credentials: [{ category: 'ID' }, { category: 'PROOF_OF_ADDRESS' }] }));
    expect(r.status).toBe(200);
    const other = r.json.workflowExecution.credentials.find((c: Json) => c.category === 'PROOF_OF_ADDRESS');
    expect(other).toMatchObject({ category: 'PROOF_OF_ADDRESS', label: 'PROOF_OF_ADDRESS' });
    expectProblem(
      await create(withDef({ credentials: [{ category: '' }] })),
      400,
      /^workflowDefinition\.credentials\[0\]\.category: must be a non-empty string/,
    );
    expectProblem(
      await create(withDef({ credentials: [{ category: 7 }] })),
      400,
      /^workflowDefinition\.credentials\[0\]\.category/,
    );
  });

  it('workflowDefinition.credentials[].country: values are three-letter country codes', async () => {
    expectProblem(
      await create(
        withDef({ credentials: [{ category: 'ID', country: { predefinedType: 'DEFINED', values: ['DE'] } }] }),
      ),
      400,
      /country\.values\[0\]: must be a three-letter country code/,
    );
  });

  it('workflowDefinition.credentials[].type: values seen PASSPORT, DRIVING_LICENSE, ID_CARD, VISA, UNSUPPORTED; others accepted', async () => {
    expect(
      (
        await create(
          withDef({
            credentials: [
              {
                category: 'ID',
                type: {
                  predefinedType: 'DEFINED',
                  values: ['PASSPORT', 'DRIVING_LICENSE', 'ID_CARD', 'VISA', 'UNSUPPORTED'],
                },
              },
            ],
          }),
        )
      ).status,
    ).toBe(200);
    // The list of types is open: a type not seen yet is accepted; a non-string still is not.
    expect(
      (
        await create(
          withDef({
            credentials: [{ category: 'ID', type: { predefinedType: 'DEFINED', values: ['RESIDENCE_PERMIT'] } }],
          }),
        )
      ).status,
    ).toBe(200);
    expectProblem(
      await create(withDef({ credentials: [{ category: 'ID', type: { predefinedType: 'DEFINED', values: [5] } }] })),
      400,
      /type\.values\[0\]/,
    );
  });

  it('workflowDefinition.credentials[].id must be a UUID of a credential of this account', async () => {
    expectProblem(await create(withDef({ credentials: [{ category: 'ID', id: 'abc' }] })), 400, /id: must be a UUID/);
    expectProblem(
      await create(withDef({ credentials: [{ category: 'ID', id: '8d0c1f7e-1a2b-4c3d-8e4f-5a6b7c8d9e0f' }] })),
      400,
      /no credential/,
    );
  });

  it('Channels: FACEMAP is WEB/SDK only — asking for API is refused', async () => {
    expectProblem(
      await create(withDef({ credentials: [{ category: 'FACEMAP', allowedChannels: ['API'] }] })),
      400,
      /FACEMAP/,
    );
  });

  it('Channels: values seen WEB, API, SDK; a channel not seen yet is accepted and echoed (the list is open)', async () => {
    const r = await create(withDef({ credentials: [{ category: 'ID', allowedChannels: ['WEB', 'KIOSK'] }] }));
    expect(r.status).toBe(200);
    const [id] = r.json.workflowExecution.credentials;
    expect(id.allowedChannels).toEqual(['WEB', 'KIOSK']);
    expect(id.api).toBeUndefined();
    expectProblem(
      await create(withDef({ credentials: [{ category: 'ID', allowedChannels: [5] }] })),
      400,
      /allowedChannels\[0\]/,
    );
    expectProblem(
      await create(withDef({ credentials: [{ category: 'ID', allowedChannels: [''] }] })),
      400,
      /allowedChannels\[0\]: must be a non-empty string/,
    );
  });

  it('Account request: at most one credential per category', async () => {
    expectProblem(
      await create(withDef({ credentials: [{ category: 'ID' }, { category: 'ID' }] })),
      400,
      /at most one ID credential/,
    );
  });

  it('capabilities: watchlistScreening {}, documentVerification.enableExtraction boolean, ekycCheck.searchType string, workflowDecision ruleset ids, ruleset.ids array', async () => {
    const ok = withDef({
      capabilities: {
        watchlistScreening: {},
        documentVerification: { enableExtraction: true },
        ekycCheck: { searchType: '1+1' },
        workflowDecision: { riskScoreRulesetId: 'rs-1', decisionLabelRulesetId: 'rs-2' },
        ruleset: { ids: ['a', 'b'] },
      },
    });
    expect((await create(ok)).status).toBe(200);
    expectProblem(
      await create(withDef({ capabilities: { documentVerification: { enableExtraction: 'yes' } } })),
      400,
      /enableExtraction: must be a boolean/,
    );
    expectProblem(await create(withDef({ capabilities: { ruleset: { ids: 'a' } } })), 400, /ruleset\.ids/);
    expectProblem(
      await create(withDef({ capabilities: { ekycCheck: { searchType: 2 } } })),
      400,
      /ekycCheck\.searchType/,
    );
  });

  it('userConsent: userIp, userLocation {country, state}, consent {obtained, obtainedAt timestamp}', async () => {
    expectProblem(await create(accountBody({ userConsent: { userIp: 'not-an-ip' } })), 400, /^userConsent\.userIp/);
    expectProblem(
      await create(accountBody({ userConsent: { consent: { obtained: 'yes', obtainedAt: 'yesterday' } } })),
      400,
      /^userConsent\.consent\.obtainedAt/,
    );
    expectProblem(
      await create(accountBody({ userConsent: { consent: { obtainedAt: '2026-01-01T00:00:00Z' } } })),
      400,
      /^userConsent\.consent\.obtained/,
    );
  });

  it('overrideSettings: a map of string keys to string values', async () => {
    expect((await create(accountBody({ overrideSettings: { a: 'b' } }))).status).toBe(200);
    expectProblem(await create(accountBody({ overrideSettings: { a: 1 } })), 400, /^overrideSettings/);
  });

  it('Errors 3: wrong types get 400 naming the field (customerInternalReference as a number)', async () => {
    expectProblem(
      await create(accountBody({ customerInternalReference: 42 })),
      400,
      /^customerInternalReference: must be a string/,
    );
  });

  it('Errors 3: a body that is not a JSON object gets 400', async () => {
    expectProblem(await create([1, 2] as unknown as Json), 400, /JSON object/);
  });
});

describe('A2: update existing account', () => {
  it('Endpoints A2: PUT /api/v1/accounts/{accountId} returns 200 and a new workflow execution on the same account', async () => {
    const a = await createAccount(sim, access);
    const r = await call(sim, 'PUT', `/api/v1/accounts/${a.accountId}`, {
      token: access,
      body: accountBody({ customerInternalReference: 'second' }),
    });
    expect(r.status).toBe(200);
    expect(r.json.account.id).toBe(a.accountId);
    expect(r.json.workflowExecution.id).not.toBe(a.executionId);
    const acc = await call(sim, 'GET', `/api/v1/accounts/${a.accountId}`, { token: access });
    expect(acc.json.workflowExecutions.map((x: Json) => x.id).sort()).toEqual(
      [a.executionId, r.json.workflowExecution.id].sort(),
    );
  });

  it('A2: the new execution links to the previous one (parentId / childIds)', async () => {
    const a = await createAccount(sim, access);
    const r = await call(sim, 'PUT', `/api/v1/accounts/${a.accountId}`, { token: access, body: accountBody() });
    const child = await call(
      sim,
      'GET',
      `/api/v1/accounts/${a.accountId}/workflow-executions/${r.json.workflowExecution.id}`,
      { token: access },
    );
    expect(child.json.workflow.parentId).toBe(a.executionId);
    const parent = await call(sim, 'GET', `/api/v1/accounts/${a.accountId}/workflow-executions/${a.executionId}`, {
      token: access,
    });
    expect(parent.json.workflow.childIds).toEqual([r.json.workflowExecution.id]);
  });

  it('Header User-Agent is required on account update (400 without it)', async () => {
    const a = await createAccount(sim, access);
    const r = await rawRequest(
      sim,
      'PUT',
      `/api/v1/accounts/${a.accountId}`,
      { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
      JSON.stringify(accountBody()),
    );
    expectProblem(r, 400, /User-Agent/);
  });

  it('A2: the same body rules apply (customerInternalReference 101 characters -> 400)', async () => {
    const a = await createAccount(sim, access);
    expectProblem(
      await call(sim, 'PUT', `/api/v1/accounts/${a.accountId}`, {
        token: access,
        body: accountBody({ customerInternalReference: 'x'.repeat(101) }),
      }),
      400,
      /customerInternalReference/,
    );
  });

  it('A2: an unknown account id gets 404; an invalid one gets 400', async () => {
    expectProblem(
      await call(sim, 'PUT', '/api/v1/accounts/8d0c1f7e-1a2b-4c3d-8e4f-5a6b7c8d9e0f', {
        token: access,
        body: accountBody(),
      }),
      404,
    );
    expectProblem(
      await call(sim, 'PUT', '/api/v1/accounts/not-a-uuid', { token: access, body: accountBody() }),
      400,
      /accountId must be a UUID/,
    );
  });

  it('A2: a credential id from an earlier execution of the account is reused with its parts', async () => {
    const a = await createAccount(sim, access);
    const r = await call(sim, 'PUT', `/api/v1/accounts/${a.accountId}`, {
      token: access,
      body: accountBody({
        workflowDefinition: {
          key: '10013',
          credentials: [{ category: 'ID', id: a.creds.ID.id }, { category: 'SELFIE' }],
        },
      }),
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.workflowExecution.credentials[0].id).toBe(a.creds.ID.id);
  });

  it('A2: updating a generated (demo) account works and keeps its executions', async () => {
    const list = await call(sim, 'GET', '/api/v1/workflow-executions?size=5&page=3', { token: access });
    const seeded = list.json.workflowExecutions[0];
    const r = await call(sim, 'PUT', `/api/v1/accounts/${seeded.account.id}`, { token: access, body: accountBody() });
    expect(r.status).toBe(200);
    const acc = await call(sim, 'GET', `/api/v1/accounts/${seeded.account.id}`, { token: access });
    const ids = acc.json.workflowExecutions.map((x: Json) => x.id);
    expect(ids).toContain(seeded.workflow.id);
    expect(ids).toContain(r.json.workflowExecution.id);
  });
});

describe('Rate limits of account requests (service facts: 1 per second with short bursts)', () => {
  it('account create beyond the burst gets 429 with Retry-After', async () => {
    const s = await start({ rateLimits: { accountPerSec: 1, accountBurst: 3 } });
    try {
      const t = await token(s);
      const codes: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 5; i++) {
        const r = await call(s, 'POST', '/api/v1/accounts', {
          token: t,
          body: accountBody(),
          headers: { 'user-agent': UA },
        });
        codes.push(r.status);
        if (r.status === 429) {
          retryAfter = r.headers.get('retry-after');
          expect(r.json).toEqual({ title: 'Too Many Requests', status: 429, detail: 'Request limit exceeded' });
        }
      }
      expect(codes.slice(0, 3)).toEqual([200, 200, 200]);
      expect(codes.slice(3)).toEqual([429, 429]);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    } finally {
      await s.close();
    }
  });
});
