/**
 * Where webhooks may go, against real HTTP receivers on 127.0.0.1 and the real delivery code
 * (lib/webhooks/deliver.ts with its undici connection): loopback delivered where allowed (demo
 * mode, WEBHOOK_ALLOWED_HOSTS) and refused on a deployment; a name that a resolver answers with a
 * private address at send time (the DNS-rebinding shape) refused at send time, with nothing sent;
 * the connection pinned to the checked address; a short sanitised excerpt; one wording for every
 * network failure; no redirect followed; and the creation action refusing the addresses on
 * a deployment with DATABASE_URL and the service's addresses set.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db/client';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '@/lib/db/schema';
import { getBoss, stopBoss } from '@/lib/jobs/boss';
import { deliverWebhook, UNREACHABLE } from '@/lib/webhooks/deliver';
import { createEndpoint, sendTestEvent } from '@/lib/webhooks/endpoints';
import { outboundPolicyFromEnv, type Resolver } from '@/lib/webhooks/outbound';
import { checkEndpointUrl } from '@/lib/webhooks/url';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { createUser, sessionCookieFor } from '../support/feedback';
import { request } from '../support/next-headers';

vi.mock('next/headers', async () => (await import('../support/next-headers')).nextHeaders);
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

process.env.WEBHOOK_SECRET_KEY ??= 'webhook-test-key-0123456789-0123456789-0123456789';

/** A real deployment: its own database and the service's addresses, no demo mode. */
const DEPLOYMENT = {
  PORT: '3999',
  DATABASE_URL: 'postgres://db.internal:5432/verdict',
  IDV_BASE_URL: 'https://idv.example.net',
  IDV_CLIENT_ID: 'client',
  IDV_CLIENT_SECRET: 'secret',
  NEXTAUTH_URL: 'https://verdict.example.com',
};
const deployment = outboundPolicyFromEnv(DEPLOYMENT);
const demo = outboundPolicyFromEnv({ PORT: '3999', VERDICT_DEMO: '1' });
const allowedLoopback = outboundPolicyFromEnv({ ...DEPLOYMENT, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });

/** A resolver that answers what the test says, per name, each time it is asked. */
function fakeDns(answers: Record<string, () => string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const fn = (async (host: string) => {
    asked.push(host);
    const pick = answers[host];
    if (!pick) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return pick().map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  }) as Resolver & { asked: string[] };
  fn.asked = asked;
  return fn;
}

let boss: PgBoss;
let admin: { id: string; email: string };
const receivers: WebhookReceiver[] = [];
const servers: http.Server[] = [];

async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

/** An endpoint at `url` with one queued test delivery; returns the delivery's id. */
async function deliveryTo(url: string): Promise<{ endpointId: string; deliveryId: number }> {
  const ep = await createEndpoint(admin, { url, description: 'outbound test', eventTypes: ['case.resolved'] });
  expect(await sendTestEvent(admin, ep.id)).toBe('queued');
  const [d] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, ep.id));
  return { endpointId: ep.id, deliveryId: d.id };
}

const quiet = { log: () => undefined, timeoutMs: 1_500, retryBaseMs: 60_000 };
const deliveryRow = async (id: number) =>
  (await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0];
const attemptRow = async (id: number) =>
  (await db().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id)))[0];

beforeAll(async () => {
  boss = await getBoss();
  admin = await createUser('admin', 'outbound-admin');
});
afterEach(async () => {
  await db().update(webhookEndpoints).set({ enabled: false });
  for (const r of receivers.splice(0)) await r.stop();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(() => r(undefined)));
  }
});
afterAll(async () => {
  await stopBoss();
});

