import type { TestProject } from 'vitest/node';
import { createTestDatabase } from '@/scripts/support/test-database';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    databaseKind: 'postgres' | 'pglite';
  }
}

/** One migrated database for the whole run; each test cleans up or namespaces its own rows. */
export default async function setup(project: TestProject) {
  const db = await createTestDatabase('unit');
  project.provide('databaseUrl', db.url);
  project.provide('databaseKind', db.kind);
  process.env.DATABASE_URL = db.url;
  console.log(`[tests] database: ${db.kind === 'postgres' ? 'Postgres from TEST_DATABASE_URL' : 'embedded PGlite'}`);
  return async () => {
    await db.drop();
  };
}
