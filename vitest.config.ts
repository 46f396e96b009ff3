import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Tests that use the run's database (Postgres from TEST_DATABASE_URL, else PGlite). CI runs this
// project a second time on PGlite (`npm run test:db`).
const DATABASE_TESTS = ['tests/integration/**/*.test.ts', 'tests/unit/trends.test.ts', 'tests/unit/db-outage.test.ts'];
// Integration tests that start their own embedded database (or use none): the same on either
// run database, so they run once.
const OWN_DATABASE_TESTS = [
  'tests/integration/database-outage.test.ts',
  'tests/integration/embedded-access.test.ts',
  'tests/integration/embedded-transactions.test.ts',
  'tests/integration/idv-client.test.ts',
  'tests/integration/start-config.test.ts',
];

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname),
      // next's "server-only" guard throws outside the React server runtime; tests import server modules directly.
      'server-only': path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js'),
    },
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['tests/{unit,contract}/**/*.test.ts'],
          exclude: DATABASE_TESTS,
          // Pure logic and the simulator on port 0: two files at a time use both cores.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'database',
          include: DATABASE_TESTS,
          exclude: OWN_DATABASE_TESTS,
          globalSetup: ['tests/support/vitest/global-setup.ts'],
          setupFiles: ['tests/support/vitest/db-env.ts'],
          // These share one database server and start processes of their own; one file at a time
          // keeps 2 cores responsive. They run after the isolated project, not beside it.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'own-database',
          include: OWN_DATABASE_TESTS,
          globalSetup: ['tests/support/vitest/global-setup.ts'],
          setupFiles: ['tests/support/vitest/db-env.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
