import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IdvClient } from '@/lib/idv/client';
import { getIdvClient, setIdvClient } from '@/lib/server/idv-client';
import { IdvParseError } from '@/lib/idv/errors';
import {
  accountResponseSample,
  ACCOUNT_ID as A,
  EXECUTION_ID as W,
  ID_CREDENTIAL as C,
  resultSample,
} from '../../support/idv/wire-samples';
import {
  sendJson,
  startServer,
  testConfig,
  tokenHandler,
  type Recorded,
  type TestServer,
} from '../../support/idv/fault-server';

/**
 * A hand-written stub of the service, kept only for what the simulator cannot show or produce on
 * demand; every operation's success and documented errors run against the real simulator in
 * tests/integration/idv-client.test.ts. What stays here:
 * - which of the four hosts each operation goes to: the simulator serves every concern on one
 *   host, so one loopback server stands in for the four, each concern with its own path prefix;
 * - answers the simulator never gives: a list record without an id, a result without
 *   `workflow.id`, a 200 that is not JSON, a health probe answering 503 DOWN or 500.
 */
let server: TestServer;
let client: IdvClient;
let overrides: Map<string, (req: Recorded, res: import('node:http').ServerResponse) => void>;

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const credOp = {
  timestamp: 't',
  account: { id: A },
  workflowExecution: { id: W },
  credential: { id: C },
  part: { id: 'p-1' },
  api: { token: 'tx', parts: {} },
};

beforeAll(async () => {
  const tokens = tokenHandler({ expiresIn: 3600 });
  overrides = new Map();
  server = await startServer((req, res) => {
    const key = `${req.method} ${req.path}`;
    const custom = overrides.get(key);
    if (custom) return custom(req, res);
    if (req.path === '/auth/oauth2/token') return tokens(req, res);
    const p = req.path;
    const exec = `/api/v1/accounts/${A}/workflow-executions/${W}`;
    if (p.startsWith('/acct/')) return sendJson(res, 200, accountResponseSample(`${server.url}/upl`));
    if (p.startsWith('/upl/')) return sendJson(res, 200, credOp);
    if (req.method === 'DELETE') return sendJson(res, 200, {});
    if (p === `/ret/api/v1/accounts/${A}/credentials/${C}/parts/FRONT`) {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end(Buffer.from(PNG));
      return;
    }
    if (p === `/ret${exec}` || p === `/ret/api/v1/workflow-executions/${W}`) return sendJson(res, 200, resultSample());
    if (p === `/ret${exec}/status`)
      return sendJson(res, 200, {
        account: { id: A },
        workflowExecution: { id: W, definitionKey: 10013, status: 'PROCESSED' },
      });
    if (p === `/ret${exec}/generate`)
      return sendJson(res, 200, { workflowId: W, presignedUrl: 'https://s3.example/report.pdf?X-Amz-Signature=x' });
    if (p === `/ret${exec}/steps`)
      return sendJson(res, 200, { steps: [{ id: 1, name: 'ID_IV', capabilityIds: ['c1'] }] });
    if (p === `/ret${exec}/rules`) return sendJson(res, 200, (resultSample() as { rules: unknown }).rules);
    if (p === `/ret${exec}/feedback`) return void (res.writeHead(204), res.end());
    if (p === `/ret/api/v1/accounts/${A}`)
      return sendJson(res, 200, { account: { id: A, href: 'x' }, workflowExecutions: [] });
    if (p === '/ret/api/v1/workflow-executions') return sendJson(res, 200, { workflowExecutions: [resultSample()] });
    if (p === '/ret/') return sendJson(res, 200, { status: 'UP', details: { api: 'UP', retrieval: 'UP' } });
    sendJson(res, 404, { title: 'Not Found', status: 404, detail: `no route ${key}` });
  });
  client = new IdvClient(
    testConfig(server.url, {
      authUrl: `${server.url}/auth`,
      accountUrl: `${server.url}/acct`,
      apiUrl: `${server.url}/upl`,
      retrievalUrl: `${server.url}/ret`,
    }),
  );
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
  overrides.clear();
});

const last = () => server.requests.filter((r) => r.path !== '/auth/oauth2/token').at(-1)!;
const exec = `/api/v1/accounts/${A}/workflow-executions/${W}`;