describe('loopback', () => {
  it('is delivered in demo mode and where WEBHOOK_ALLOWED_HOSTS allows it', async () => {
    for (const outbound of [demo, allowedLoopback]) {
      const r = await receiver({ status: 200, body: 'thanks' });
      const { deliveryId } = await deliveryTo(r.url);
      expect(await deliverWebhook(db(), boss, deliveryId, { ...quiet, outbound })).toBe('delivered');
      expect(r.requests).toHaveLength(1);
      expect((await attemptRow(deliveryId)).responseExcerpt).toBe('thanks');
    }
  });

  it('is refused at send time on a deployment: failed at once with the rule, nothing sent', async () => {
    const r = await receiver({ status: 200 });
    const { deliveryId } = await deliveryTo(r.url);
    expect(await deliverWebhook(db(), boss, deliveryId, { ...quiet, outbound: deployment })).toBe('failed');
    expect(r.requests).toHaveLength(0);
    const d = await deliveryRow(deliveryId);
    expect(d.state).toBe('failed');
    expect(d.lastError).toMatch(/^Not sent: Webhooks may not go to a loopback address/);
    expect((await attemptRow(deliveryId)).status).toBeNull();
  });
});

describe('a host name at send time (DNS rebinding)', () => {
  it('a name that resolved to a public address when saved and to a private one when sent is refused at send time', async () => {
    const r = await receiver({ status: 200 });
    let answer = '93.184.216.34';
    const dns = fakeDns({ 'hooks.rebind.test': () => [answer] });
    const url = `http://hooks.rebind.test:${r.port}/hooks`;
    // Saved: the name resolves to a public address.
    expect(await checkEndpointUrl(url, deployment, dns)).toBeNull();
    const { deliveryId } = await deliveryTo(url);
    // Sent: the same name now answers this machine (the receiver listens there).
    answer = '127.0.0.1';
    expect(await deliverWebhook(db(), boss, deliveryId, { ...quiet, outbound: deployment, resolve: dns })).toBe(
      'failed',
    );
    expect(dns.asked).toEqual(['hooks.rebind.test', 'hooks.rebind.test']);
    expect(r.requests).toHaveLength(0);
    expect((await deliveryRow(deliveryId)).lastError).toMatch(
      /^Not sent: hooks\.rebind\.test resolves to an address that is refused\. Webhooks may not go to a loopback address/,
    );
  });

  it('one refused address among several refuses the name', async () => {
    const r = await receiver({ status: 200 });
    const dns = fakeDns({ 'mixed.rebind.test': () => ['93.184.216.34', '10.0.0.7'] });
    const { deliveryId } = await deliveryTo(`http://mixed.rebind.test:${r.port}/`);
    expect(await deliverWebhook(db(), boss, deliveryId, { ...quiet, outbound: deployment, resolve: dns })).toBe(
      'failed',
    );
    expect((await deliveryRow(deliveryId)).lastError).toMatch(/private address \(RFC 1918/);
  });

  it('the connection goes to the address that was checked: a name with no DNS record at all reaches the receiver it was pinned to', async () => {
    const r = await receiver({ status: 200 });
    const dns = fakeDns({ 'receiver.pinned.test': () => ['127.0.0.1'] });
    const { deliveryId } = await deliveryTo(`http://receiver.pinned.test:${r.port}/hooks`);
    expect(await deliverWebhook(db(), boss, deliveryId, { ...quiet, outbound: allowedLoopback, resolve: dns })).toBe(
      'delivered',
    );
    expect(dns.asked).toEqual(['receiver.pinned.test']);
    expect(r.requests).toHaveLength(1);
    // The request still names the host of the URL (Host header; SNI for https).
    expect(r.requests[0].headers.host).toBe(`receiver.pinned.test:${r.port}`);
  });
});

describe('what the delivery log shows', () => {
  it('keeps at most 200 printable characters of an answer, control and format characters removed', async () => {
    const noisy = `\u001b[31mERROR\u001b[0m\r\n\u202Eevil\u0000 ${'x'.repeat(5000)}`;
    const r = await receiver({ status: 500, body: noisy });
    const { deliveryId } = await deliveryTo(r.url);
    expect(await deliverWebhook(db(), boss, deliveryId, { ...quiet, outbound: demo })).toBe('retry_scheduled');
    const excerpt = (await attemptRow(deliveryId)).responseExcerpt!;
    expect([...excerpt].length).toBeLessThanOrEqual(200);
    expect(excerpt).toMatch(/^\[31mERROR \[0m evil x+…$/);
    expect(excerpt).not.toMatch(/[\u0000-\u001f\u007f\u202e]/);
  });

  it('gives refused, reset and timed-out connections one wording (no port mapping)', async () => {
    // Refused: a port where nothing listens (the receiver stopped).
    const stopped = await receiver({ status: 200 });
    await stopped.stop();
    // Reset: a server that drops every connection.
    const reset = http.createServer((req) => req.socket.destroy());
    // Timed out: a receiver that answers after the time limit.
    const slow = await receiver({ slowMs: 5_000 });
    servers.push(reset);
    await new Promise<void>((res) => reset.listen(0, '127.0.0.1', res));
    const resetUrl = `http://127.0.0.1:${(reset.address() as AddressInfo).port}/`;
    const errors: string[] = [];
    const logs: string[] = [];
    for (const url of [stopped.url, resetUrl, slow.url]) {
      const { deliveryId } = await deliveryTo(url);
      await deliverWebhook(db(), boss, deliveryId, { ...quiet, outbound: demo, log: (l) => logs.push(l) });
      errors.push((await deliveryRow(deliveryId)).lastError!);
      expect((await attemptRow(deliveryId)).error).toBe(UNREACHABLE);
    }
    expect(new Set(errors)).toEqual(new Set([UNREACHABLE]));
    // The server log keeps the class.
    expect(logs.join('\n')).toMatch(/network error \(refused\)/);
    expect(logs.join('\n')).toMatch(/network error \(reset\)/);
    expect(logs.join('\n')).toMatch(/network error \(timeout\)/);
  });

  it('does not follow a redirect, and keeps no excerpt of it', async () => {
    const target = await receiver({ status: 200 });
    const r = await receiver({ status: 302, body: 'moved', headers: { location: target.url } });
    const { deliveryId } = await deliveryTo(r.url);
    expect(await deliverWebhook(db(), boss, deliveryId, { ...quiet, outbound: demo })).toBe('retry_scheduled');
    expect(r.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
    const a = await attemptRow(deliveryId);
    expect(a.status).toBe(302);
    expect(a.responseExcerpt).toBeNull();
  });
});

describe('creating an endpoint (the admin action) on a deployment with DATABASE_URL and the service set', () => {
  it('refuses 169.254.169.254, 10.0.0.1, [fd00::1] and [::ffff:127.0.0.1] with a sentence naming the rule, and stores nothing', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, DEPLOYMENT, {
      DATABASE_URL: saved.DATABASE_URL,
      VERDICT_DEMO: '',
      WEBHOOK_ALLOWED_HOSTS: '',
    });
    const { createWebhookEndpointAction } = await import('@/lib/actions/webhooks');
    request.cookie = (await sessionCookieFor(admin)).value;
    try {
      const before = (await db().select().from(webhookEndpoints)).length;
      const refused: Array<[string, RegExp]> = [
        ['http://169.254.169.254/latest/meta-data/', /link-local address \(169\.254\.0\.0\/16/],
        ['http://10.0.0.1/', /private address \(RFC 1918/],
        ['http://[fd00::1]/', /unique-local IPv6 address/],
        ['http://[::ffff:127.0.0.1]:4010/', /loopback address/],
        ['https://idv.example.net/oauth2/token', /verification service/],
      ];
      for (const [url, rule] of refused) {
        const r = await createWebhookEndpointAction({ url, description: '', eventTypes: ['case.resolved'] });
        expect(r, url).toMatchObject({
          ok: false,
          code: 'INVALID',
          fieldErrors: { url: [expect.stringMatching(rule)] },
        });
      }
      expect(await db().select().from(webhookEndpoints)).toHaveLength(before);
      // A public receiver is accepted (its name does not resolve here: it is checked again at send time).
      const ok = await createWebhookEndpointAction({
        url: 'https://hooks.example.com/verdict',
        description: '',
        eventTypes: ['case.resolved'],
      });
      expect(ok.ok).toBe(true);
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
      request.cookie = '';
    }
  });
});
