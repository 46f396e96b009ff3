/**
 * The database pool and the process-wide handle. Free of `server-only`, like lib/db/shutdown.ts:
 * the console server (scripts/console-server.ts, plain Node) answers the service's callbacks itself
 * and shares this handle (kept on globalThis) with the code Next bundled for the routes. Everything
 * else imports `lib/db/client`, which adds the marker.
 */
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { Pool, type PoolClient } from 'pg';
import { noteDatabaseOutage } from '@/lib/db/outage-status';
import { logFor } from '@/lib/log';
import { forgetShutdown, onShutdown } from '@/lib/db/shutdown';
import { SpanKind, withSpan } from '@/lib/telemetry/tracing';
import { isDatabaseOutage, markDatabaseError } from './outage';
import * as schema from './schema';
import { inTransaction, refuseSecondConnections } from './second-connection';

refuseSecondConnections();

export type Db = NodePgDatabase<typeof schema> & { $client: Pool };
/** A transaction of `Db`, and either: the functions that write accept both. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

type Holder = { pool?: Pool; db?: Db; url?: string; named?: { url: string; max?: number } };
// Kept on globalThis so that hot reload in development does not open a new pool per edit.
const holder = ((globalThis as unknown as { __verdictDb?: Holder }).__verdictDb ??= {});

export function createDb(url: string, max = 10): Db {
  const pool = new Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    // No JIT: the console's queries are short, and Postgres compiles any plan costed over
    // jit_above_cost, which at a million executions adds 50-80 ms to aggregates that run in 10
    // (the queues page's figures: scripts/bench-cases.ts).
    options: '-c jit=off',
  });
  // A dropped connection must not crash the process; the next query reconnects.
  pool.on('error', (err) => logFor('db').error({ code: (err as { code?: string }).code }, 'idle client error'));
  // The pool listens for errors of idle clients only: a connection lost while a client is checked
  // out between two statements (a transaction) would be an unhandled 'error' event, which ends the
  // process. The statement that follows fails instead, and the transaction with it.
  pool.on('connect', (client) =>
    client.on('error', (err) => logFor('db').error({ code: (err as { code?: string }).code }, 'connection lost')),
  );
  retryRefusedConnect(pool);
  watchQueries(pool);
  releaseOnFailedBegin(pool);
  const db = drizzle(pool, { schema }) as Db;
  // A transaction's body is marked: on the embedded database, a second checkout from inside it fails at once.
  const transaction = db.transaction.bind(db);
  // A transaction is one span: its statements are a group (lib/telemetry/tracing.ts).
  db.transaction = ((body: (tx: Tx) => Promise<unknown>, config?: Parameters<Db['transaction']>[1]) =>
    withSpan('db transaction', { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql' } }, () =>
      transaction((tx) => inTransaction(url, () => body(tx)), config),
    )) as Db['transaction'];
  return db;
}

type ConnectCallback = (err: Error | undefined, client?: PoolClient, done?: (err?: Error) => void) => void;
type Connect = (cb?: ConnectCallback) => Promise<PoolClient> | void;

/** What this pool does with each error a statement or a connect meets. */
function onDatabaseError(err: unknown) {
  markDatabaseError(err, 'statement');
  noteDatabaseOutage(err);
}

/** Pauses before the new attempts to connect while the database refuses connections. */
const CONNECT_RETRY_MS = [200, 600];

/**
 * A connection the database refused (stopped, restarting: ECONNREFUSED, 57P03 "the database
 * system is starting up") is tried twice more, briefly, before the caller gets the error. Safe
 * for any work, writes included: nothing was sent yet. pg-pool's own `query` connects through
 * the callback form of `connect`, so both forms go through the retry.
 */
function retryRefusedConnect(pool: Pool) {
  const connect = pool.connect.bind(pool) as Connect;
  const withRetries = async (): Promise<PoolClient> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await (connect() as Promise<PoolClient>);
      } catch (err) {
        markDatabaseError(err, 'connect');
        if (attempt >= CONNECT_RETRY_MS.length || !isDatabaseOutage(err)) {
          noteDatabaseOutage(err);
          throw err;
        }
        await new Promise((r) => setTimeout(r, CONNECT_RETRY_MS[attempt]));
      }
    }
  };
  (pool as unknown as { connect: Connect }).connect = (cb?: ConnectCallback) => {
    const result = withRetries();
    if (typeof cb !== 'function') return result;
    result.then(
      (client) => cb(undefined, client, (err?: Error) => client.release(err)),
      (err: Error) => cb(err, undefined, () => undefined),
    );
  };
}

const WATCHED = Symbol('verdict.db.watched');

