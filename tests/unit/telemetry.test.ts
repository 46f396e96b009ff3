/**
 * The bounded labels of the metrics and the /metrics credential check: a path becomes its route
 * template (never the ids in it), an unknown path one label, and only the exact METRICS_TOKEN
 * opens /metrics.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { metricsAuthorized } from '@/lib/server/metrics-endpoint';
import { routeTemplate } from '@/lib/auth/route-labels';

describe('routeTemplate', () => {
  it('names the template of every kind of path', () => {
    expect(routeTemplate('/')).toBe('/');
    expect(routeTemplate('/executions')).toBe('/executions');
    expect(routeTemplate('/executions/3f2a9c4e-0000-4000-8000-000000000001?q=smith')).toBe('/executions/[id]');
    expect(routeTemplate('/api/executions/abc/parts/def/FRONT')).toBe(
      '/api/executions/[id]/parts/[credentialId]/[classifier]',
    );
    // A static segment wins over a parameter at the same place.
    expect(routeTemplate('/api/v1/executions/changes')).toBe('/api/v1/executions/changes');
    expect(routeTemplate('/api/v1/anything/else/here')).toBe('/api/v1/[...path]');
    expect(routeTemplate('/metrics')).toBe('/metrics');
    expect(routeTemplate('/_next/static/chunks/app.js')).toBe('/_next');
  });

  it('puts every unknown path under one label', () => {
    expect(routeTemplate('/wp-login.php')).toBe('other');
    expect(routeTemplate('/executions/a/b/c')).toBe('other');
  });
});

describe('metricsAuthorized', () => {
  const saved = process.env.METRICS_TOKEN;
  afterEach(() => {
    if (saved === undefined) delete process.env.METRICS_TOKEN;
    else process.env.METRICS_TOKEN = saved;
  });

  it('refuses everyone while METRICS_TOKEN is unset', () => {
    delete process.env.METRICS_TOKEN;
    expect(metricsAuthorized('Bearer ')).toBe(false);
    expect(metricsAuthorized(undefined)).toBe(false);
  });

  it('opens only for the exact bearer token', () => {
    process.env.METRICS_TOKEN = 'metrics-token-0123456789';
    expect(metricsAuthorized('Bearer metrics-token-0123456789')).toBe(true);
    expect(metricsAuthorized('Bearer metrics-token-012345678')).toBe(false);
    expect(metricsAuthorized('Basic metrics-token-0123456789')).toBe(false);
    expect(metricsAuthorized('metrics-token-0123456789')).toBe(false);
    expect(metricsAuthorized(null)).toBe(false);
  });
});
