// Shared helpers of the contract suite: a simulator per test file, real HTTP through fetch.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { RunningSimulator, SimulatorOptions } from '@/lib/simulator';
import { imageFor, solidJpeg, solidPng } from '@/lib/simulator/images';
import { startTestSimulator } from '../support/simulator';
import { waitFor } from '../support/wait';

export const UA = 'Acme Review/1.0 (contract tests)';

export async function start(opts: SimulatorOptions = {}): Promise<RunningSimulator> {
  return startTestSimulator({
    seed: 'contract',
    executions: 300,
    processingDelayMs: 60,
    sweepIntervalMs: 20,
    callbackRetryDelaysMs: [30, 60, 120],
    callbackTimeoutMs: 1000,
    // The spec's examples use this host; the simulator posts only to allowed hosts.
    callbackHosts: ['hooks.example.com'],
    rateLimits: { accountBurst: 10_000, retrievalBurst: 100_000, tokenPerSec: 10 },
    ...opts,
  });
}

/** A simulator (see `start`) and an access token for its API: what most files start from. */
export async function startSignedIn(opts: SimulatorOptions = {}): Promise<{ sim: RunningSimulator; access: string }> {
  const sim = await start(opts);
  return { sim, access: await token(sim) };
}

export function basic(sim: RunningSimulator, id = sim.clientId, secret = sim.clientSecret) {
  return 'Basic ' + Buffer.from(`${id}:${secret}`).toString('base64');
}

export async function token(sim: RunningSimulator): Promise<string> {
  const res = await fetch(`${sim.url}/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: basic(sim),
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

export interface Json {
  [k: string]: any;
}

export async function call(
  sim: RunningSimulator,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string>; raw?: BodyInit } = {},
) {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': UA, ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: BodyInit | undefined = opts.raw;
  if (opts.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(path.startsWith('http') ? path : `${sim.url}${path}`, { method, headers, body });
  const text = await res.text();
  let json: Json | undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json: json as Json, text, headers: res.headers };
}

/** Asserts the `{title, status, detail}` error body and returns the detail. */
export function expectProblem(r: { status: number; json: Json }, status: number, detail?: RegExp): string {
  expect(r.status).toBe(status);
  expect(r.json).toMatchObject({ title: expect.any(String), status, detail: expect.any(String) });
  if (detail) expect(r.json.detail).toMatch(detail);
  return r.json.detail;
}

export function accountBody(over: Json = {}): Json {
  return {
    customerInternalReference: 'ref-123',
    userReference: 'user-123',
    workflowDefinition: {
      key: '10013',
      credentials: [
        {
          category: 'ID',
          country: { predefinedType: 'DEFINED', values: ['DEU'] },
          type: { predefinedType: 'DEFINED', values: ['ID_CARD', 'PASSPORT'] },
        },
        { category: 'SELFIE' },
      ],
    },
    userConsent: {
      userIp: '203.0.113.7',
      userLocation: { country: 'DEU', state: 'BE' },
      consent: { obtained: 'yes', obtainedAt: '2026-06-01T10:00:00Z' },
    },
    ...over,
  };
}

export interface CreatedAccount {
  accountId: string;
  executionId: string;
  txToken: string;
  sdkToken: string;
  creds: Record<string, Json>;
  body: Json;
}
export async function createAccount(sim: RunningSimulator, access: string, over: Json = {}): Promise<CreatedAccount> {
  const r = await call(sim, 'POST', '/api/v1/accounts', { token: access, body: accountBody(over) });
  expect(r.status, r.text).toBe(200);
  const creds: Record<string, Json> = {};
  for (const c of r.json.workflowExecution.credentials) creds[c.category] = c;
  const withApi = r.json.workflowExecution.credentials.find((c: Json) => c.api);
  return {
    accountId: r.json.account.id,
    executionId: r.json.workflowExecution.id,
    txToken: withApi?.api.token,
    sdkToken: r.json.sdk.token,
    creds,
    body: r.json,
  };
}

export const images = {
  front: () => imageFor('document-front', 3).bytes,
  back: () => imageFor('document-back', 3).bytes,
  face: () => imageFor('face', 11).bytes,
  png: (w: number, h: number, gray = false) => solidPng(w, h, { gray }),
  jpeg: (w: number, h: number) => solidJpeg(w, h),
};

export function fileForm(bytes: Buffer | Buffer[], name = 'upload.bin', field = 'file'): FormData {
  const fd = new FormData();
  for (const b of Array.isArray(bytes) ? bytes : [bytes]) fd.append(field, new Blob([new Uint8Array(b)]), name);
  return fd;
}

export async function upload(
  sim: RunningSimulator,
  url: string,
  txToken: string,
  bytes: Buffer | Buffer[],
  method = 'POST',
) {
  return call(sim, method, url, { token: txToken, raw: fileForm(bytes) });
}

/** R5: the status of an execution, read with the access token `access`. */
export function statusOf(sim: RunningSimulator, access: string, ids: Json) {
  return call(sim, 'GET', `/api/v1/accounts/${ids.accountId}/workflow-executions/${ids.executionId}/status`, {
    token: access,
  });
}

/** Uploads `bytes` as a part of `acc`: its ID's front or back, or its selfie's face (C2; C1 with `method` PUT). */
export function uploadPart(
  sim: RunningSimulator,
  acc: CreatedAccount,
  part: 'front' | 'back' | 'face',
  bytes: Buffer | Buffer[],
  method = 'POST',
) {
  const credential = part === 'face' ? acc.creds.SELFIE : acc.creds.ID;
  return upload(sim, credential.api.parts[part], acc.txToken, bytes, method);
}

export { waitFor };

/** A tiny local webhook receiver; `status` decides what each request is answered with. */
export async function callbackReceiver(status: (n: number) => number = () => 200) {
  const received: Array<{ body: Json; headers: http.IncomingHttpHeaders; at: number }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let body: Json = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        /* keep empty */
      }
      received.push({ body, headers: req.headers, at: Date.now() });
      res.statusCode = status(received.length);
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/idv?secret=s3cr3t`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Sends an HTTP request without the User-Agent header (fetch always adds one). */
export function rawRequest(
  sim: RunningSimulator,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; json: Json }> {
  return new Promise((resolve, reject) => {
    const u = new URL(sim.url + path);
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers, setHost: true },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: Json = {};
          try {
            json = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
      },
    );
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

/** Uploads front, back and face and finalizes; returns once PROCESSED. */
export async function completeJourney(
  sim: RunningSimulator,
  access: string,
  over: Json = {},
  imgs = { front: images.front(), back: images.back(), face: images.face() },
) {
  const acc = await createAccount(sim, access, over);
  const id = acc.creds.ID,
    selfie = acc.creds.SELFIE;
  expect((await upload(sim, id.api.parts.front, acc.txToken, imgs.front)).status).toBe(200);
  expect((await upload(sim, id.api.parts.back, acc.txToken, imgs.back)).status).toBe(200);
  expect((await upload(sim, selfie.api.parts.face, acc.txToken, imgs.face)).status).toBe(200);
  const fin = await call(sim, 'PUT', id.api.workflowExecution, { token: acc.txToken });
  expect(fin.status, fin.text).toBe(200);
  const result = await waitFor(async () => {
    const r = await call(sim, 'GET', `/api/v1/accounts/${acc.accountId}/workflow-executions/${acc.executionId}`, {
      token: access,
    });
    return r.json.workflow.status === 'PROCESSED' ? r.json : undefined;
  });
  return { ...acc, result };
}
