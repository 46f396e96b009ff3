import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '@/lib/simulator';
import { expectValidDocument, responseChecker } from '../support/openapi';
import { basic, call, createAccount, start, token, type Json } from './helpers';

/**
 * The simulator's OpenAPI document (GET /openapi.json): a valid OpenAPI 3.1 document, and the
 * real answers of every operation in it, successes and errors, match its response schemas.
 */
let sim: RunningSimulator;
let access: string;
let doc: Json;
let checker: ReturnType<typeof responseChecker>;

beforeAll(async () => {
  sim = await start();
  access = await token(sim);
  const r = await call(sim, 'GET', '/openapi.json');
  expect(r.status).toBe(200);
  doc = r.json;
  checker = responseChecker(doc);
});
afterAll(async () => {
  await sim?.close();
});

const check = (path: string, method: string, r: { status: number; json: Json; headers: Headers }) =>
  checker.checkBody(path, method, r.status, (r.headers.get('content-type') ?? '').split(';')[0].trim(), r.json);

describe('the simulator OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document generated from the zod schemas', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expectValidDocument(doc);
    const body = doc.paths['/api/v1/accounts'].post.requestBody.content['application/json'].schema;
    expect(body.$ref ?? body).toBeTruthy();
  });

  it('documents the open sets as open: a category or document type not seen yet is allowed', () => {
    const text = JSON.stringify(doc.components.schemas);
    expect(text).toContain('the spec lists the values seen, not all of them');
    expect(doc.components.schemas.PreparedData.additionalProperties).not.toBe(false);
  });

  it('health, token, A1, A2, C3 and R11 answer as documented, errors included', async () => {
    check('/', 'get', await call(sim, 'GET', '/'));

    const tokenPath = '/oauth2/token';
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    check(
      tokenPath,
      'post',
      await call(sim, 'POST', tokenPath, {
        raw: 'grant_type=client_credentials',
        headers: { ...form, authorization: basic(sim) },
      }),
    );
    check(
      tokenPath,
      'post',
      await call(sim, 'POST', tokenPath, {
        raw: 'grant_type=password',
        headers: { ...form, authorization: basic(sim) },
      }),
    );
    check(
      tokenPath,
      'post',
      await call(sim, 'POST', tokenPath, { raw: 'grant_type=client_credentials', headers: form }),
    );

    const acc = await createAccount(sim, access, {
      workflowDefinition: { key: '10031', credentials: [{ category: 'DATA' }, { category: 'PROOF_OF_ADDRESS' }] },
    });
    check('/api/v1/accounts', 'post', {
      status: 200,
      json: acc.body,
      headers: new Headers({ 'content-type': 'application/json' }),
    });
    check(
      '/api/v1/accounts',
      'post',
      await call(sim, 'POST', '/api/v1/accounts', { token: access, body: { customerInternalReference: 5 } }),
    );
    check('/api/v1/accounts', 'post', await call(sim, 'POST', '/api/v1/accounts', { body: {} }));

    const a2 = '/api/v1/accounts/{accountId}';
    const a2Body = { customerInternalReference: 'contract-openapi', workflowDefinition: { key: '10031' } };
    check(a2, 'put', await call(sim, 'PUT', `/api/v1/accounts/${acc.accountId}`, { token: access, body: a2Body }));
    check(
      a2,
      'put',
      await call(sim, 'PUT', `/api/v1/accounts/${crypto.randomUUID()}`, { token: access, body: a2Body }),
    );

    const c3 =
      '/api/v1/accounts/{accountId}/workflow-executions/{workflowExecutionId}/credentials/{credentialId}/parts/PREPARED_DATA';
    const c3Url = acc.creds.DATA.api.parts.prepared_data;
    check(
      c3,
      'post',
      await call(sim, 'POST', c3Url, { token: acc.txToken, body: { firstName: 'Ada', hobby: 'chess' } }),
    );
    check(c3, 'post', await call(sim, 'POST', c3Url, { token: acc.txToken, body: { dateOfBirth: '1990-02-30' } }));

    const r11 = '/api/v1/accounts/{accountId}/workflow-executions/{workflowExecutionId}/feedback';
    const list = (await call(sim, 'GET', '/api/v1/workflow-executions?size=50', { token: access })).json
      .workflowExecutions as Json[];
    const done = list.find((x) => x.workflow.status === 'PROCESSED' && !x.wipedOutAt && !x.feedback)!;
    const fbUrl = `/api/v1/accounts/${done.account.id}/workflow-executions/${done.workflow.id}/feedback`;
    check(
      r11,
      'put',
      await call(sim, 'PUT', fbUrl, { token: access, body: { status: 'FRAUD', reason: 'ACCOUNT_TAKEOVER' } }),
    );
    check(r11, 'put', await call(sim, 'PUT', fbUrl, { token: access, body: { status: 'FRAUD' } }));

    expect([...checker.seen].sort()).toEqual(
      [
        'get / 200',
        'post /oauth2/token 200',
        'post /oauth2/token 400',
        'post /oauth2/token 401',
        'post /api/v1/accounts 200',
        'post /api/v1/accounts 400',
        'post /api/v1/accounts 401',
        'put /api/v1/accounts/{accountId} 200',
        'put /api/v1/accounts/{accountId} 404',
        `post ${c3} 200`,
        `post ${c3} 400`,
        `put ${r11} 200`,
        `put ${r11} 400`,
      ].sort(),
    );
  });
});
