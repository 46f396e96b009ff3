import 'server-only';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '@/lib/db/embedded';
import { ConfigError, parseEnv, type Env } from '@/lib/env';

/**
 * Helpers shared by the command-line entry points (start, worker, sync): load .env, keep
 * generated secrets in the data folder, and find the database.
 */
export function loadDotEnv(file = '.env') {
  if (fs.existsSync(file)) process.loadEnvFile(file);
}

/** .env, then the validated configuration; a bad value ends the process with a message naming it. */
export function loadConfigOrExit(): Env {
  loadDotEnv();
  try {
    return parseEnv();
  } catch (err) {
    if (err instanceof ConfigError) {
      // For the person starting it, as written: not a JSON log line (console.* goes to the logger).
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/**
 * The data folder holds the embedded database, its address and password, and generated secrets:
 * only its owner may read it. New files are private (umask 077 for this process and the ones it
 * starts), and a folder left by an older version is closed: folders 0700, files 0600.
 */
export function lockDownDataDir(dataDir: string) {
  process.umask(0o077);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const walk = (p: string) => {
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) return;
    if (st.isDirectory()) {
      if ((st.mode & 0o777) !== 0o700) fs.chmodSync(p, 0o700);
      for (const name of fs.readdirSync(p)) walk(path.join(p, name));
    } else if ((st.mode & 0o077) !== 0) {
      fs.chmodSync(p, st.mode & 0o700);
    }
  };
  walk(dataDir);
}

/** A secret from the environment, or one generated once and kept (mode 600) in the data folder. */
export function persistentSecret(dataDir: string, name: string, bytes = 32): string {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, name);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const value = randomBytes(bytes).toString('base64url');
  fs.writeFileSync(file, value, { mode: 0o600 });
  return value;
}

export interface DatabaseHandle {
  url: string;
  embedded: EmbeddedDatabase | null;
  close(): Promise<void>;
}

const urlFile = (dataDir: string) => path.join(dataDir, 'pglite.url');

/**
 * DATABASE_URL when set; otherwise the embedded database. Only one process owns the PGlite
 * folder: the owner (`npm start`) serves it over the wire protocol and writes its address to
 * the data folder, so `npm run worker` and `npm run sync` connect to it instead of opening it.
 */
export async function openDatabase(opts: {
  dataDir: string;
  port?: number;
  own: boolean;
  log?: (s: string) => void;
}): Promise<DatabaseHandle> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, embedded: null, close: async () => {} };
  if (!opts.own) {
    const file = urlFile(opts.dataDir);
    if (!fs.existsSync(file))
      throw new Error(
        'No DATABASE_URL and no running embedded database: start Verdict with `npm start` first, or set DATABASE_URL.',
      );
    return { url: fs.readFileSync(file, 'utf8').trim(), embedded: null, close: async () => {} };
  }
  opts.log?.('Starting the embedded database (PGlite)…');
  const embedded = await startEmbeddedDatabase({ dataDir: path.join(opts.dataDir, 'pglite'), port: opts.port });
  // The URL carries the embedded database's password: owner-only, like the folder.
  fs.writeFileSync(urlFile(opts.dataDir), embedded.url, { mode: 0o600 });
  fs.chmodSync(urlFile(opts.dataDir), 0o600);
  return {
    url: embedded.url,
    embedded,
    async close() {
      fs.rmSync(urlFile(opts.dataDir), { force: true });
      await embedded.close();
    },
  };
}
