import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackDispatcher, MAX_ATTEMPTS_KEPT } from '@/lib/simulator/callbacks';
import { MAX_DOCUMENT_PAGES, redactUrl } from '@/lib/simulator/server';
import { DEFAULT_FAULTS, type RunningSimulator } from '@/lib/simulator';
import { accountBody, call, createAccount, expectProblem, images, start, token, upload } from './helpers';

/**
 * The simulator is reachable by anyone holding its client credentials: it must not become a way
 * to make requests to other hosts, to read the receiver's secret, or to fill its memory.
 */
let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(async () => {
  await sim?.close();
});

describe('simulator limits', () => {
  it('posts callbacks only to loopback and allowed hosts', async () => {
    const t = await token(sim);
    const post = (callbackUrl: string) =>
      call(sim, 'POST', '/api/v1/accounts', { token: t, body: accountBody({ callbackUrl }) });
    expectProblem(
      await post('http://intranet.corp.example/hook'),
      400,
      /only to loopback addresses and the hosts it was started with/,
    );
    expectProblem(await post('http://10.0.0.8/hook'), 400, /only to loopback/);
    expect((await post('http://127.0.0.1:9/hook')).status).toBe(200);
    expect((await post('http://localhost:9/hook')).status).toBe(200);
    expect((await post('https://hooks.example.com/hook')).status).toBe(200);
  });

  it('never shows the receiver secret back through the test tools', () => {
    expect(redactUrl('http://127.0.0.1:3000/api/idv/callback?token=s3cr3t-value&x=1')).toBe(
      'http://127.0.0.1:3000/api/idv/callback?token=redacted&x=redacted',
    );
    expect(redactUrl('https://user:pass@hooks.example.com/h')).not.toMatch(/pass/);
  });

  it('lists callback attempts without the secret in their URL', async () => {
    const listed = await fetch(`${sim.url}/__sim/callbacks`, {
      headers: { authorization: `Basic ${Buffer.from(`${sim.clientId}:${sim.clientSecret}`).toString('base64')}` },
    });
    const body = (await listed.json()) as { attempts: Array<{ url: string }> };
    for (const a of body.attempts) expect(a.url).not.toMatch(/token=(?!redacted)/);
  });

  it('caps the pages of one document, with a clear 400', async () => {
    const access = await token(sim);
    const acc = await createAccount(sim, access, {
      workflowDefinition: { key: 'doc-only', credentials: [{ category: 'DOCUMENT' }] },
    });
    const url = acc.creds.DOCUMENT.api.parts.document;
    const batch = Array.from({ length: 10 }, () => images.front());
    for (let n = 0; n < MAX_DOCUMENT_PAGES; n += 10)
      expect((await upload(sim, url, acc.txToken, batch)).status).toBe(200);
    expectProblem(
      await upload(sim, url, acc.txToken, images.front()),
      400,
      new RegExp(`at most ${MAX_DOCUMENT_PAGES} pages`),
    );
  });

  it('keeps a bounded number of callback attempts, the newest', () => {
    // Every callback dropped (a fault knob): each is recorded as an attempt and none is sent.
    const dispatcher = new CallbackDispatcher(() => ({ ...DEFAULT_FAULTS, dropCallbacks: 1 }), [], 1000);
    for (let i = 0; i < MAX_ATTEMPTS_KEPT + 250; i++)
      dispatcher.enqueue({ executionId: `e${i}`, url: 'http://127.0.0.1:9/', body: {} });
    const kept = dispatcher.list();
    expect(kept).toHaveLength(MAX_ATTEMPTS_KEPT);
    expect(kept.at(-1)!.executionId).toBe(`e${MAX_ATTEMPTS_KEPT + 249}`);
  });
});
