import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Client } from 'pg';

/** Applies the committed migrations in drizzle/. Several processes may call this at once. */
export async function runMigrations(url: string, migrationsFolder = path.resolve(process.cwd(), 'drizzle')) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    // One migrator at a time; the others wait and then find nothing to do.
    await client.query('select pg_advisory_lock(72737001)');
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock(72737001)').catch(() => undefined);
    await client.end();
  }
}
