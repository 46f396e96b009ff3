import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { markEmbeddedUrl } from './second-connection';

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
  if (opts.dataDir) keepFilesPrivate(opts.dataDir);
  const pglite = await PGlite.create({ dataDir: opts.dataDir, extensions: { pg_trgm } });
  const socketServer = new PGLiteSocketServer({ db: pglite, maxConnections: opts.maxConnections ?? MAX_CONNECTIONS });
  keepProtocolGroupsTogether(socketServer);
  // pglite-socket accepts any user and password as superuser. Connections are authenticated
  // here first (a random password per start, known only from the 0600 URL file in the data
  // folder and the environment of the processes `npm start` starts), then handed to it.
  const password = opts.dataDir ? keptPassword(opts.dataDir) : randomBytes(24).toString('base64url');
  await pglite.waitReady;
  const internals = socketServer as unknown as { active: boolean; handleConnection(socket: Socket): Promise<void> };
  internals.active = true;
  const sockets = new Set<Socket>();
  const listener = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    void authenticate(socket, password).then(async (ok) => {
      if (!ok) return;
      await internals.handleConnection(socket);
      socket.resume();
    });
  });
  listener.maxConnections = opts.maxConnections ?? MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = listener.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  if (!port) throw new Error('embedded database: could not determine the listening port');
  return {
    // Marked, so that a second connection asked for inside a transaction fails at once (./second-connection.ts).
    url: markEmbeddedUrl(`postgres://postgres:${password}@127.0.0.1:${port}/postgres?sslmode=disable`),
    port,
    async close() {
      // Like a server shutting down: open connections end (their pools reconnect later).
      const closed = closeServer(listener);
      await socketServer.stop().catch(() => undefined);
      for (const socket of sockets) socket.destroy();
      await closed;
      await pglite.close().catch(() => undefined);
      if (lockFile) fs.rmSync(lockFile, { force: true });
    },
  };
}

/**
 * One password per database folder, kept beside it (0600), so a restart on the same folder keeps
 * the address that `npm run worker` and `npm run sync` already read.
 */
function keptPassword(dataDir: string): string {
  const file = path.join(dataDir, '..', `${path.basename(dataDir)}.password`);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const value = randomBytes(24).toString('base64url');
  fs.writeFileSync(file, value, { mode: 0o600 });
  return value;
}

function closeServer(server: Server) {
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
const digest = (s: string) => createHash('sha256').update(s).digest();

/** A wire-protocol ErrorResponse followed by the end of the connection. */
function refuse(socket: Socket, code: string, message: string) {
  const fields = Buffer.concat([
    ...[
      ['S', 'FATAL'],
      ['V', 'FATAL'],
      ['C', code],
      ['M', message],
    ].map(([k, v]) => Buffer.from(`${k}${v}\0`)),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(fields.length + 4, 1);
  socket.end(Buffer.concat([head, fields]));
}

/**
 * Reads the client's startup message, asks for a password (cleartext: the socket is loopback
 * only), and compares it in constant time. On success the startup message is put back, so the
 * embedded server sees the connection as if it had read it itself.
 */
function authenticate(socket: Socket, password: string): Promise<boolean> {
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    let startup: Buffer | null = null;
    const timer = setTimeout(() => done(false, () => socket.destroy()), 10_000);
    function done(ok: boolean, after?: () => void) {
      clearTimeout(timer);
      socket.removeListener('data', onData);
      socket.removeListener('error', onError);
      after?.();
      resolve(ok);
    }
    function onError() {
      done(false, () => socket.destroy());
    }
    function onData(chunk: Buffer) {
      buf = Buffer.concat([buf, chunk]);
      while (!startup) {
        if (buf.length < 8) return;
        const len = buf.readInt32BE(0);
        const code = buf.readInt32BE(4);
        if (len === 8 && code === SSL_REQUEST) {
          socket.write('N');
          buf = buf.subarray(8);
          continue;
        }
        if (code === CANCEL_REQUEST || code !== PROTOCOL_3 || len > 10_000) return done(false, () => socket.destroy());
        if (buf.length < len) return;
        startup = buf.subarray(0, len);
        buf = buf.subarray(len);
        // AuthenticationCleartextPassword.
        socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]));
      }
      if (buf.length < 5) return;
      if (buf[0] !== 0x70) return done(false, () => refuse(socket, '08P01', 'expected a password message'));
      const len = buf.readInt32BE(1);
      if (len > 1_000) return done(false, () => refuse(socket, '28P01', 'password authentication failed'));
      if (buf.length < 1 + len) return;
      const given = buf
        .subarray(5, 1 + len)
        .toString('utf8')
        .replace(/\0$/, '');
      const rest = buf.subarray(1 + len);
      if (!timingSafeEqual(digest(given), digest(password)))
        return done(false, () => refuse(socket, '28P01', 'password authentication failed for the embedded database'));
      const replay = Buffer.concat([startup, rest]);
      done(true, () => {
        socket.pause();
        socket.unshift(replay);
      });
    }
    socket.on('data', onData);
    socket.on('error', onError);
  });
}

const privateRoots = new Set<string>();

/**
 * PGlite (Emscripten's NODEFS) chmods every file it creates to 0666 whatever the umask, so the
 * database's files would be world-readable. Its chmod calls are narrowed to the owner's bits for
 * the folders it serves; the folder itself is created 0700.
 */
function keepFilesPrivate(dataDir: string) {
  const root = path.resolve(dataDir);
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  fs.chmodSync(root, 0o700);
  if (!privateRoots.size) {
    const chmod = fs.chmodSync;
    const fchmod = fs.fchmodSync;
    const inside = (p: fs.PathLike) => [...privateRoots].some((r) => path.resolve(String(p)).startsWith(r));
    fs.chmodSync = (p, mode) => chmod(p, inside(p) && typeof mode === 'number' ? mode & 0o700 : mode);
    // Descriptor-based: only this process's embedded databases use it.
    fs.fchmodSync = (fd, mode) => fchmod(fd, typeof mode === 'number' ? mode & 0o700 : mode);
  }
  privateRoots.add(root);
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
  fs.writeFileSync(file, String(process.pid), { mode: 0o600 });
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
