/**
 * `npm run db:migrate`: applies the committed migrations (drizzle/) to DATABASE_URL, or to the
 * embedded database in DATA_DIR (the running `npm start`'s when there is one), and says what it
 * applied. `npm start` and the tests migrate by themselves; this is for real deployments that
 * migrate before rolling out new consoles.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { runMigrations } from '@/lib/db/migrate';
import { loadConfigOrExit, lockDownDataDir, openDatabase } from '@/lib/server/runtime';

async function applied(url: string): Promise<number> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c
      .query(`select count(*)::int as n from drizzle.__drizzle_migrations`)
      .catch(() => ({ rows: [{ n: 0 }] }));
    return r.rows[0].n as number;
  } finally {
    await c.end();
  }
}

async function main() {
  const env = loadConfigOrExit();
  const dataDir = path.resolve(env.DATA_DIR);
  if (!process.env.DATABASE_URL) lockDownDataDir(dataDir);
  // A running `npm start` owns the embedded database: use its address instead of opening it.
  const running = !process.env.DATABASE_URL && fs.existsSync(path.join(dataDir, 'pglite.url'));
  const db = await openDatabase({ dataDir, port: env.PGLITE_PORT, own: !running });
  const where = process.env.DATABASE_URL
    ? 'DATABASE_URL'
    : `the embedded database in ${path.relative(process.cwd(), dataDir) || '.'}`;
  try {
    const before = await applied(db.url);
    await runMigrations(db.url);
    const after = await applied(db.url);
    const total = JSON.parse(fs.readFileSync('drizzle/meta/_journal.json', 'utf8')).entries.length as number;
    console.log(
      after > before
        ? `Applied ${after - before} migration(s) to ${where}; ${after} of ${total} in place.`
        : `Nothing to apply: all ${total} migrations are in place in ${where}.`,
    );
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error('[migrate] failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
