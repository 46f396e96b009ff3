import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '@/lib/simulator';
import { expectValidDocument, responseChecker } from '../support/openapi';
import { basic, call, createAccount, fileForm, images, start, token, waitFor, type Json } from './helpers';

/**
 * The simulator's OpenAPI document (GET /openapi.json): a valid OpenAPI 3.1 document that
 * covers every operation, and the real answers of every operation in it, successes and errors,
 * match the response schemas it declares for their status and media type.
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

type Opts = Parameters<typeof call>[3];
/** Calls the simulator and checks the answer against the document's entry for `docPath`. */
async function hit(method: string, docPath: string, url: string, opts: Opts = {}) {
  const r = await call(sim, method.toUpperCase(), url, opts);
  const type = (r.headers.get('content-type') ?? '').split(';')[0].trim();
  if (type === 'application/json') checker.checkBody(docPath, method, r.status, type, r.json);
  else checker.checkMedia(docPath, method, r.status, type);
  return r;
}

const EXEC = '/api/v1/accounts/{accountId}/workflow-executions/{workflowExecutionId}';
const CRED = `${EXEC}/credentials/{credentialId}`;
const OPERATIONS = [
  'T',
  'A1',
  'A2',
  'C1',
  'C2',
  'C3',
  'C4',
  'C5',
  'C6',
  'C7',
  ...Array.from({ length: 12 }, (_, i) => `R${i + 1}`),
];

