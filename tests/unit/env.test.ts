import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/env';

describe('configuration (lib/env/index.ts)', () => {
  it('has working defaults for a fresh machine', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.WORKER).toBe(true);
  });

  it('names the bad variable', () => {
    expect(() => parseEnv({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ DEMO_PASSWORD: 'short' })).toThrow(/DEMO_PASSWORD/);
    expect(() => parseEnv({ WORKER: 'maybe' })).toThrow(/WORKER/);
  });

  it('requires service credentials once a service address is set, and OIDC secrets with an issuer', () => {
    expect(() => parseEnv({ IDV_BASE_URL: 'https://retrieval.example.test' })).toThrow(/IDV_CLIENT_ID/);
    expect(() => parseEnv({ OIDC_ISSUER: 'https://sso.example.test' })).toThrow(/OIDC_CLIENT_ID/);
    expect(
      parseEnv({ IDV_BASE_URL: 'https://x.example.test', IDV_CLIENT_ID: 'a', IDV_CLIENT_SECRET: 'b', WORKER: 'off' })
        .WORKER,
    ).toBe(false);
  });

  it('stops on a plain-http service address outside loopback, naming the variable; loopback http still works', () => {
    const creds = { IDV_CLIENT_ID: 'a', IDV_CLIENT_SECRET: 'b' };
    expect(() => parseEnv({ ...creds, IDV_BASE_URL: 'http://idv.example.com' })).toThrow(
      /IDV_BASE_URL: uses http:\/\/ for idv\.example\.com/,
    );
    expect(() =>
      parseEnv({ ...creds, IDV_AUTH_URL: 'http://auth.example.com', IDV_BASE_URL: 'https://x.example.com' }),
    ).toThrow(/IDV_AUTH_URL/);
    expect(parseEnv({ ...creds, IDV_BASE_URL: 'http://127.0.0.1:4010' }).IDV_BASE_URL).toBe('http://127.0.0.1:4010');
    expect(
      parseEnv({ ...creds, IDV_BASE_URL: 'http://idv.example.com', IDV_ALLOW_INSECURE: '1' }).IDV_ALLOW_INSECURE,
    ).toBe(true);
  });

  it('a region with its domain is a configured service; a region alone is an error', () => {
    const creds = { IDV_CLIENT_ID: 'a', IDV_CLIENT_SECRET: 'b' };
    expect(parseEnv({ ...creds, IDV_REGION: 'EU', IDV_DOMAIN: 'idv.example.com' }).IDV_REGION).toBe('EU');
    expect(() => parseEnv({ ...creds, IDV_REGION: 'EU' })).toThrow(/IDV_DOMAIN/);
    expect(() => parseEnv({ IDV_REGION: 'EU', IDV_DOMAIN: 'idv.example.com' })).toThrow(/IDV_CLIENT_ID/);
    expect(() => parseEnv({ ...creds, IDV_REGION: 'MARS' })).toThrow(/IDV_REGION/);
  });
});
