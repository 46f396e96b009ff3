// Web and SDK journeys (spec, What the service does 4: "With the web client or the mobile SDK,
// finalization happens automatically once the required credentials have been received") and the
// content rules of the Limits table, reported as usability results rather than upload errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemoCaptures, type RunningSimulator } from '@/lib/simulator';
import { framedImage } from '@/lib/simulator/images';
import {
  call,
  callbackReceiver,
  createAccount,
  expectProblem,
  fileForm,
  images,
  startSignedIn,
  uploadPart,
  waitFor,
  type Json,
} from './helpers';

let sim: RunningSimulator;
let access: string;
let hook: Awaited<ReturnType<typeof callbackReceiver>>;

beforeAll(async () => {
  ({ sim, access } = await startSignedIn({ seed: 'capture' }));
  hook = await callbackReceiver();
});
afterAll(async () => {
  await sim.close();
  await hook.close();
});

const channels = (ch: string[]) => ({
  workflowDefinition: {
    key: '10013',
    credentials: [
      { category: 'ID', allowedChannels: ch, country: { values: ['DEU'] }, type: { values: ['ID_CARD'] } },
      { category: 'SELFIE', allowedChannels: ch },
    ],
  },
  userConsent: undefined,
  callbackUrl: hook.url,
});

const result = (accountId: string, executionId: string) =>
  call(sim, 'GET', `/api/v1/accounts/${accountId}/workflow-executions/${executionId}`, { token: access });
const processed = (accountId: string, executionId: string) =>
  waitFor(async () => {
    const r = await result(accountId, executionId);
    return r.json.workflow.status === 'PROCESSED' ? r.json : undefined;
  });

/** Sends the web page's form as a browser does (no redirects followed). */
async function postPage(href: string, fields: Record<string, string | Buffer>) {
  const url = new URL(href);
  const fd = new FormData();
  fd.append('token', url.searchParams.get('token')!);
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'string') fd.append(k, v);
    else fd.append(k, new Blob([new Uint8Array(v)]), 'picture');
  }
  const res = await fetch(`${url.origin}${url.pathname}`, { method: 'POST', body: fd, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), text: await res.text(), headers: res.headers };
}

