/**
 * A transient database outage, defined once: which errors mean that the database is stopping,
 * restarting or unreachable (and not that a statement is wrong), how a read is retried through
 * one, and the error that pages throw while it lasts, whose digest tells the error pages
 * (app/error.tsx, app/global-error.tsx) to say so. Route handlers answer 503 with Retry-After
 * (lib/api/http.ts) and the console server gives a page that met one the status 503
 * (lib/db/outage-status.ts).
 *
 * Imports nothing: the error pages are client components and read the digest and the words here.
 */

/**
 * SQLSTATEs of a server that ends or refuses connections while it stops, restarts or starts
 * (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now) and of a lost
 * connection (08000, 08003, 08006; 08001: the client could not establish one).
 */
const OUTAGE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08006']);
/** Socket errors of a server that is not listening or went away. */
const OUTAGE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE']);
/**
 * node-postgres reports a connection that ended under a query with messages, not codes
 * (pg/lib/client.js: "Connection terminated unexpectedly", "Connection terminated";
 * pg-pool: "Connection terminated due to connection timeout"; a client whose connection failed
 * earlier: "… encountered a connection error and is not queryable").
 */
const OUTAGE_MESSAGES = /^Connection terminated\b|encountered a connection error and is not queryable/;

/** Seconds a client is asked to wait (Retry-After) before trying again: a restart takes a few. */
export const DATABASE_OUTAGE_RETRY_AFTER_S = 5;

/** What people are told, on the error pages, in problem JSON and in a server action's answer. */
export const DATABASE_OUTAGE_TEXT = {
  title: 'Verdict cannot reach its database',
  detail: 'Try again in a moment.',
} as const;

/**
 * The digest of `DatabaseOutageError`. Next keeps a digest that a server error already has and
 * hands it to the error boundary (in production the message is replaced), so the boundary knows.
 */
export const DATABASE_OUTAGE_DIGEST = 'VERDICT_DATABASE_OUTAGE';

/**
 * Set on errors that came out of a database connection (lib/db/pool.ts marks them): socket
 * errors and the driver's messages mean the database only there. The service client's network
 * errors carry the same socket codes (lib/idv: IdvNetworkError), and a page must not blame the
 * database for them. A registered symbol: the console server and the code Next bundled each
 * have their own copy of this module.
 */
const FROM_DATABASE = Symbol.for('verdict.db.error');

/**
 * Marks `err` as thrown by a database connection (the pool's wrappers call this): while
 * connecting (nothing was sent; the pool has retried it already) or under a statement.
 */
export function markDatabaseError(err: unknown, stage: 'connect' | 'statement'): void {
  if (err && typeof err === 'object' && !(FROM_DATABASE in err))
    Object.defineProperty(err, FROM_DATABASE, { value: stage });
}

/** Whether `err` (or its cause) is a connect the pool gave up on. */
function isRefusedConnect(err: unknown): boolean {
  for (let e = err, i = 0; e && typeof e === 'object' && i < 5; e = (e as { cause?: unknown }).cause, i++)
    if ((e as { [FROM_DATABASE]?: string })[FROM_DATABASE] === 'connect') return true;
  return false;
}

/**
 * Whether `err` is a transient outage: an outage SQLSTATE anywhere along its causes, or a
 * refused or lost connection of the database (drizzle's DrizzleQueryError carries the driver's
 * error as `cause`; a failed connect to several addresses is an AggregateError).
 */
export function isDatabaseOutage(err: unknown): boolean {
  const seen = new Set<unknown>();
  const walk = (e: unknown, fromDatabase: boolean): boolean => {
    if (!e || typeof e !== 'object' || seen.has(e)) return false;
    seen.add(e);
    if (e instanceof DatabaseOutageError) return true;
    const inDatabase = fromDatabase || FROM_DATABASE in e;
    const { code, message, cause, errors } = e as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && OUTAGE_SQLSTATES.has(code)) return true;
    if (inDatabase && typeof code === 'string' && OUTAGE_SOCKET_CODES.has(code)) return true;
    if (inDatabase && typeof message === 'string' && OUTAGE_MESSAGES.test(message)) return true;
    return walk(cause, inDatabase) || (Array.isArray(errors) && errors.some((x) => walk(x, inDatabase)));
  };
  return walk(err, false);
}

/**
 * What a page, action or route throws when the database is unreachable. It keeps only the
 * driver's code of the original error, not the error itself: drizzle's message carries the
 * statement's parameters, and Next logs a server error with its causes.
 */
export class DatabaseOutageError extends Error {
  readonly digest = DATABASE_OUTAGE_DIGEST;
  readonly code: string | undefined;
  constructor(original?: unknown) {
    const code = codeOf(original);
    super(`${DATABASE_OUTAGE_TEXT.title}${code ? ` (${code})` : ''}`);
    this.name = 'DatabaseOutageError';
    this.code = code;
  }
}

/** The first code along the error's causes, for the log. */
function codeOf(err: unknown): string | undefined {
  for (let e = err, i = 0; e && typeof e === 'object' && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** `err` as a `DatabaseOutageError` when it is an outage, else `err` unchanged (to rethrow). */
export function asOutage(err: unknown): unknown {
  return isDatabaseOutage(err) && !(err instanceof DatabaseOutageError) ? new DatabaseOutageError(err) : err;
}

/** Pause before the one new attempt of a read (the pool also retries a refused connection itself). */
const READ_RETRY_MS = 200;

/**
 * Runs `read` and, when a restart cut its statement mid-flight, once more after a short pause.
 * Only for reads: a write cut mid-flight may have committed, and running it again could apply it
 * twice. A refused connection is not tried again here (the pool did, lib/db/pool.ts); another
 * error, or a second outage, is thrown as is.
 */
export async function retryRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (!isDatabaseOutage(err) || isRefusedConnect(err)) throw err;
    await new Promise((r) => setTimeout(r, READ_RETRY_MS));
    return read();
  }
}
