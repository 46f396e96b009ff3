import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/env';
import {
  addressProblem,
  classifyAddress,
  outboundPolicyFromEnv,
  resolveDestination,
  type Resolver,
} from '@/lib/webhooks/outbound';
import { checkEndpointUrl, endpointUrlProblem } from '@/lib/webhooks/url';

/**
 * The outbound policy (lib/webhooks/outbound.ts): which addresses a webhook may reach, on a real
 * deployment (the service's addresses set: loopback refused) and in demo mode (loopback allowed).
 */
const deployment = {
  PORT: '3000',
  NEXTAUTH_URL: 'https://verdict.example.com',
  DATABASE_URL: 'postgres://db.internal/verdict',
  IDV_BASE_URL: 'https://idv.example.net',
  IDV_AUTH_URL: 'https://auth.idv.example.net/oauth2/token',
};
const real = outboundPolicyFromEnv(deployment);
const demo = outboundPolicyFromEnv({ PORT: '3000', VERDICT_DEMO: '1', IDV_BASE_URL: 'http://127.0.0.1:4010' });
const urlProblem = (url: string, policy = real) => endpointUrlProblem(url, policy);

describe('address classification (ipaddr.js ranges)', () => {
  const cases: Array<[string, string | null]> = [
    ['169.254.169.254', 'linkLocal'],
    ['169.254.0.1', 'linkLocal'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.251', 'multicast'],
    ['192.0.2.10', 'special'],
    ['198.18.0.1', 'special'],
    ['240.0.0.1', 'special'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['fc00::1234', 'uniqueLocal'],
    ['fec0::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    // IPv4-mapped, as typed and as the URL parser rewrites it.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'linkLocal'],
    ['::ffff:10.0.0.1', 'private'],
    // RFC 6145, NAT64 (RFC 6052) and 6to4 forms carry an IPv4 address too.
    ['::ffff:0:7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal'],
    ['64:ff9b::c0a8:101', 'private'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:0a00:0001::', 'private'],
    // IPv4-compatible (deprecated) and other special-purpose IPv6.
    ['::7f00:1', 'ipv4Compatible'],
    ['::8.8.8.8', 'ipv4Compatible'],
    ['64:ff9b:1::1', 'special'],
    ['2001:db8::1', 'special'],
    ['2001::1', 'special'],
    ['100::1', 'special'],
    // Public addresses, and the v6 forms of public v4 addresses.
    ['93.184.216.34', null],
    ['8.8.8.8', null],
    ['1.1.1.1', null],
    ['2606:4700:4700::1111', null],
    ['::ffff:8.8.8.8', null],
    ['64:ff9b::808:808', null],
    ['2002:0808:0808::1', null],
  ];
  for (const [ip, rule] of cases)
    it(`${ip} → ${rule ?? 'public'}`, () => {
      expect(classifyAddress(ip)).toBe(rule);
    });
});

describe('creation: the issue’s addresses on a deployment with DATABASE_URL and the service set', () => {
  it('the configuration is a real deployment (not demo)', () => {
    expect(parseEnv({ ...deployment, IDV_CLIENT_ID: 'id', IDV_CLIENT_SECRET: 'secret' }).VERDICT_DEMO).toBe(false);
    expect(real.loopback).toBe(false);
  });

  it('refuses metadata, RFC 1918, unique-local and the mapped loopback, each with a sentence naming the rule', () => {
    expect(urlProblem('http://169.254.169.254/latest/meta-data/')).toMatch(/link-local address \(169\.254\.0\.0\/16/);
    expect(urlProblem('http://10.0.0.1/')).toMatch(/private address \(RFC 1918/);
    expect(urlProblem('http://[fd00::1]/')).toMatch(/unique-local IPv6 address \(fc00::\/7\)/);
    // The parser rewrites it to [::ffff:7f00:1]; on any port, not only the console's.
    expect(new URL('http://[::ffff:127.0.0.1]:4010/').hostname).toBe('[::ffff:7f00:1]');
    expect(urlProblem('http://[::ffff:127.0.0.1]:4010/')).toMatch(/loopback address/);
    expect(urlProblem('http://127.0.0.1:9000/')).toMatch(/loopback address/);
    expect(urlProblem('http://localhost:9000/')).toMatch(/loopback address/);
    expect(urlProblem('http://100.64.1.1/')).toMatch(/carrier-grade NAT/);
    expect(urlProblem('http://0.0.0.0:9000/')).toMatch(/unspecified/);
    expect(urlProblem('http://[::]:9000/')).toMatch(/unspecified/);
    expect(urlProblem('http://[fe80::1]/')).toMatch(/link-local/);
    expect(urlProblem('http://224.0.0.1/')).toMatch(/multicast/);
    expect(urlProblem('http://255.255.255.255/')).toMatch(/broadcast/);
    // Decimal and hex spellings reach the check in dotted form (WHATWG URL).
    expect(urlProblem('http://2852039166/')).toMatch(/link-local/);
    expect(urlProblem('http://0x7f.1/')).toMatch(/loopback/);
    for (const p of [urlProblem('http://10.0.0.1/'), urlProblem('http://[fd00::1]/')])
      expect(p).toMatch(/WEBHOOK_ALLOWED_HOSTS/);
  });

  it('refuses Verdict itself and the service’s own addresses (the token URL among them)', () => {
    expect(urlProblem('https://verdict.example.com/api/health')).toMatch(/Verdict itself/);
    expect(urlProblem('https://auth.idv.example.net/oauth2/token')).toMatch(/verification service/);
    expect(urlProblem('https://idv.example.net:443/api/v1/accounts')).toMatch(/verification service/);
    expect(urlProblem('https://idv.example.net:8443/hooks')).toBeNull();
    // In demo mode: the simulator, on whatever loopback spelling.
    expect(urlProblem('http://127.0.0.1:4010/oauth2/token', demo)).toMatch(/verification service/);
    expect(urlProblem('http://localhost:4010/oauth2/token', demo)).toMatch(/verification service/);
    expect(urlProblem('http://[::ffff:127.0.0.1]:4010/', demo)).toMatch(/verification service/);
    expect(urlProblem('http://[::ffff:127.0.0.1]:3000/', demo)).toMatch(/Verdict itself/);
  });

  it('accepts public receivers', () => {
    for (const url of ['https://hooks.example.com/verdict', 'http://93.184.216.34/in', 'http://[2606:4700::1]:8080/'])
      expect(urlProblem(url), url).toBeNull();
  });

  it('demo mode allows loopback on other ports, and nothing else internal', () => {
    expect(urlProblem('http://127.0.0.1:3341/hooks', demo)).toBeNull();
    expect(urlProblem('http://localhost:9000/', demo)).toBeNull();
    expect(urlProblem('http://[::1]:9000/', demo)).toBeNull();
    expect(urlProblem('http://10.0.0.1/', demo)).toMatch(/private/);
    expect(urlProblem('http://169.254.169.254/', demo)).toMatch(/link-local/);
  });

  it('WEBHOOK_ALLOWED_HOSTS allows the hosts, IPs and ranges it lists, and is validated at start-up', () => {
    const allowed = outboundPolicyFromEnv({
      ...deployment,
      WEBHOOK_ALLOWED_HOSTS: 'hooks.internal, *.corp.example 10.1.0.0/16,fd00::5,127.0.0.1',
    });
    expect(urlProblem('http://10.1.2.3/', allowed)).toBeNull();
    expect(urlProblem('http://10.2.0.1/', allowed)).toMatch(/private/);
    expect(urlProblem('http://[fd00::5]/', allowed)).toBeNull();
    expect(urlProblem('http://[fd00::6]/', allowed)).toMatch(/unique-local/);
    expect(urlProblem('http://127.0.0.1:9000/', allowed)).toBeNull();
    // Allowed or not, the console itself never is.
    expect(urlProblem('http://127.0.0.1:3000/', allowed)).toMatch(/Verdict itself/);
    expect(addressProblem('169.254.169.254', allowed)).toMatch(/link-local/);

    const bad = (v: string) => () => parseEnv({ WEBHOOK_ALLOWED_HOSTS: v });
    expect(bad('10.0.0.0/33')).toThrow(/WEBHOOK_ALLOWED_HOSTS: "10.0.0.0\/33" has an invalid prefix length/);
    expect(bad('exa mple..com')).toThrow(/WEBHOOK_ALLOWED_HOSTS: "mple..com" is not a host name/);
    expect(bad('http://x.example')).toThrow(/WEBHOOK_ALLOWED_HOSTS/);
    expect(parseEnv({ WEBHOOK_ALLOWED_HOSTS: 'hooks.internal, 10.0.0.0/8' }).WEBHOOK_ALLOWED_HOSTS).toBe(
      'hooks.internal, 10.0.0.0/8',
    );
  });
});

describe('resolution: every address a name resolves to is checked, the first is pinned', () => {
  const dns =
    (answers: Record<string, string[]>): Resolver =>
    async (host) => {
      const list = answers[host];
      if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
  const resolver = dns({
    'public.example': ['93.184.216.34'],
    'rebind.example': ['10.0.0.7'],
    'mixed.example': ['93.184.216.34', '169.254.169.254'],
    'mapped.example': ['::ffff:127.0.0.1'],
    'hooks.internal': ['10.9.9.9'],
    'self.example': ['127.0.0.1'],
  });

  it('pins a public answer, refuses a private one or a mix, and names the rule', async () => {
    expect(await resolveDestination(new URL('https://public.example/x'), real, resolver)).toEqual({
      ok: true,
      address: '93.184.216.34',
      family: 4,
    });
    const rebind = await resolveDestination(new URL('https://rebind.example/x'), real, resolver);
    expect(rebind).toMatchObject({ ok: false, problem: expect.stringMatching(/rebind\.example resolves .* private/) });
    const mixed = await resolveDestination(new URL('https://mixed.example/x'), real, resolver);
    expect(mixed).toMatchObject({ ok: false, problem: expect.stringMatching(/link-local/) });
    const mapped = await resolveDestination(new URL('https://mapped.example/x'), real, resolver);
    expect(mapped).toMatchObject({ ok: false, problem: expect.stringMatching(/loopback/) });
    expect(await resolveDestination(new URL('https://nowhere.example/x'), real, resolver)).toEqual({
      ok: false,
      unresolved: true,
    });
  });

  it('a host allowed by name may resolve to anything but the console; a loopback name at the console’s port is refused in demo mode', async () => {
    const allowed = outboundPolicyFromEnv({ ...deployment, WEBHOOK_ALLOWED_HOSTS: 'hooks.internal' });
    expect(await resolveDestination(new URL('http://hooks.internal/'), allowed, resolver)).toMatchObject({
      ok: true,
      address: '10.9.9.9',
    });
    expect(await resolveDestination(new URL('http://self.example:3000/'), demo, resolver)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/Verdict itself/),
    });
    expect(await resolveDestination(new URL('http://self.example:4010/'), demo, resolver)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/verification service/),
    });
    expect(await resolveDestination(new URL('http://self.example:9000/'), demo, resolver)).toMatchObject({ ok: true });
  });

  it('saving refuses a name that resolves to an internal address now, and accepts one that does not resolve yet', async () => {
    expect(await checkEndpointUrl('https://rebind.example/hooks', real, resolver)).toMatch(/private address/);
    expect(await checkEndpointUrl('https://not-yet.example/hooks', real, resolver)).toBeNull();
    expect(await checkEndpointUrl('https://public.example/hooks', real, resolver)).toBeNull();
    expect(await checkEndpointUrl('http://10.0.0.1/', real, resolver)).toMatch(/private address/);
  });
});
