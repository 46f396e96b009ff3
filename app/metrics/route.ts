import { METRICS_REFUSED, metricsAuthorized, metricsResponse } from '@/lib/server/metrics-endpoint';

/**
 * The console's Prometheus metrics: only with `Authorization: Bearer <METRICS_TOKEN>`, 401 for
 * everyone else (sessions included). What is served: docs/operations.md.
 */
export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  if (!metricsAuthorized(request.headers.get('authorization')))
    return new Response(METRICS_REFUSED.body, { status: METRICS_REFUSED.status, headers: METRICS_REFUSED.headers });
  const m = await metricsResponse();
  return new Response(m.body, { headers: { 'Content-Type': m.contentType, 'Cache-Control': 'no-store' } });
}
