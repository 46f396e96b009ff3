import type { Db, DbOrTx, Tx } from './client';

/**
 * Runs `fn` in the caller's transaction when given one, else in a new one. Apart from the
 * client (which is server-only) because ingest also runs in scripts and the browser tests' seeding.
 */
export async function inTx<T>(dbOrTx: DbOrTx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  // A drizzle transaction has `rollback`; a plain database handle does not.
  if ('rollback' in dbOrTx) return fn(dbOrTx as Tx);
  return (dbOrTx as Db).transaction(fn);
}
