import { describe, expect, it } from 'vitest';
import { idvConfigFromEnv } from '@/lib/idv/config';
import { IdvConfigError } from '@/lib/idv/errors';
import { thrownBy } from '../../support/thrown';

const creds = { IDV_CLIENT_ID: 'id-1', IDV_CLIENT_SECRET: 'very-secret-value' };
/** One URL per concern, each on its own host under `domain`, as the real service has them. */
const concernUrls = (domain: string) => ({
  IDV_AUTH_URL: `https://auth.${domain}`,
  IDV_ACCOUNT_URL: `https://account.${domain}`,
  IDV_API_URL: `https://api.${domain}`,
  IDV_RETRIEVAL_URL: `https://retrieval.${domain}`,
});

const configError = (env: Record<string, string | undefined>) => thrownBy(IdvConfigError, () => idvConfigFromEnv(env));

describe('idvConfigFromEnv', () => {
  it('one IDV_BASE_URL serves every concern (trailing slash dropped), with defaults', () => {
    const c = idvConfigFromEnv({ ...creds, IDV_BASE_URL: 'http://127.0.0.1:4010/' });
    expect(c).toMatchObject({
      authUrl: 'http://127.0.0.1:4010',
      accountUrl: 'http://127.0.0.1:4010',
      apiUrl: 'http://127.0.0.1:4010',
      retrievalUrl: 'http://127.0.0.1:4010',
      clientId: 'id-1',
      clientSecret: 'very-secret-value',
      userAgent: 'Verdict/0.1',
      timeoutMs: 15_000,
      maxRetries: 4,
      retrievalRatePerSec: 15,
      accountRatePerSec: 1,
      accountBurst: 5,
      tokenRatePerSec: 10,
    });
  });

  it('per-concern URLs override the base', () => {
    const c = idvConfigFromEnv({
      ...creds,
      IDV_BASE_URL: 'http://sim.localhost:4010',
      IDV_AUTH_URL: 'https://auth.emea-1.example.com',
      IDV_RETRIEVAL_URL: 'https://retrieval.emea-1.example.com/',
    });
    expect(c.authUrl).toBe('https://auth.emea-1.example.com');
    expect(c.retrievalUrl).toBe('https://retrieval.emea-1.example.com');
    expect(c.accountUrl).toBe('http://sim.localhost:4010');
    expect(c.apiUrl).toBe('http://sim.localhost:4010');
  });

  it('works with the four per-concern URLs and no base', () => {
    const c = idvConfigFromEnv({ ...creds, ...concernUrls('amer-1.example.com'), IDV_USER_AGENT: 'Acme Review/1.0' });
    expect(c.apiUrl).toBe('https://api.amer-1.example.com');
    expect(c.userAgent).toBe('Acme Review/1.0');
  });

  it('names a missing concern URL', () => {
    const err = configError({ ...creds, ...concernUrls('example.com'), IDV_RETRIEVAL_URL: undefined });
    expect(err.message).toContain('IDV_RETRIEVAL_URL');
    expect(err.message).toContain('IDV_BASE_URL');
    expect(err.message).not.toContain('IDV_AUTH_URL');
  });

  it('names a missing secret without printing the other credential', () => {
    const err = configError({ IDV_BASE_URL: 'http://localhost:4010', IDV_CLIENT_ID: 'id-1', IDV_CLIENT_SECRET: '' });
    expect(err.message).toContain('IDV_CLIENT_SECRET');
    expect(err.message).not.toContain('IDV_CLIENT_ID');
    expect(err.message).not.toContain('id-1');
    expect(configError({ IDV_BASE_URL: 'http://localhost:4010' }).message).toMatch(
      /IDV_CLIENT_ID[\s\S]*IDV_CLIENT_SECRET/,
    );
  });

  it.each([
    ['a URL that is not one', { IDV_BASE_URL: 'not a url' }, 'IDV_BASE_URL'],
    ['a URL that is not http(s)', { IDV_BASE_URL: 'ftp://files.example.com' }, 'IDV_BASE_URL'],
    [
      'a rate that is not a number',
      { IDV_BASE_URL: 'http://localhost', IDV_RETRIEVAL_RATE_PER_SEC: 'fast' },
      'IDV_RETRIEVAL_RATE_PER_SEC',
    ],
    ['a negative retry count', { IDV_BASE_URL: 'http://localhost', IDV_MAX_RETRIES: '-1' }, 'IDV_MAX_RETRIES'],
  ])('names an invalid URL or number: %s', (_, env, variable) => {
    expect(configError({ ...creds, ...env }).message).toContain(variable);
  });

  it('reads the numeric knobs', () => {
    const c = idvConfigFromEnv({
      ...creds,
      IDV_BASE_URL: 'http://localhost',
      IDV_TIMEOUT_MS: '5000',
      IDV_MAX_RETRIES: '2',
      IDV_RETRIEVAL_RATE_PER_SEC: '5',
      IDV_ACCOUNT_BURST: '3',
    });
    expect(c).toMatchObject({ timeoutMs: 5000, maxRetries: 2, retrievalRatePerSec: 5, accountBurst: 3 });
  });

  it('refuses plain http outside loopback, naming the variable, unless IDV_ALLOW_INSECURE is set', () => {
    const err = configError({ ...creds, IDV_BASE_URL: 'http://idv.example.com' });
    expect(err.message).toMatch(/IDV_BASE_URL: uses http:\/\/ for idv\.example\.com/);
    expect(err.message).toContain('IDV_ALLOW_INSECURE');
    expect(
      configError({ ...creds, IDV_BASE_URL: 'https://x.example.com', IDV_API_URL: 'http://10.0.0.5' }).message,
    ).toMatch(/IDV_API_URL: uses http/);
    for (const local of ['http://127.0.0.1:4010', 'http://localhost:4010', 'http://[::1]:4010', 'http://sim.localhost'])
      expect(idvConfigFromEnv({ ...creds, IDV_BASE_URL: local }).authUrl).toBe(local);
    const insecure = idvConfigFromEnv({ ...creds, IDV_BASE_URL: 'http://idv.example.com', IDV_ALLOW_INSECURE: '1' });
    expect(insecure).toMatchObject({ authUrl: 'http://idv.example.com', allowInsecure: true });
    expect(
      configError({ ...creds, IDV_BASE_URL: 'https://x.example.com', IDV_ALLOW_INSECURE: 'maybe' }).message,
    ).toContain('IDV_ALLOW_INSECURE');
  });

  it('IDV_REGION with IDV_DOMAIN gives each concern its regional host; explicit URLs still win', () => {
    const eu = idvConfigFromEnv({ ...creds, IDV_REGION: 'eu', IDV_DOMAIN: 'idv.example.com' });
    expect(eu).toMatchObject({
      authUrl: 'https://auth.emea-1.idv.example.com',
      accountUrl: 'https://account.emea-1.idv.example.com',
      apiUrl: 'https://api.emea-1.idv.example.com',
      retrievalUrl: 'https://retrieval.emea-1.idv.example.com',
    });
    expect(idvConfigFromEnv({ ...creds, IDV_REGION: 'US', IDV_DOMAIN: 'idv.example.com' }).authUrl).toBe(
      'https://auth.amer-1.idv.example.com',
    );
    const inSingapore = (explicit: Record<string, string>) =>
      idvConfigFromEnv({ ...creds, IDV_REGION: 'SG', IDV_DOMAIN: 'idv.example.com', ...explicit });
    const sg = inSingapore({ IDV_RETRIEVAL_URL: 'https://retrieval.proxy.example.org' });
    expect(sg.authUrl).toBe('https://auth.apac-1.idv.example.com');
    expect(sg.retrievalUrl).toBe('https://retrieval.proxy.example.org');
    expect(inSingapore({ IDV_BASE_URL: 'http://127.0.0.1:4010' }).apiUrl).toBe('http://127.0.0.1:4010');
    expect(configError({ ...creds, IDV_REGION: 'APAC' }).message).toMatch(/IDV_REGION: must be US, EU or SG/);
    expect(configError({ ...creds, IDV_REGION: 'EU' }).message).toMatch(/IDV_DOMAIN: required with IDV_REGION/);
    expect(configError({ ...creds, IDV_REGION: 'EU', IDV_DOMAIN: 'https://x' }).message).toContain('IDV_DOMAIN');
  });
});