describe('paths, methods, hosts and auth per operation', () => {
  const oauth = 'Bearer tok-1';
  const cases: Array<[string, () => Promise<unknown>, string, string, string | undefined]> = [
    [
      'A1 createAccount',
      () => client.createAccount({ customerInternalReference: 'r', workflowDefinition: { key: 1 } }),
      'POST',
      '/acct/api/v1/accounts',
      oauth,
    ],
    [
      'A2 updateAccount',
      () => client.updateAccount(A, { customerInternalReference: 'r', workflowDefinition: { key: 1 } }),
      'PUT',
      `/acct/api/v1/accounts/${A}`,
      oauth,
    ],
    [
      'C1 updatePart',
      () =>
        client.updatePart('tx-1', { accountId: A, workflowExecutionId: W, credentialId: C }, 'BACK', PNG, 'image/png'),
      'PUT',
      `/upl${exec}/credentials/${C}/parts/BACK`,
      'Bearer tx-1',
    ],
    [
      'C2 addPart',
      () =>
        client.addPart('tx-1', { accountId: A, workflowExecutionId: W, credentialId: C }, 'FRONT', PNG, 'image/png'),
      'POST',
      `/upl${exec}/credentials/${C}/parts/FRONT`,
      'Bearer tx-1',
    ],
    [
      'C3 uploadPreparedData',
      () =>
        client.uploadPreparedData(
          'tx-1',
          { accountId: A, workflowExecutionId: W, credentialId: C },
          { firstName: 'A' },
        ),
      'POST',
      `/upl${exec}/credentials/${C}/parts/PREPARED_DATA`,
      'Bearer tx-1',
    ],
    [
      'C4 uploadDocument',
      () =>
        client.uploadDocument(
          'tx-1',
          { accountId: A, workflowExecutionId: W, credentialId: C },
          new Uint8Array([37, 80, 68, 70]),
          'application/pdf',
        ),
      'POST',
      `/upl${exec}/credentials/${C}/parts/DOCUMENT`,
      'Bearer tx-1',
    ],
    [
      'C5 finalize',
      () => client.finalize('tx-1', { accountId: A, workflowExecutionId: W }),
      'PUT',
      `/upl${exec}`,
      'Bearer tx-1',
    ],
    [
      'C6 deletePart',
      () => client.deletePart('tx-1', { accountId: A, workflowExecutionId: W, credentialId: C }, 'FRONT'),
      'DELETE',
      `/upl${exec}/credentials/${C}/parts/FRONT`,
      'Bearer tx-1',
    ],
    [
      'C7 deleteCredential',
      () => client.deleteCredential('tx-1', { accountId: A, workflowExecutionId: W, credentialId: C }),
      'DELETE',
      `/upl${exec}/credentials/${C}`,
      'Bearer tx-1',
    ],
    [
      'R1 getPart',
      () => client.getPart(A, C, 'FRONT'),
      'GET',
      `/ret/api/v1/accounts/${A}/credentials/${C}/parts/FRONT`,
      oauth,
    ],
    ['R2 getExecution', () => client.getExecution(A, W), 'GET', `/ret${exec}`, oauth],
    ['R3 deleteExecution', () => client.deleteExecution(A, W), 'DELETE', `/ret${exec}`, oauth],
    ['R4 getExecutionById', () => client.getExecutionById(W), 'GET', `/ret/api/v1/workflow-executions/${W}`, oauth],
    ['R5 getStatus', () => client.getStatus(A, W), 'GET', `/ret${exec}/status`, oauth],
    ['R6 generateReport', () => client.generateReport(A, W), 'GET', `/ret${exec}/generate`, oauth],
    ['R7 getSteps', () => client.getSteps(A, W), 'GET', `/ret${exec}/steps`, oauth],
    ['R8 getRules', () => client.getRules(A, W), 'GET', `/ret${exec}/rules`, oauth],
    ['R9 getAccount', () => client.getAccount(A), 'GET', `/ret/api/v1/accounts/${A}`, oauth],
    ['R10 deleteAccount', () => client.deleteAccount(A), 'DELETE', `/ret/api/v1/accounts/${A}`, oauth],
    ['R11 setFeedback', () => client.setFeedback(A, W, { status: 'NOT_FRAUD' }), 'PUT', `/ret${exec}/feedback`, oauth],
    ['R12 listExecutions', () => client.listExecutions(), 'GET', '/ret/api/v1/workflow-executions', oauth],
    ['health', () => client.health(), 'GET', '/ret/', undefined],
  ];

  it.each(cases)('%s', async (_name, call, method, path, auth) => {
    await call();
    const r = last();
    expect(r.method).toBe(method);
    expect(r.path).toBe(path);
    expect(r.headers.authorization).toBe(auth);
    expect(r.headers.accept).toBe('application/json');
    expect(r.headers['user-agent']).toBe('Verdict-Test/1.0');
  });
});

