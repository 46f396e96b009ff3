import { DATABASE_OUTAGE_RETRY_AFTER_S, DATABASE_OUTAGE_TEXT, isDatabaseOutage } from '@/lib/db/outage';
import { logError } from '@/lib/log';

/*
 * The one shape of an error answer for machines: RFC 9457 problem details. The read API, the
 * routes under app/api and the service's callback all answer with it, so a caller parses one
 * shape and a changed header (no-store: an error must not be cached) changes everywhere.
 */

/** An error answer: `{ title, status, detail }` as `application/problem+json`, never cached. */
export function problem(status: number, title: string, detail: string, headers: Record<string, string> = {}) {
  return Response.json(
    { title, status, detail },
    {
      status,
      headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store, private', ...headers },
    },
  );
}

/** The answer of a route while the database cannot be reached: 503 with Retry-After, never a 500. */
export function outageProblem(): Response {
  return problem(503, 'Service Unavailable', `${DATABASE_OUTAGE_TEXT.title}. ${DATABASE_OUTAGE_TEXT.detail}`, {
    'Retry-After': String(DATABASE_OUTAGE_RETRY_AFTER_S),
  });
}

/**
 * A route handler that answers `outageProblem()` when the database cannot be reached before its
 * response has started (a streamed export that loses the database midway ends its stream with
 * the error instead). The routes under app/api that read the database are built with it, but for
 * readiness and the service's callback, which answer 503 themselves, and next-auth's own.
 */
export function answeringOutages<A extends unknown[]>(
  handler: (...args: A) => Promise<Response>,
): (...args: A) => Promise<Response> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (err) {
      if (!isDatabaseOutage(err)) throw err;
      logError('route: database unreachable', err);
      return outageProblem();
    }
  };
}