describe('web capture page (the account response web.href)', () => {
  it('shows the WEB credentials, takes the pictures and the consent, finalizes by itself and calls back', async () => {
    const acc = await createAccount(sim, access, channels(['WEB']));
    const href: string = acc.body.web.href;
    expect(href).toMatch(new RegExp(`^${sim.url}/web/${acc.executionId}\\?token=`));
    // WEB-only credentials have no api member (spec, Account response).
    expect(acc.creds.ID.api).toBeUndefined();

    const page = await fetch(href);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    const front = `${acc.creds.ID.id}:FRONT`,
      back = `${acc.creds.ID.id}:BACK`,
      face = `${acc.creds.SELFIE.id}:FACE`;
    for (const name of [front, back, face]) expect(html).toContain(`name="${name}"`);
    expect(html).toMatch(/<label for="consent">/);

    // Without consent nothing is kept: a form error, not a half-written execution.
    const refused = await postPage(href, { [front]: images.front() });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/role="alert"[\s\S]*consent/);
    expect((await result(acc.accountId, acc.executionId)).json.credentials[0].parts).toEqual([]);

    // The front first: kept, the page says what is still missing, the execution waits.
    const first = await postPage(href, { [front]: images.front(), [back]: images.back(), consent: 'yes' });
    expect(first.status).toBe(303);
    expect(first.location).toContain('saved=1');
    expect((await result(acc.accountId, acc.executionId)).json.workflow.status).toBe('INITIATED');
    const again = await (await fetch(`${sim.url}${first.location}`)).text();
    expect(again).toContain('Received');
    expect(again).toContain('You gave your consent');

    // The selfie completes it: the execution starts without C5, processes and calls back.
    const second = await postPage(href, { [face]: images.face() });
    expect(second.status).toBe(303);
    const r = await processed(acc.accountId, acc.executionId);
    expect(r.captureClient).toMatchObject({ client: 'web', platform: 'web' });
    expect(r.captureClient.state[0]).toEqual(
      expect.arrayContaining(['started', 'id-front-uploaded', 'selfie-uploaded', 'finalized']),
    );
    expect(r.captureClient.captureDetails[0]).toEqual(expect.arrayContaining(['front: upload', 'face: upload']));
    expect(r.consent).toMatchObject({ obtained: 'yes', obtainedAt: expect.any(String) });
    expect(r.capabilities.usability.map((u: Json) => u.decision.type)).toEqual(['PASSED', 'PASSED']);
    await waitFor(() => hook.received.find((x) => x.body.workflowExecution?.id === acc.executionId));
    const done = await fetch(href);
    expect(await done.text()).toMatch(/role="status">Thank you/);
  });

  it('a picture that breaks an upload rule is a form error for its field; the good ones are kept', async () => {
    const acc = await createAccount(sim, access, channels(['WEB', 'API']));
    const href: string = acc.body.web.href;
    const front = `${acc.creds.ID.id}:FRONT`,
      face = `${acc.creds.SELFIE.id}:FACE`;
    const r = await postPage(href, { [front]: images.front(), [face]: images.png(400, 400), consent: 'yes' });
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/aria-invalid="true"/);
    expect(r.text).toContain('Selfie image resolution');
    const parts = (await result(acc.accountId, acc.executionId)).json.credentials.map((c: Json) => c.parts);
    expect(parts).toEqual([[{ classifier: 'FRONT', captureType: 'UPLOAD' }], []]);
  });

  it('redirects to web.successUrl once complete', async () => {
    const acc = await createAccount(sim, access, {
      ...channels(['WEB']),
      web: { successUrl: 'https://shop.example.com/done', locale: 'en' },
    });
    expect(acc.body.web).toMatchObject({ successUrl: 'https://shop.example.com/done', locale: 'en' });
    const r = await postPage(acc.body.web.href, {
      [`${acc.creds.ID.id}:FRONT`]: images.front(),
      [`${acc.creds.ID.id}:BACK`]: images.back(),
      [`${acc.creds.SELFIE.id}:FACE`]: images.face(),
      consent: 'yes',
    });
    expect(r.status).toBe(303);
    expect(r.location).toBe('https://shop.example.com/done');
  });

  it('refuses a bad token (401), another execution’s token (403) and an unknown execution (404) with a page', async () => {
    const a = await createAccount(sim, access, channels(['WEB', 'API']));
    const b = await createAccount(sim, access, channels(['WEB']));
    const webToken = (href: string) => new URL(href).searchParams.get('token')!;
    const bad = await fetch(`${sim.url}/web/${a.executionId}?token=nope`);
    expect(bad.status).toBe(401);
    expect(bad.headers.get('content-type')).toMatch(/text\/html/);
    expect(await bad.text()).toMatch(/<h1>This link is not valid or has expired<\/h1>/);
    expect((await fetch(`${sim.url}/web/${a.executionId}?token=${webToken(b.body.web.href)}`)).status).toBe(403);
    expect((await fetch(`${sim.url}/web/${a.executionId}?token=${a.txToken}`)).status).toBe(401);
    expect((await fetch(`${sim.url}/web/${a.executionId}?token=${a.sdkToken}`)).status).toBe(401);
    expect((await fetch(`${sim.url}/web/not-a-uuid?token=x`)).status).toBe(400);
    // The web token opens nothing of the API.
    expectProblem(await call(sim, 'GET', `/api/v1/accounts/${a.accountId}`, { token: webToken(a.body.web.href) }), 401);
    expectProblem(await call(sim, 'PUT', a.creds.ID.api.workflowExecution, { token: webToken(a.body.web.href) }), 401);
  });
});

