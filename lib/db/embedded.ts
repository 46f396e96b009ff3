import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDatabase {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Connections the embedded server accepts, from all processes together. PGlite runs one
 * statement at a time whatever the number of connections (they all wait in one queue), so a
 * connection costs a socket and nothing more. A connection above pglite-socket's limit is not
 * queued but dropped at once (Node's `server.maxConnections`, then "Too many connections"):
 * the client sees ECONNRESET. The pools of one `npm start` alone open up to 25 (the console's 10
 * and its pg-boss's 4; the worker's pg-boss 3, sync 4 and feedback 4), and a page that runs its
 * queries in parallel checks out the whole console pool at once: with the former limit of 16 the
 * trends page failed as soon as the worker held its connections. The limit is only a guard
 * against a runaway client, far above what the processes' pools add up to.
 */
export const MAX_CONNECTIONS = 1000;

/**
 * Starts PGlite (Postgres compiled to WASM) and serves it over the Postgres wire protocol, so
 * the console, scripts and the job queue all talk to it with the same `pg` driver as to a real
 * server. Exactly one process may own a PGlite folder: a lock file refuses a second owner,
 * which would otherwise silently lose writes.
 */
export async function startEmbeddedDatabase(
  opts: { dataDir?: string; port?: number; maxConnections?: number } = {},
): Promise<EmbeddedDatabase> {
  let lockFile: string | undefined;
  if (opts.dataDir) {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    lockFile = path.join(opts.dataDir, '..', `${path.basename(opts.dataDir)}.owner.pid`);
    acquireLock(lockFile);
  }
  const pglite = await PGlite.create({ dataDir: opts.dataDir, extensions: { pg_trgm } });
  const server = new PGLiteSocketServer({
    db: pglite,
    host: '127.0.0.1',
    port: opts.port ?? 0,
    maxConnections: opts.maxConnections ?? MAX_CONNECTIONS,
  });
  keepProtocolGroupsTogether(server);
  await server.start();
  const address = (server as unknown as { server?: { address(): { port: number } | string | null } }).server?.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 0);
  if (!port) throw new Error('embedded database: could not determine the listening port');
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    port,
    async close() {
      await server.stop().catch(() => undefined);
      await pglite.close().catch(() => undefined);
      if (lockFile) fs.rmSync(lockFile, { force: true });
    },
  };
}

function acquireLock(file: string) {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8'));
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new Error(
        `The embedded database in ${path.dirname(file)} is already open in process ${pid}. ` +
          'Stop that process first, or set DATABASE_URL to use a Postgres server.',
      );
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.writeFileSync(file, String(process.pid));
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  resolve(bytes: number): void;
  reject(err: unknown): void;
  onData(data: Uint8Array): void;
}
interface QueryQueue {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  db: PGlite;
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
}

// Extended-protocol messages (Parse, Bind, Describe, Execute, Close, Flush) up to the next Sync.
const GROUPED = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48]);

/**
 * pglite-socket 0.2 queues the wire-protocol messages of all connections one by one, so the
 * Parse/Bind/Execute/Sync of two concurrent queries can interleave and each binds the other's
 * statement ("bind message supplies 26 parameters, but prepared statement requires 2"). Its
 * queue also stalls for good after a failed message. This replaces the queue's loop: once a
 * connection has started an extended-protocol group (or a transaction), only its messages run
 * until the group's Sync (or the transaction's end); other connections wait their turn.
 */
function keepProtocolGroupsTogether(server: PGLiteSocketServer) {
  const q = (server as unknown as { queryQueue: QueryQueue }).queryQueue;
  let groupOwner: number | null = null;
  const clear = q.clearQueueForHandler.bind(q);
  q.clearQueueForHandler = (handlerId: number) => {
    clear(handlerId);
    if (groupOwner === handlerId) {
      groupOwner = null;
      void q.processQueue();
    }
  };
  q.processQueue = async function processQueue(this: QueryQueue) {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const owner = groupOwner ?? (this.db.isInTransaction() && this.lastHandlerId ? this.lastHandlerId : null);
        let item: QueuedMessage | undefined;
        if (owner === null) item = this.queue.shift();
        else {
          const i = this.queue.findIndex((m) => m.handlerId === owner);
          // The owner's next message is still on its way: wait for it (enqueue calls us again).
          if (i === -1) break;
          item = this.queue.splice(i, 1)[0];
        }
        if (!item) break;
        const type = item.message[0];
        groupOwner = GROUPED.has(type) ? item.handlerId : null;
        let bytes = 0;
        const current = item;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(current.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                current.onData(data);
              },
            }),
          );
        } catch (err) {
          groupOwner = null;
          current.reject(err);
          continue;
        }
        this.lastHandlerId = current.handlerId;
        current.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  };
}
