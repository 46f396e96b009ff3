import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';

/**
 * The built-in simulator of the console under test, as browser tests reach it over HTTP: its
 * address (written by `npm start` into the data folder), tokens, reads, fault knobs and a
 * journey through its API.
 */
export interface SimAddress {
  url: string;
  clientId: string;
  clientSecret: string;
}

export const e2eDataDir = () => process.env.E2E_DATA_DIR || '.data/e2e';
export const simAddress = (): SimAddress =>
  JSON.parse(fs.readFileSync(path.join(e2eDataDir(), 'simulator.json'), 'utf8'));
const basic = (sim: SimAddress) => `Basic ${Buffer.from(`${sim.clientId}:${sim.clientSecret}`).toString('base64')}`;

/** T: an access token for the client credentials, with its lifetime in seconds. */
async function requestToken(api: APIRequestContext, sim: SimAddress): Promise<{ token: string; seconds: number }> {
  const r = await api.post(`${sim.url}/oauth2/token`, {
    headers: {
      authorization: basic(sim),
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
    },
    data: 'grant_type=client_credentials',
  });
  expect(r.status()).toBe(200);
  const body = (await r.json()) as { access_token: string; expires_in: number };
  return { token: body.access_token, seconds: body.expires_in };
}

/**
 * Tokens by simulator and client, kept for most of their life as a real client keeps them: a token
 * per call would run into the service's token limit (10/s) once a test reads many pages.
 */
const tokens = new Map<string, { token: string; until: number }>();
async function cachedToken(api: APIRequestContext, sim: SimAddress): Promise<string> {
  const key = `${sim.url} ${sim.clientId}`;
  const held = tokens.get(key);
  if (held && held.until > Date.now()) return held.token;
  const { token, seconds } = await requestToken(api, sim);
  // Renewed a minute before it runs out, as lib/idv's token manager does.
  tokens.set(key, { token, until: Date.now() + Math.max(0, seconds - 60) * 1000 });
  return token;
}

/** Headers of an API call with an access token. */
export async function simHeaders(api: APIRequestContext, sim: SimAddress = simAddress()) {
  return {
    authorization: `Bearer ${await cachedToken(api, sim)}`,
    accept: 'application/json',
    'user-agent': 'Verdict e2e/1.0',
  };
}

export async function simGet<T>(api: APIRequestContext, sim: SimAddress, p: string): Promise<T> {
  const r = await api.get(`${sim.url}${p}`, { headers: await simHeaders(api, sim) });
  expect(r.status(), `GET ${p}`).toBe(200);
  return (await r.json()) as T;
}

export async function simFaults(api: APIRequestContext, sim: SimAddress, faults: Record<string, unknown>) {
  const r = await api.put(`${sim.url}/__sim/faults`, {
    headers: { authorization: basic(sim), 'content-type': 'application/json' },
    data: faults,
  });
  expect(r.status()).toBe(200);
}

interface Created {
  account: { id: string };
  workflowExecution: {
    id: string;
    credentials: Array<{ api: { token: string; parts: Record<string, string>; workflowExecution: string } }>;
  };
}

/**
 * A journey of a data-only workflow: A1 creates an account and its execution (or A2 a new
 * execution of `accountId`), C-operations send the customer's data and start it. Returns the
 * account and execution ids; the service processes it on its own and calls back.
 */
export async function dataJourney(
  api: APIRequestContext,
  sim: SimAddress,
  accountId?: string,
): Promise<{ accountId: string; executionId: string }> {
  const headers = await simHeaders(api, sim);
  const body = {
    customerInternalReference: `e2e-${Date.now()}`,
    workflowDefinition: { key: '10031', credentials: [{ category: 'DATA' }] },
  };
  const r = accountId
    ? await api.put(`${sim.url}/api/v1/accounts/${accountId}`, { headers, data: body })
    : await api.post(`${sim.url}/api/v1/accounts`, { headers, data: body });
  expect(r.status(), 'account creation').toBe(200);
  const c = (await r.json()) as Created;
  const a = c.workflowExecution.credentials[0].api;
  const tx = { authorization: `Bearer ${a.token}`, accept: 'application/json' };
  expect(
    (
      await api.post(a.parts.prepared_data, {
        headers: tx,
        data: { firstName: 'Erika', lastName: 'Mustermann', dateOfBirth: '1984-08-12' },
      })
    ).status(),
  ).toBe(200);
  expect((await api.put(a.workflowExecution, { headers: tx })).status()).toBe(200);
  return { accountId: c.account.id, executionId: c.workflowExecution.id };
}