describe('SDK journeys (sdk.token on the simulator’s /sdk/v1 path)', () => {
  const sdk = (
    acc: { sdkToken: string; executionId: string },
    method: string,
    path = '',
    opts: { raw?: BodyInit; headers?: Record<string, string> } = {},
  ) => call(sim, method, `/sdk/v1/workflow-executions/${acc.executionId}${path}`, { token: acc.sdkToken, ...opts });
  const capture = (
    acc: { sdkToken: string; executionId: string },
    credentialId: string,
    cls: string,
    bytes: Buffer,
    fields: Record<string, string> = {},
  ) => {
    const fd = fileForm(bytes);
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    return sdk(acc, 'POST', `/credentials/${credentialId}/parts/${cls}`, {
      raw: fd,
      headers: { 'x-sdk-platform': 'harmonyos', 'x-sdk-version': '4.2.1', 'x-sdk-os-name': 'HarmonyOS 4' },
    });
  };

  it('captures each credential with the SDK token and finalizes by itself', async () => {
    const acc = await createAccount(sim, access, channels(['SDK']));
    const state = await sdk(acc, 'GET');
    expect(state.status).toBe(200);
    expect(state.json.credentials).toEqual([
      {
        id: acc.creds.ID.id,
        category: 'ID',
        parts: [
          { classifier: 'FRONT', required: true, received: false },
          { classifier: 'BACK', required: false, received: false },
        ],
      },
      { id: acc.creds.SELFIE.id, category: 'SELFIE', parts: [{ classifier: 'FACE', required: true, received: false }] },
    ]);
    expectProblem(await capture(acc, acc.creds.ID.id, 'FRONT', images.front()), 403, /consent is required/);
    const f = await capture(acc, acc.creds.ID.id, 'FRONT', images.front(), {
      consent: 'yes',
      captureMode: 'manual_capture',
    });
    expect(f.status, f.text).toBe(200);
    expect(f.json).toMatchObject({ started: false, workflowExecution: { status: 'INITIATED' } });
    expect((await capture(acc, acc.creds.ID.id, 'BACK', images.back())).json.started).toBe(false);
    const last = await capture(acc, acc.creds.SELFIE.id, 'FACE', images.face());
    expect(last.json).toMatchObject({ started: true, workflowExecution: { status: 'ACQUIRED' } });
    const r = await processed(acc.accountId, acc.executionId);
    // Unknown values from the app are kept as they came.
    expect(r.captureClient).toMatchObject({
      client: 'sdk',
      platform: 'harmonyos',
      version: '4.2.1',
      osName: 'HarmonyOS 4',
    });
    expect(r.captureClient.captureDetails[0]).toEqual(
      expect.arrayContaining(['front: manual_capture', 'face: auto_capture']),
    );
    expectProblem(await capture(acc, acc.creds.SELFIE.id, 'FACE', images.face()), 400, /INITIATED/);
  });

  it('refuses what the SDK may not do', async () => {
    const acc = await createAccount(sim, access, channels(['API']));
    expectProblem(
      await capture(acc, acc.creds.ID.id, 'FRONT', images.front(), { consent: 'yes' }),
      403,
      /does not allow the SDK channel/,
    );
    const other = await createAccount(sim, access, channels(['SDK']));
    expectProblem(
      await call(sim, 'GET', `/sdk/v1/workflow-executions/${acc.executionId}`, { token: other.sdkToken }),
      403,
    );
    expectProblem(
      await call(sim, 'GET', `/sdk/v1/workflow-executions/${acc.executionId}`, { token: acc.txToken }),
      401,
    );
    expectProblem(await call(sim, 'GET', `/sdk/v1/workflow-executions/${acc.executionId}`), 401);
    expectProblem(
      await capture(other, other.creds.ID.id, 'PREPARED_DATA', images.front(), { consent: 'yes' }),
      400,
      /classifier/,
    );
    expectProblem(
      await capture(other, other.creds.ID.id, 'FRONT', images.png(300, 200), { consent: 'yes' }),
      400,
      /Longest image side|Document image resolution/,
    );
    expectProblem(
      await capture(other, other.creds.ID.id, 'FRONT', images.front(), { consent: 'yes', captureMode: 'Bad Mode' }),
      400,
      /captureMode/,
    );
  });
});

