import { Client } from 'pg';
import { startEmbeddedDatabase } from '@/lib/db/embedded';
import { runMigrations } from '@/lib/db/migrate';

/**
 * A fresh, migrated database for one test run: a new database on the server in
 * TEST_DATABASE_URL when set (dropped afterwards), otherwise an in-memory embedded PGlite.
 * Refuses anything but a local server, so a test can never touch a real deployment.
 */
export async function createTestDatabase(
  label = 'test',
): Promise<{ url: string; kind: 'postgres' | 'pglite'; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (base) {
    const u = new URL(base);
    if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(u.hostname))
      throw new Error(`TEST_DATABASE_URL must point at a local server, not ${u.hostname}`);
    const name = `verdict_${label}_${process.pid}_${Date.now().toString(36)}`;
    const admin = new Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    u.pathname = `/${name}`;
    const url = u.toString();
    await runMigrations(url);
    return {
      url,
      kind: 'postgres',
      async drop() {
        const c = new Client({ connectionString: base });
        await c.connect();
        await c.query(`drop database if exists "${name}" with (force)`);
        await c.end();
      },
    };
  }
  const embedded = await startEmbeddedDatabase({});
  await runMigrations(embedded.url);
  return { url: embedded.url, kind: 'pglite', drop: () => embedded.close() };
}
