// Bad input never gets a 500: every malformed request gets the documented 4xx with {title, status, detail}.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '@/lib/simulator';
import {
  accountBody,
  basic,
  call,
  completeJourney,
  createAccount,
  expectProblem,
  fileForm,
  images,
  startSignedIn,
  type CreatedAccount,
  type Json,
} from './helpers';

let sim: RunningSimulator;
let access: string;
let acc: CreatedAccount;
let done: Awaited<ReturnType<typeof completeJourney>>;
const UNKNOWN = '8d0c1f7e-1a2b-4c3d-8e4f-5a6b7c8d9e0f';

beforeAll(async () => {
  ({ sim, access } = await startSignedIn());
  acc = await createAccount(sim, access);
  done = await completeJourney(sim, access);
});
afterAll(() => sim.close());

const GARBAGE: Array<[string, { raw?: string; body?: unknown; headers?: Record<string, string> }]> = [
  ['malformed JSON', { raw: '{"a":', headers: { 'content-type': 'application/json' } }],
  ['empty body', { raw: '', headers: { 'content-type': 'application/json' } }],
  ['JSON null', { raw: 'null', headers: { 'content-type': 'application/json' } }],
  ['JSON array', { body: [1, 2, 3] }],
  ['JSON string', { body: 'hello' }],
  ['JSON number', { body: 42 }],
  [
    'deeply wrong types',
    {
      body: {
        customerInternalReference: { a: 1 },
        workflowDefinition: 'x',
        status: [],
        reason: {},
        firstName: [],
        sex: 1,
        address: 'x',
        id: 5,
      },
    },
  ],
  ['binary junk', { raw: '\u0000\u0001\u0002\u00ff', headers: { 'content-type': 'application/octet-stream' } }],
  ['form instead of JSON', { raw: 'a=1&b=2', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
  [
    'multipart with no file',
    {
      raw: '--x\r\nContent-Disposition: form-data; name="other"\r\n\r\nv\r\n--x--\r\n',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    },
  ],
  [
    'broken multipart',
    { raw: 'this is not multipart', headers: { 'content-type': 'multipart/form-data; boundary=zzz' } },
  ],
];

function endpoints(): Array<[string, string, 'access' | 'tx' | 'none']> {
  const a = acc.accountId,
    w = acc.executionId,
    c = acc.creds.ID.id,
    d = done;
  return [
    ['POST', '/api/v1/accounts', 'access'],
    ['PUT', `/api/v1/accounts/${a}`, 'access'],
    ['POST', `/api/v1/accounts/${a}/workflow-executions/${w}/credentials/${c}/parts/FRONT`, 'tx'],
    ['PUT', `/api/v1/accounts/${a}/workflow-executions/${w}/credentials/${c}/parts/FRONT`, 'tx'],
    ['POST', `/api/v1/accounts/${a}/workflow-executions/${w}/credentials/${c}/parts/PREPARED_DATA`, 'tx'],
    ['POST', `/api/v1/accounts/${a}/workflow-executions/${w}/credentials/${c}/parts/DOCUMENT`, 'tx'],
    ['PUT', `/api/v1/accounts/${a}/workflow-executions/${w}`, 'tx'],
    ['PUT', `/api/v1/accounts/${d.accountId}/workflow-executions/${d.executionId}/feedback`, 'access'],
    ['POST', '/oauth2/token', 'none'],
    ['PUT', '/__sim/faults', 'none'],
  ];
}

describe('Bad input never gets a 500', () => {
  it('garbage bodies on every operation that takes a body get a 4xx with {title, status, detail}', async () => {
    for (const [method, path, auth] of endpoints()) {
      for (const [name, opts] of GARBAGE) {
        const headers: Record<string, string> = { ...(opts.headers ?? {}) };
        if (auth === 'none') headers.authorization = basic(sim);
        const r = await call(sim, method, path, {
          ...opts,
          headers,
          token: auth === 'access' ? access : auth === 'tx' ? acc.txToken : undefined,
        });
        expect(r.status, `${method} ${path} with ${name}: ${r.text}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${method} ${path} with ${name}: ${r.text}`).toBeLessThan(500);
        expect(r.json, `${method} ${path} with ${name}`).toMatchObject({
          title: expect.any(String),
          status: r.status,
          detail: expect.any(String),
        });
      }
    }
  });

  it('unknown ids (valid UUIDs) get 404 on every retrieval operation', async () => {
    const paths = [
      `/api/v1/accounts/${UNKNOWN}`,
      `/api/v1/accounts/${UNKNOWN}/workflow-executions/${UNKNOWN}`,
      `/api/v1/workflow-executions/${UNKNOWN}`,
      `/api/v1/accounts/${UNKNOWN}/workflow-executions/${UNKNOWN}/status`,
      `/api/v1/accounts/${UNKNOWN}/workflow-executions/${UNKNOWN}/generate`,
      `/api/v1/accounts/${UNKNOWN}/workflow-executions/${UNKNOWN}/steps`,
      `/api/v1/accounts/${UNKNOWN}/workflow-executions/${UNKNOWN}/rules`,
      `/api/v1/accounts/${UNKNOWN}/credentials/${UNKNOWN}/parts/FRONT`,
    ];
    for (const p of paths) expectProblem(await call(sim, 'GET', p, { token: access }), 404);
    expectProblem(await call(sim, 'DELETE', `/api/v1/accounts/${UNKNOWN}`, { token: access }), 404);
    expectProblem(
      await call(sim, 'DELETE', `/api/v1/accounts/${UNKNOWN}/workflow-executions/${UNKNOWN}`, { token: access }),
      404,
    );
  });

  it('invalid ids get 400 naming the parameter', async () => {
    expectProblem(await call(sim, 'GET', '/api/v1/accounts/xyz', { token: access }), 400, /accountId must be a UUID/);
    expectProblem(
      await call(sim, 'GET', `/api/v1/accounts/${UNKNOWN}/workflow-executions/%27;drop`, { token: access }),
      400,
      /workflowExecutionId must be a UUID/,
    );
    expectProblem(
      await call(sim, 'GET', `/api/v1/accounts/${UNKNOWN}/credentials/123/parts/FRONT`, { token: access }),
      400,
      /credentialId must be a UUID/,
    );
  });

  it('a generated-looking id with a broken checksum is not found (404), not a crash', async () => {
    const real = done.executionId; // random v4
    const forged = real.slice(0, 24) + 'ffffffffffff';
    expectProblem(await call(sim, 'GET', `/api/v1/workflow-executions/${forged}`, { token: access }), 404);
  });

  it('wrong token kind on every family gets 401', async () => {
    expectProblem(await call(sim, 'GET', '/api/v1/workflow-executions', { token: acc.txToken }), 401);
    expectProblem(await call(sim, 'POST', '/api/v1/accounts', { token: acc.sdkToken, body: accountBody() }), 401);
    expectProblem(await call(sim, 'PUT', acc.creds.ID.api.workflowExecution, { token: access }), 401);
  });

  it('oversized and non-image uploads get 400 naming the rule', async () => {
    const big = Buffer.alloc(16 * 1024 * 1024, 7);
    expectProblem(
      await call(sim, 'POST', acc.creds.ID.api.parts.front, { token: acc.txToken, raw: fileForm(big) }),
      400,
      /15 MB/,
    );
    expectProblem(
      await call(sim, 'POST', acc.creds.ID.api.parts.front, {
        token: acc.txToken,
        raw: fileForm(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')),
      }),
      400,
      /^Image file format/,
    );
    const jpegHeaderOnly = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
    expectProblem(
      await call(sim, 'POST', acc.creds.ID.api.parts.front, { token: acc.txToken, raw: fileForm(jpegHeaderOnly) }),
      400,
      /^Image file format/,
    );
  });

  it('a raw body far beyond the limit is refused with 400 (not buffered, not a crash)', async () => {
    const huge = new Uint8Array(40 * 1024 * 1024);
    const r = await call(sim, 'POST', acc.creds.ID.api.parts.front, {
      token: acc.txToken,
      raw: huge,
      headers: { 'content-type': 'multipart/form-data; boundary=abc' },
    });
    expectProblem(r, 400, /15 MB/);
  });

  it('out-of-range and non-numeric paging get 400', async () => {
    for (const q of [
      'size=0',
      'size=101',
      'size=abc',
      'size=',
      'page=0',
      'page=-1',
      'page=abc',
      'page=1e3',
      'size=1&page=99999999999999999999',
    ])
      expectProblem(await call(sim, 'GET', `/api/v1/workflow-executions?${q}`, { token: access }), 400);
  });

  it('wrong verbs on known paths get 405 with an Allow header; unknown paths get 404', async () => {
    const r = await call(sim, 'PATCH', `/api/v1/accounts/${acc.accountId}`, { token: access });
    expectProblem(r, 405);
    expect(r.headers.get('allow')).toBe('PUT, GET, DELETE');
    const p = await call(sim, 'GET', acc.creds.ID.api.parts.front, { token: access });
    expectProblem(p, 405);
    expect(p.headers.get('allow')).toBe('POST, PUT, DELETE');
    expectProblem(await call(sim, 'GET', '/api/v2/accounts', { token: access }), 404);
    expectProblem(await call(sim, 'GET', '/api/v1/accounts/a/b/c/d/e/f/g', { token: access }), 404);
  });

  it('a classifier that is not uppercase still works (front); unknown classifiers get 400', async () => {
    const a2 = await createAccount(sim, access);
    expect(
      (
        await call(sim, 'POST', a2.creds.ID.api.parts.front.replace(/FRONT$/, 'front'), {
          token: a2.txToken,
          raw: fileForm(images.front()),
        })
      ).status,
    ).toBe(200);
    expectProblem(
      await call(sim, 'DELETE', a2.creds.ID.api.parts.front.replace(/FRONT$/, 'WHATEVER'), { token: a2.txToken }),
      400,
    );
  });

  it('the error handler never had to answer 500 during this suite', () => {
    expect(sim.stats().byStatus['500']).toBeUndefined();
  });
});

describe('Errors: bodies are JSON {title, status, detail} for every error status', () => {
  it('400, 401, 403, 404, 405, 413, 429 and 503 all carry the same shape', async () => {
    const seen: Json = {};
    const record = (r: { status: number; json: Json }) => {
      expectProblem(r, r.status);
      seen[r.status] = true;
    };
    record(await call(sim, 'GET', '/api/v1/workflow-executions?size=0', { token: access }));
    record(await call(sim, 'GET', '/api/v1/workflow-executions'));
    const other = await createAccount(sim, access);
    record(await call(sim, 'PUT', other.creds.ID.api.workflowExecution, { token: acc.txToken }));
    record(await call(sim, 'GET', `/api/v1/workflow-executions/${UNKNOWN}`, { token: access }));
    record(await call(sim, 'DELETE', '/oauth2/token'));
    const data = await createAccount(sim, access, {
      workflowDefinition: { key: '10031', credentials: [{ category: 'DATA' }] },
    });
    record(
      await call(sim, 'POST', data.creds.DATA.api.parts.prepared_data, {
        token: data.txToken,
        body: { firstName: 'y'.repeat(1_100_000) },
      }),
    );
    sim.faults.burst429 = 1;
    record(await call(sim, 'GET', '/'));
    sim.faults.errorRate = 1;
    record(await call(sim, 'GET', '/'));
    sim.faults.errorRate = 0;
    expect(Object.keys(seen).sort()).toEqual(['400', '401', '403', '404', '405', '413', '429', '503']);
  });
});
