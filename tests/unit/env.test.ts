import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/env';

describe('configuration (lib/env.ts)', () => {
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
});
