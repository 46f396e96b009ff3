/**
 * The status of a page that met a database outage. Next gives a page no way to set its status
 * (an error while rendering is a 500), so the console server (scripts/console-server.ts) serves
 * each request in a scope of its own, the pool notes an outage in the scope of the request whose
 * statement met it (lib/db/pool.ts), and a 5xx answer of such a request leaves as 503 with
 * Retry-After, before its first byte. The body stays Next's: the error page, which says that the
 * database cannot be reached (app/error.tsx). A route handler answers 503 itself
 * (lib/api/http.ts); for one that does not, this is the backstop.
 *
 * Free of `server-only`, like lib/db/shutdown.ts: the console server is plain Node. The
 * scopes are kept on globalThis: the console server and the code Next bundled each have their
 * own copy of this module.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import { DATABASE_OUTAGE_RETRY_AFTER_S, isDatabaseOutage } from '@/lib/db/outage';

interface Scope {
  outage: boolean;
}

const scopes = ((
  globalThis as unknown as { __verdictOutageScopes?: AsyncLocalStorage<Scope> }
).__verdictOutageScopes ??= new AsyncLocalStorage<Scope>());

/** Notes `err` in the current request's scope when it is an outage (no-op outside a request). */
export function noteDatabaseOutage(err: unknown): void {
  const scope = scopes.getStore();
  if (scope && !scope.outage && isDatabaseOutage(err)) scope.outage = true;
}

/** Runs `serve` (Next's handler) in a scope of its own; a 5xx of a request that met an outage becomes a 503. */
export function serveWithOutageStatus(res: ServerResponse, serve: () => void): void {
  const scope: Scope = { outage: false };
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    if (scope.outage && status >= 500 && status !== 503) {
      status = 503;
      this.statusMessage = 'Service Unavailable';
      // A reason phrase passed with the status is the 5xx's; the headers, if any, follow it.
      if (typeof rest[0] === 'string') rest.shift();
      this.setHeader('Retry-After', String(DATABASE_OUTAGE_RETRY_AFTER_S));
      this.setHeader('Cache-Control', 'no-store');
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).call(this, status, ...rest);
  } as typeof res.writeHead;
  scopes.run(scope, serve);
}
