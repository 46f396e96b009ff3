import { db } from '@/lib/db/client';
import { DATABASE_OUTAGE_RETRY_AFTER_S } from '@/lib/db/outage';
import { readiness } from '@/lib/server/health';

/**
 * Public by design, for load balancers and orchestrators; says only states, never data.
 * - `GET /api/health` (readiness): the database answers, this build's migrations are applied, and
 *   the process is not draining after SIGTERM; 503 otherwise. `checks.queue` says whether the
 *   job queue is installed (a console works without a worker: callbacks wait in their inbox).
 * - `GET /api/health?probe=live` (liveness): the process serves requests; no I/O, so a database
 *   outage does not get every console restarted.
 */
export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  const headers = { 'cache-control': 'no-store' };
  if (new URL(request.url).searchParams.get('probe') === 'live') return Response.json({ status: 'UP' }, { headers });
  const r = await readiness(db());
  if (r.status === 'UP') return Response.json(r, { headers });
  // While the database is unreachable, say when to ask again, as every other route does.
  const retry: Record<string, string> =
    r.checks.database === 'DOWN' ? { 'Retry-After': String(DATABASE_OUTAGE_RETRY_AFTER_S) } : {};
  return Response.json(r, { status: 503, headers: { ...headers, ...retry } });
}
