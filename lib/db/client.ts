import 'server-only';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { Pool, type PoolClient } from 'pg';
import { forgetShutdown, onShutdown } from '@/lib/server/shutdown';
import * as schema from './schema';

export type Db = NodePgDatabase<typeof schema> & { $client: Pool };
/** A transaction of `Db`, and either: the functions that write accept both. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

type Holder = { pool?: Pool; db?: Db };
// Kept on globalThis so that hot reload in development does not open a new pool per edit.
const holder = ((globalThis as unknown as { __verdictDb?: Holder }).__verdictDb ??= {});

export function createDb(url: string, max = 10): Db {
  const pool = new Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  // A dropped connection must not crash the process; the next query reconnects.
  pool.on('error', (err) => console.error('[db] idle client error:', err.message));
  // The pool listens for errors of idle clients only: a connection lost while a client is checked
  // out between two statements (a transaction) would be an unhandled 'error' event, which ends the
  // process. The statement that follows fails instead, and the transaction with it.
  pool.on('connect', (client) => client.on('error', (err) => console.error('[db] connection lost:', err.message)));
  releaseOnFailedBegin(pool);
  return drizzle(pool, { schema }) as Db;
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

/** The process-wide database handle, from DATABASE_URL. */
export function db(): Db {
  if (!holder.db) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set: start Verdict with `npm start`, which provides one.');
    holder.db = createDb(url, Number(process.env.DB_POOL_MAX ?? 10));
    holder.pool = holder.db.$client;
    onShutdown('db', closeDb);
  }
  return holder.db;
}

/** Ends the process-wide pool (a stopping process); the next `db()` would open a new one. */
export async function closeDb(): Promise<void> {
  const pool = holder.pool;
  holder.db = undefined;
  holder.pool = undefined;
  forgetShutdown('db');
  await pool?.end();
}

export { schema };
