import fs from 'node:fs';
import path from 'node:path';

/** The database the console under test uses: the run's Postgres, or its embedded PGlite. */
export function e2eDatabaseUrl(): string {
  if (process.env.E2E_DATABASE_URL) return process.env.E2E_DATABASE_URL;
  const file = path.join(process.env.E2E_DATA_DIR || '.data/e2e', 'pglite.url');
  return fs.readFileSync(file, 'utf8').trim();
}