describe('answers the simulator never gives', () => {
  it('R12 leaves out a record without workflow.id, reports it, and keeps the rest of the page', async () => {
    const bad = resultSample();
    delete (bad as { workflow: { id?: string } }).workflow.id;
    overrides.set('GET /ret/api/v1/workflow-executions', (_req, res) =>
      sendJson(res, 200, { workflowExecutions: [resultSample(), bad, resultSample()], page: 2 }),
    );
    const page = await client.listExecutions({ page: 2 });
    expect(page.workflowExecutions).toHaveLength(2);
    expect(page.page).toBe(2);
    expect(page.skipped).toHaveLength(1);
    expect(page.skipped[0].index).toBe(1);
    expect(page.skipped[0].error.path).toBe('workflowExecutions.1.workflow.id');
    expect(page.skipped[0].raw).toEqual(bad);
    overrides.set('GET /ret/api/v1/workflow-executions', (_req, res) =>
      sendJson(res, 200, { workflowExecutions: 'nope' }),
    );
    await expect(client.listExecutions()).rejects.toBeInstanceOf(IdvParseError);
  });

  it('health: no retries, and a 503 with a DOWN body is an answer', async () => {
    overrides.set('GET /ret/', (_req, res) => sendJson(res, 503, { status: 'DOWN', details: { processing: 'DOWN' } }));
    const h = await client.health();
    expect(h.status).toBe('DOWN');
    expect(h.details?.processing).toBe('DOWN');
    overrides.set('GET /ret/', (_req, res) => sendJson(res, 500, { title: 'Internal Server Error', status: 500 }));
    await expect(client.health()).rejects.toMatchObject({ status: 500, attempts: 1 });
  });

  it('an unusable result raises IdvParseError naming the field and the operation', async () => {
    overrides.set(`GET /ret${exec}`, (_req, res) =>
      sendJson(res, 200, { workflow: { status: 'PROCESSED' }, account: { id: A } }),
    );
    const err = (await client.getExecution(A, W).catch((e: unknown) => e)) as IdvParseError;
    expect(err).toBeInstanceOf(IdvParseError);
    expect(err.path).toBe('workflow.id');
    expect(err.operation).toBe('R2 getExecution');
  });

  it('a 200 that is not JSON raises IdvParseError with the text', async () => {
    overrides.set(`GET /ret${exec}/status`, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<html>maintenance</html>');
    });
    const err = (await client.getStatus(A, W).catch((e: unknown) => e)) as IdvParseError;
    expect(err).toBeInstanceOf(IdvParseError);
    expect(err.message).toContain('maintenance');
  });
});

describe('getIdvClient', () => {
  it('is a lazily created process-wide singleton built from the environment', () => {
    const saved = { ...process.env };
    try {
      setIdvClient(undefined);
      process.env.IDV_BASE_URL = 'http://127.0.0.1:4010';
      process.env.IDV_CLIENT_ID = 'env-id';
      process.env.IDV_CLIENT_SECRET = 'env-secret';
      const a = getIdvClient();
      expect(getIdvClient()).toBe(a);
      expect(a.config.retrievalUrl).toBe('http://127.0.0.1:4010');
      setIdvClient(client);
      expect(getIdvClient()).toBe(client);
      setIdvClient(undefined);
      delete process.env.IDV_CLIENT_SECRET;
      expect(() => getIdvClient()).toThrow(/IDV_CLIENT_SECRET/);
    } finally {
      process.env = saved;
      setIdvClient(undefined);
    }
  });
});