describe('content rules of the Limits table: results, never upload errors', () => {
  it('a selfie whose face fills 10 % of the frame is accepted and comes back usability REJECTED (BAD_QUALITY)', async () => {
    const selfie = framedImage('face', 11, { width: 1500, height: 2000, scale: 1.9 });
    const face = selfie.regions[0].box;
    const share = (face.w * face.h) / (1500 * 2000);
    expect(share).toBeGreaterThan(0.095);
    expect(share).toBeLessThan(0.105);
    expect(face.h).toBeGreaterThan(320); // tall enough: only the 15 % rule is broken
    const acc = await createAccount(sim, access);
    expect((await uploadPart(sim, acc, 'front', images.front())).status).toBe(200);
    expect((await uploadPart(sim, acc, 'back', images.back())).status).toBe(200);
    const up = await uploadPart(sim, acc, 'face', selfie.bytes);
    expect(up.status, up.text).toBe(200);
    expect((await call(sim, 'PUT', acc.creds.ID.api.workflowExecution, { token: acc.txToken })).status).toBe(200);
    const r = await processed(acc.accountId, acc.executionId);
    const usability = Object.fromEntries(
      r.capabilities.usability.map((u: Json) => [u.credentials[0].category, u.decision]),
    );
    expect(usability.SELFIE).toEqual({ type: 'REJECTED', details: { label: 'BAD_QUALITY' } });
    expect(usability.ID).toEqual({ type: 'PASSED', details: { label: 'OK' } });
    expect(r.capabilities.liveness[0].decision).toEqual({
      type: 'NOT_EXECUTED',
      details: { label: 'PRECONDITION_NOT_FULFILLED' },
    });
    expect(r.decision.type).toBe('REJECTED');
  });

  it('a face under 320 px and a document under 512 x 323 px are reported the same way', async () => {
    const small = framedImage('document-front', 3, { width: 1200, height: 900, scale: 0.7 });
    const tiny = framedImage('face', 4, { width: 480, height: 640, scale: 0.8 });
    expect(tiny.regions[0].box.h).toBeLessThan(320);
    const acc = await createAccount(sim, access);
    expect((await uploadPart(sim, acc, 'front', small.bytes)).status).toBe(200);
    expect((await uploadPart(sim, acc, 'back', images.back())).status).toBe(200);
    expect((await uploadPart(sim, acc, 'face', tiny.bytes)).status).toBe(200);
    expect((await call(sim, 'PUT', acc.creds.ID.api.workflowExecution, { token: acc.txToken })).status).toBe(200);
    const r = await processed(acc.accountId, acc.executionId);
    const usability = Object.fromEntries(
      r.capabilities.usability.map((u: Json) => [u.credentials[0].category, u.decision.details.label]),
    );
    expect(usability).toEqual({ ID: 'BAD_QUALITY_IMAGE', SELFIE: 'BAD_QUALITY' });
    expect(r.capabilities.extraction[0].decision.details.label).toBe('PRECONDITION_NOT_FULFILLED');
  });

  it('a picture without regions is not measured (the rules pass)', async () => {
    const acc = await createAccount(sim, access);
    expect((await uploadPart(sim, acc, 'front', images.jpeg(800, 500))).status).toBe(200);
    expect((await uploadPart(sim, acc, 'back', images.back())).status).toBe(200);
    expect((await uploadPart(sim, acc, 'face', images.jpeg(480, 640))).status).toBe(200);
    expect((await call(sim, 'PUT', acc.creds.ID.api.workflowExecution, { token: acc.txToken })).status).toBe(200);
    const r = await processed(acc.accountId, acc.executionId);
    expect(r.capabilities.usability.map((u: Json) => u.decision.type)).toEqual(['PASSED', 'PASSED']);
  });
});

describe('the demo’s web and SDK journeys', () => {
  it('run over HTTP and leave one processed execution per capture client', async () => {
    const [webId, sdkId] = await runDemoCaptures(sim.url, sim.clientId, sim.clientSecret);
    const byId = (id: string) =>
      waitFor(async () => {
        const r = await call(sim, 'GET', `/api/v1/workflow-executions/${id}`, { token: access });
        return r.json.workflow.status === 'PROCESSED' ? r.json : undefined;
      });
    expect((await byId(webId)).captureClient).toMatchObject({ client: 'web', platform: 'web', osName: 'iOS' });
    expect((await byId(sdkId)).captureClient).toMatchObject({
      client: 'sdk',
      platform: 'android',
      version: '4.3.0',
      osName: 'Android 14',
    });
  });
});
