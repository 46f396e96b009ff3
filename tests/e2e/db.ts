import { drizzle } from 'drizzle-orm/node-postgres';
import { Pool } from 'pg';
import type { Db } from '@/lib/db/client';
import * as schema from '@/lib/db/schema';
import { e2eDatabaseUrl } from './seed-url';

/**
 * The one way browser tests reach the console's database (to seed what a test needs, or to check
 * what a request wrote): one connection, typed like the app's own handle, closed after `fn`.
 */
export async function withE2eDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const pool = new Pool({ connectionString: e2eDatabaseUrl(), max: 1 });
  try {
    return await fn(drizzle(pool, { schema }));
  } finally {
    await pool.end();
  }
}