describe('the simulator OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document with every operation of the spec', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expectValidDocument(doc);
    const ids = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((ops) =>
      Object.values(ops).map((o) => o.operationId),
    );
    for (const id of [
      ...OPERATIONS,
      'health',
      'webPage',
      'webCapture',
      'sdkState',
      'sdkCapture',
      'getFaults',
      'setFaults',
      'reset',
      'callbacks',
      'stats',
      'sweep',
    ])
      expect(ids, id).toContain(id);
  });

  it('documents the open sets as open: a category, channel or document type not seen yet is allowed', () => {
    const text = JSON.stringify(doc.components.schemas);
    for (const what of ['categories', 'channels', 'document types'])
      expect(text).toContain(`Other ${what}: the spec lists the values seen, not all of them.`);
    expect(doc.components.schemas.PreparedData.additionalProperties).not.toBe(false);
  });

  it('every operation answers as documented, successes and errors', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const tokenBody = (grant: string, auth = true) => ({
      raw: `grant_type=${grant}`,
      headers: { ...form, ...(auth ? { authorization: basic(sim) } : {}) },
    });
    await hit('get', '/', '/');
    await hit('post', '/oauth2/token', '/oauth2/token', tokenBody('client_credentials'));
    await hit('post', '/oauth2/token', '/oauth2/token', tokenBody('password'));
    await hit('post', '/oauth2/token', '/oauth2/token', tokenBody('client_credentials', false));

    // A1 with open-set values: a category and a channel the spec does not list.
    const acc = await createAccount(sim, access, {
      workflowDefinition: {
        key: '10031',
        credentials: [
          { category: 'ID' },
          { category: 'SELFIE' },
          { category: 'DATA' },
          { category: 'DOCUMENT' },
          { category: 'PROOF_OF_ADDRESS', allowedChannels: ['WEB', 'KIOSK'] },
        ],
      },
    });
    checker.checkBody('/api/v1/accounts', 'post', 200, 'application/json', acc.body);
    await hit('post', '/api/v1/accounts', '/api/v1/accounts', {
      token: access,
      body: { customerInternalReference: 5 },
    });
    await hit('post', '/api/v1/accounts', '/api/v1/accounts', { body: {} });
    const a2Body = { customerInternalReference: 'contract-openapi', workflowDefinition: { key: '10031' } };
    const account = (id: string) => `/api/v1/accounts/${id}`;
    const A = '/api/v1/accounts/{accountId}';
    await hit('put', A, account(acc.accountId), { token: access, body: a2Body });
    await hit('put', A, account(crypto.randomUUID()), { token: access, body: a2Body });
    await hit('get', A, account(acc.accountId), { token: access });
    await hit('get', A, account('not-a-uuid'), { token: access });

    // C1-C7 with the transaction token.
    const tx = { token: acc.txToken };
    const parts = acc.creds.ID.api.parts;
    await hit('post', `${CRED}/parts/{classifier}`, parts.front, { ...tx, raw: fileForm(images.front()) });
    await hit('put', `${CRED}/parts/{classifier}`, parts.front, { ...tx, raw: fileForm(images.front()) });
    await hit('post', `${CRED}/parts/{classifier}`, parts.back, { ...tx, raw: fileForm(images.back()) });
    await hit('put', `${CRED}/parts/{classifier}`, parts.back, { ...tx, raw: 'not multipart' });
    await hit('delete', `${CRED}/parts/{classifier}`, parts.back, tx);
    await hit('delete', `${CRED}/parts/{classifier}`, parts.back, tx);
    await hit('post', `${CRED}/parts/{classifier}`, acc.creds.SELFIE.api.parts.face, {
      ...tx,
      raw: fileForm(images.face()),
    });
    const other = await createAccount(sim, access);
    await hit('post', `${CRED}/parts/{classifier}`, parts.front, {
      token: other.txToken,
      raw: fileForm(images.front()),
    });
    await hit('post', `${CRED}/parts/{classifier}`, parts.front, { raw: fileForm(images.front()) });
    const data = acc.creds.DATA.api.parts.prepared_data;
    await hit('post', `${CRED}/parts/PREPARED_DATA`, data, { ...tx, body: { firstName: 'Ada', hobby: 'chess' } });
    await hit('post', `${CRED}/parts/PREPARED_DATA`, data, { ...tx, body: { dateOfBirth: '1990-02-30' } });
    const document = acc.creds.DOCUMENT.api.parts.document;
    await hit('post', `${CRED}/parts/DOCUMENT`, document, { ...tx, raw: fileForm([images.front(), images.back()]) });
    await hit('delete', CRED, document.replace(/\/parts\/DOCUMENT$/, ''), tx);
    await hit('post', `${CRED}/parts/DOCUMENT`, document, { ...tx, raw: fileForm(images.front()) });
    const exec = `/api/v1/accounts/${acc.accountId}/workflow-executions/${acc.executionId}`;
    const finalized = await hit('put', EXEC, exec, tx);
    expect(finalized.status, finalized.text).toBe(200);
    await hit('put', EXEC, exec, { token: access });

    // R1-R12 with the access token, on the finalized execution once it is processed.
    const status = `${exec}/status`;
    await waitFor(
      async () => (await call(sim, 'GET', status, { token: access })).json.workflowExecution.status === 'PROCESSED',
      10_000,
    );
    await hit('get', `${EXEC}/status`, status, { token: access });
    await hit('get', EXEC, exec, { token: access });
    await hit('get', EXEC, `/api/v1/accounts/${acc.accountId}/workflow-executions/${crypto.randomUUID()}`, {
      token: access,
    });
    await hit(
      'get',
      '/api/v1/workflow-executions/{workflowExecutionId}',
      `/api/v1/workflow-executions/${acc.executionId}`,
      {
        token: access,
      },
    );
    await hit('get', `${EXEC}/steps`, `${exec}/steps`, { token: access });
    await hit('get', `${EXEC}/rules`, `${exec}/rules`, { token: access });
    const link = await hit('get', `${EXEC}/generate`, `${exec}/generate`, { token: access });
    const report = new URL(link.json.presignedUrl as string);
    await hit('get', '/reports/{file}', report.pathname + report.search);
    await hit('get', '/reports/{file}', `${report.pathname}?expires=1&signature=forged`);
    const R1 = '/api/v1/accounts/{accountId}/credentials/{credentialId}/parts/{classifier}';
    const part = (c: string, cls: string) => `/api/v1/accounts/${acc.accountId}/credentials/${c}/parts/${cls}`;
    const front = await hit('get', R1, part(acc.creds.ID.id, 'FRONT'), { token: access });
    expect(front.headers.get('content-type')).toMatch(/^image\//);
    await hit('get', R1, part(acc.creds.ID.id, 'BACK'), { token: access });
    await hit('get', R1, part(acc.creds.ID.id, 'PASSPORT'), { token: access });
    const feedback = `${exec}/feedback`;
    await hit('put', `${EXEC}/feedback`, feedback, { token: access, body: { status: 'FRAUD', reason: 'PHISHING' } });
    await hit('put', `${EXEC}/feedback`, feedback, { token: access, body: { status: 'FRAUD' } });
    const list = '/api/v1/workflow-executions';
    await hit('get', list, `${list}?size=100&page=2`, { token: access });
    await hit('get', list, `${list}?size=0`, { token: access });
    await hit('get', list, list);
    await hit('delete', EXEC, exec, { token: access });
    await hit('delete', A, account(other.accountId), { token: access });
    await hit('delete', A, account(other.accountId), { token: access });

    // The web capture page and the SDK path (the simulator's own), each with its errors.
    const capture = await createAccount(sim, access, {
      workflowDefinition: {
        key: '10013',
        credentials: [
          { category: 'ID', allowedChannels: ['WEB', 'SDK'] },
          { category: 'SELFIE', allowedChannels: ['WEB', 'SDK'] },
        ],
      },
      userConsent: undefined,
    });
    const WEB = '/web/{workflowExecutionId}';
    const web = new URL(capture.body.web.href as string);
    await hit('get', WEB, web.pathname + web.search);
    await hit('get', WEB, `${web.pathname}?token=forged`);
    await hit('get', WEB, `/web/${other.executionId}${web.search}`);
    const sendPage = async (fields: Record<string, string | Buffer>) => {
      const fd = new FormData();
      fd.append('token', web.searchParams.get('token')!);
      for (const [k, v] of Object.entries(fields))
        if (typeof v === 'string') fd.append(k, v);
        else fd.append(k, new Blob([new Uint8Array(v)]), 'picture');
      const res = await fetch(`${sim.url}${web.pathname}`, { method: 'POST', body: fd, redirect: 'manual' });
      checker.checkMedia(WEB, 'post', res.status, (res.headers.get('content-type') ?? '').split(';')[0].trim());
      return res;
    };
    expect((await sendPage({ [`${capture.creds.ID.id}:FRONT`]: images.front() })).status).toBe(400);
    expect((await sendPage({ [`${capture.creds.ID.id}:FRONT`]: images.front(), consent: 'yes' })).status).toBe(303);
    const SDK = '/sdk/v1/workflow-executions/{workflowExecutionId}';
    const sdkPath = `/sdk/v1/workflow-executions/${capture.executionId}`;
    await hit('get', SDK, sdkPath, { token: capture.sdkToken });
    await hit('get', SDK, sdkPath, { token: other.sdkToken });
    await hit('get', SDK, sdkPath);
    const SDK_PART = `${SDK}/credentials/{credentialId}/parts/{classifier}`;
    const selfie = `${sdkPath}/credentials/${capture.creds.SELFIE.id}/parts/FACE`;
    await hit('post', SDK_PART, selfie, { token: capture.sdkToken, raw: fileForm(images.png(100, 100)) });
    await hit('post', SDK_PART, selfie, { token: capture.sdkToken, raw: fileForm(images.face()) });

    // Test tools, and the faults every service operation may meet: 429 with Retry-After, 503.
    const admin = { headers: { authorization: basic(sim) } };
    await hit('get', '/__sim/faults', '/__sim/faults', admin);
    await hit('get', '/__sim/faults', '/__sim/faults');
    await hit('put', '/__sim/faults', '/__sim/faults', { ...admin, body: { burst429: 1 } });
    const limited = await hit('get', list, list, { token: access });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    await hit('put', '/__sim/faults', '/__sim/faults', { ...admin, body: { errorRate: 1 } });
    expect((await hit('get', EXEC, exec, { token: access })).status).toBe(503);
    await hit('put', '/__sim/faults', '/__sim/faults', { ...admin, body: { errorRate: 2 } });
    await hit('put', '/__sim/faults', '/__sim/faults', { ...admin, body: { errorRate: 0 } });
    await hit('get', '/__sim/callbacks', '/__sim/callbacks', admin);
    await hit('get', '/__sim/stats', '/__sim/stats', admin);
    await hit('post', '/__sim/sweep', '/__sim/sweep', admin);
    await hit('post', '/__sim/reset', '/__sim/reset', admin);

    // Every operation of the document was met with its success, and the errors above with theirs.
    const successes = Object.entries(doc.paths as Record<string, Record<string, { responses: object }>>).flatMap(
      ([path, ops]) =>
        Object.entries(ops).map(
          ([method, o]) => `${method} ${path} ${Object.keys(o.responses).find((s) => Number(s) < 400)}`,
        ),
    );
    expect(successes.filter((s) => !checker.seen.has(s))).toEqual([]);
    for (const s of [
      'post /oauth2/token 400',
      'post /oauth2/token 401',
      'post /api/v1/accounts 400',
      'post /api/v1/accounts 401',
      'put /api/v1/accounts/{accountId} 404',
      `put ${CRED}/parts/{classifier} 400`,
      `post ${CRED}/parts/{classifier} 401`,
      `post ${CRED}/parts/{classifier} 403`,
      `delete ${CRED}/parts/{classifier} 404`,
      `post ${CRED}/parts/PREPARED_DATA 400`,
      `put ${EXEC} 401`,
      `get ${EXEC} 404`,
      `get ${EXEC} 503`,
      'get /api/v1/workflow-executions 400',
      'get /api/v1/workflow-executions 401',
      'get /api/v1/workflow-executions 429',
      `put ${EXEC}/feedback 400`,
      'delete /api/v1/accounts/{accountId} 404',
      'get /reports/{file} 403',
      'put /__sim/faults 400',
      'get /__sim/faults 401',
      'get /web/{workflowExecutionId} 401',
      'get /web/{workflowExecutionId} 403',
      'post /web/{workflowExecutionId} 400',
      'get /sdk/v1/workflow-executions/{workflowExecutionId} 401',
      'get /sdk/v1/workflow-executions/{workflowExecutionId} 403',
      'post /sdk/v1/workflow-executions/{workflowExecutionId}/credentials/{credentialId}/parts/{classifier} 400',
    ])
      expect(checker.seen, s).toContain(s);
  });
});
