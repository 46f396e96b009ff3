import { describe, expect, it } from 'vitest';
import { createWebhookSchema } from '@/lib/actions/schemas/webhooks';
import { outboundPolicyFromEnv } from '@/lib/webhooks/outbound';
import { endpointUrlProblem } from '@/lib/webhooks/url';

/**
 * Endpoint URLs an admin may not save: not http(s), the console itself, too long. Demo mode, so
 * that loopback receivers are allowed (the outbound rules have their own file: outbound.test.ts).
 */
const policy = outboundPolicyFromEnv({
  PORT: '3000',
  HOST: '127.0.0.1',
  NEXTAUTH_URL: 'https://verdict.example.com',
  VERDICT_DEMO: '1',
  WEBHOOK_ALLOWED_HOSTS: '10.0.0.0/8',
});
const problem = (url: string) => endpointUrlProblem(url, policy);

describe('endpoint URLs', () => {
  it('accepts http and https receivers elsewhere, loopback on another port included (demo mode)', () => {
    for (const url of [
      'https://hooks.example.com/verdict',
      'http://10.0.0.5:8080/in?x=1', // allowed by WEBHOOK_ALLOWED_HOSTS
      'http://127.0.0.1:3341/hooks',
      'http://localhost:9000/',
    ])
      expect(problem(url), url).toBeNull();
  });

  it('refuses other schemes and what is not a URL', () => {
    for (const url of ['ftp://example.com/x', 'javascript:alert(1)', 'file:///etc/passwd', 'example.com/hooks', ''])
      expect(problem(url), url).toMatch(/http:\/\/ or https:\/\/|full URL/);
  });

  it('refuses the console itself: its public origin, and its port on loopback or its own host', () => {
    for (const url of [
      'https://verdict.example.com/api/idv/callback',
      'https://verdict.example.com:443/x',
      'http://127.0.0.1:3000/api/health',
      'http://localhost:3000/',
      'http://127.1.2.3:3000/',
      'http://[::1]:3000/',
      'http://0.0.0.0:3000/',
      'http://verdict.example.com:3000/',
      'http://[::ffff:127.0.0.1]:3000/',
    ])
      expect(problem(url), url).toMatch(/Verdict itself/);
  });

  it('refuses URLs over 2,000 characters, in the action schema and the check', () => {
    const long = `https://example.com/${'a'.repeat(2000)}`;
    expect(problem(long)).toMatch(/longer than 2,000/);
    const parsed = createWebhookSchema.safeParse({ url: long, eventTypes: ['trend.spike'] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ['url'],
      message: 'The URL is longer than 2,000 characters.',
    });
    expect(createWebhookSchema.safeParse({ url: long.slice(0, 2000), eventTypes: ['trend.spike'] }).success).toBe(true);
  });

  it('refuses credentials in the URL', () => {
    expect(problem('https://user:pw@example.com/hooks')).toMatch(/user name or password/);
  });

  it('the schema wants at least one known event type', () => {
    expect(createWebhookSchema.safeParse({ url: 'https://x.example', eventTypes: [] }).success).toBe(false);
    expect(createWebhookSchema.safeParse({ url: 'https://x.example', eventTypes: ['case.deleted'] }).success).toBe(
      false,
    );
  });
});
