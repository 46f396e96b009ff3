/**
 * No code waits for a second connection inside a transaction on the embedded database.
 *
 * PGlite runs one session for all connections: while a transaction is open, the socket server
 * runs only that connection's messages (lib/db/embedded.ts, `keepProtocolGroupsTogether`). A
 * statement sent on another connection from inside the transaction (another pool checkout,
 * starting the job queue, a plain `db()` call where `tx` was meant) waits for the transaction to
 * end, and the transaction waits for it: the request never answers, and every other request
 * queues behind it (issue 19, item 4: the first labelled resolve of a fresh `npm start` hung the
 * console). Here such a checkout fails at once, with the call that asked for it.
 *
 * How: `inTransaction` marks the async context of a drizzle transaction's body (createDb wraps
 * `transaction`); pg's `Pool.prototype.connect`, through which every pool of the process checks
 * out (drizzle's, pg-boss's, `pool.query`'s), refuses while the context's transaction is open on the
 * same embedded server. The embedded server's URL carries `EMBEDDED_MARK`. On Postgres nothing is
 * refused: a second connection there waits only for the rows it touches.
 *
 * Free of `server-only`, like ./pool.ts; the marker and the patch live on globalThis so that every
 * copy of this module in a process (Next bundles, scripts) shares them.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Pool } from 'pg';

/** A query parameter that the embedded server's URL carries (pg ignores parameters it does not know). */
export const EMBEDDED_MARK = 'verdict_embedded=1';

export const markEmbeddedUrl = (url: string) => `${url}${url.includes('?') ? '&' : '?'}${EMBEDDED_MARK}`;
export const isEmbeddedUrl = (url: string | undefined) => Boolean(url && url.includes(EMBEDDED_MARK));

interface TxMark {
  /** host:port of the transaction's server. */
  server: string;
  open: boolean;
}

const shared = globalThis as unknown as { __verdictTxContext?: AsyncLocalStorage<TxMark> };
const context = (shared.__verdictTxContext ??= new AsyncLocalStorage<TxMark>());

function serverOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}`;
  } catch {
    return url;
  }
}

export class SecondConnectionError extends Error {
  constructor(readonly call: string) {
    super(
      `A second database connection was asked for inside a transaction, by ${call}. The embedded ` +
        'database runs one transaction at a time, so it would wait for this one forever: do it before ' +
        'the transaction opens, or through the transaction itself.',
    );
    this.name = 'SecondConnectionError';
  }
}

/** Runs a transaction's body with the mark that refuses second connections to its server. */
export async function inTransaction<T>(url: string, body: () => Promise<T>): Promise<T> {
  const mark: TxMark = { server: serverOf(url), open: true };
  try {
    return await context.run(mark, body);
  } finally {
    // Work the body started and left running keeps the context: it may connect once this is over.
    mark.open = false;
  }
}

/** The innermost frames of the stack that are ours (not pg, pg-boss, drizzle, the tracing wrapper or this guard), innermost first. */
function callSite(): string {
  // The driver's and the pool's wrappers alone fill the default ten frames.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const ours = stack
    .split('\n')
    .slice(1)
    .filter(
      (f) =>
        /^\s*at /.test(f) &&
        !/node_modules|node:|second-connection|lib\/db\/pool|lib\/telemetry|at new Promise/.test(f),
    )
    .map((f) => f.trim().replace(/^at /, '').replace(`${process.cwd()}/`, ''));
  return ours.length ? ours.slice(0, 3).join(' < ') : 'an unknown caller';
}

type ConnectCallback = (err: Error | undefined, client?: unknown, done?: () => void) => void;
const PATCHED = Symbol.for('verdict.db.refuseSecondConnections');

/** Installs the check on pg's Pool, once per process. */
export function refuseSecondConnections(): void {
  const proto = Pool.prototype as unknown as {
    connect: (this: Pool, cb?: ConnectCallback) => unknown;
    [PATCHED]?: true;
  };
  if (proto[PATCHED]) return;
  proto[PATCHED] = true;
  const connect = proto.connect;
  proto.connect = function (this: Pool, cb?: ConnectCallback) {
    const mark = context.getStore();
    const url = (this as unknown as { options?: { connectionString?: string } }).options?.connectionString;
    if (mark?.open && isEmbeddedUrl(url) && serverOf(url!) === mark.server) {
      const err = new SecondConnectionError(callSite());
      if (typeof cb === 'function') {
        process.nextTick(() => cb(err));
        return undefined;
      }
      return Promise.reject(err);
    }
    return connect.call(this, cb);
  };
}