/**
 * Marks every error of this pool's statements as the database's and notes an outage in the
 * request that met it (`onDatabaseError`): through the promise of `pool.query` (drizzle outside
 * a transaction) and of each checked-out client's `query` (a transaction). Promise forms only:
 * a promise's handlers run in the context of the request that sent the statement, a driver
 * callback in that of whichever request opened the connection. The handler is attached before
 * the caller's, so the mark is there when the caller sees the error.
 */
function watchQueries(pool: Pool) {
  const watch = <T>(result: T): T => {
    if (result instanceof Promise) result.catch(onDatabaseError);
    return result;
  };
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: typeof query }).query = (...args: unknown[]) =>
    typeof args[args.length - 1] === 'function'
      ? watch(query(...args))
      : statementSpan(args[0], () => watch(query(...args)));
  const connect = pool.connect.bind(pool) as Connect;
  (pool as unknown as { connect: Connect }).connect = (cb?: ConnectCallback) => {
    if (typeof cb === 'function') return connect(cb);
    return (connect() as Promise<PoolClient>).then((client) => {
      const c = client as PoolClient & { [WATCHED]?: true };
      if (!c[WATCHED]) {
        c[WATCHED] = true;
        const clientQuery = c.query as (...args: unknown[]) => unknown;
        c.query = function (this: PoolClient, ...args: unknown[]) {
          return watch(clientQuery.apply(this, args));
        } as typeof c.query;
      }
      return client;
    });
  };
}

/**
 * A statement outside a transaction is a span of its own, named by its verb only: the text is
 * parameterized, but a span is no place to find out whether some caller inlined a value.
 */
function statementSpan(first: unknown, run: () => unknown): unknown {
  const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
  const verb = /^\s*(\w+)/.exec(text ?? '')?.[1]?.toLowerCase() ?? 'query';
  return withSpan(
    `db ${verb}`,
    { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql', 'db.operation.name': verb } },
    () => Promise.resolve(run()),
  );
}

/**
 * drizzle's transaction() checks a client out, sends `begin` outside its try/finally, and so never
 * releases the client when `begin` itself fails (the database just restarted): the pool runs dry.
 * This releases it, with the error, for that one case.
 */
function releaseOnFailedBegin(pool: Pool) {
  const connect = pool.connect.bind(pool) as (cb?: unknown) => Promise<PoolClient> | void;
  (pool as unknown as { connect: typeof connect }).connect = (cb?: unknown) => {
    if (typeof cb === 'function') return connect(cb);
    return (connect() as Promise<PoolClient>).then((client) => {
      const query = client.query;
      // Only the first statement of this checkout is watched.
      client.query = function (this: PoolClient, ...args: unknown[]) {
        client.query = query;
        const result = (query as (...a: unknown[]) => unknown).apply(this, args);
        const first = args[0] as string | { text?: string } | undefined;
        const text = typeof first === 'string' ? first : first?.text;
        if (result instanceof Promise && /^\s*begin\b/i.test(text ?? '')) {
          return result.catch((err: unknown) => {
            try {
              client.release(err instanceof Error ? err : new Error(String(err)));
            } catch {
              /* already released */
            }
            throw err;
          });
        }
        return result;
      } as typeof client.query;
      return client;
    });
  };
}

/**
 * Names the process's database when start-up resolved it instead of finding DATABASE_URL (a worker
 * on `npm start`'s embedded database), with the size of its pool: `db()` opens that one, and no
 * code writes the address into the environment for another to read.
 */
export function setProcessDatabase(url: string, max?: number): void {
  if (holder.db && holder.url !== url) throw new Error('The process database is already open at another address.');
  holder.named = { url, max };
}

/** The process's database: the one start-up named (`setProcessDatabase`), else DATABASE_URL. */
export function databaseUrl(): string | undefined {
  return holder.named?.url ?? process.env.DATABASE_URL;
}

/** The process-wide database handle: the database start-up named, else DATABASE_URL. */
export function db(): Db {
  if (!holder.db) {
    const url = databaseUrl();
    if (!url) throw new Error('DATABASE_URL is not set: start Verdict with `npm start`, which provides one.');
    holder.db = createDb(url, holder.named?.max ?? Number(process.env.DB_POOL_MAX ?? 10));
    holder.pool = holder.db.$client;
    holder.url = url;
    onShutdown('db', closeDb);
  }
  return holder.db;
}

/** Ends the process-wide pool (a stopping process); the next `db()` would open a new one. */
export async function closeDb(): Promise<void> {
  const pool = holder.pool;
  holder.db = undefined;
  holder.pool = undefined;
  holder.url = undefined;
  forgetShutdown('db');
  await pool?.end();
}

export { schema };
