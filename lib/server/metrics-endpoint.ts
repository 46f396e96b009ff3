import 'server-only';
/**
 * /metrics, the same on the console (app/metrics/route.ts) and on each worker's own listener
 * (./metrics-listener.ts): Prometheus text for a caller with `Authorization: Bearer
 * <METRICS_TOKEN>`, 401 for everyone else, and for everyone while METRICS_TOKEN is unset. A
 * session, an admin's included, is not a credential here: a scraper is not a user.
 */
import { timingSafeEqual } from 'node:crypto';
import { metrics } from '@/lib/telemetry/metrics';
import { refreshStateGauges } from '@/lib/server/state-gauges';

export function metricsAuthorized(authorization: string | null | undefined): boolean {
  const token = process.env.METRICS_TOKEN;
  if (!token || !authorization?.startsWith('Bearer ')) return false;
  const given = Buffer.from(authorization.slice('Bearer '.length).trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const METRICS_REFUSED = {
  status: 401,
  headers: { 'WWW-Authenticate': 'Bearer realm="metrics"', 'Content-Type': 'application/json' },
  body: JSON.stringify({
    title: 'Unauthorized',
    status: 401,
    detail: 'Metrics need the METRICS_TOKEN bearer token.',
  }),
};

export async function metricsResponse(): Promise<{ contentType: string; body: string }> {
  await refreshStateGauges();
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
