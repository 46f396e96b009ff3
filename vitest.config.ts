import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(__dirname),
      // next's "server-only" guard throws outside the React server runtime; tests import server modules directly.
      'server-only': path.resolve(__dirname, 'node_modules/server-only/empty.js'),
    },
  },
  test: {
    include: ['tests/{unit,integration,contract}/**/*.test.ts'],
    globalSetup: ['tests/setup/global.ts'],
    setupFiles: ['tests/setup/db-env.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Integration tests share one database server; files run one at a time to keep 2 cores responsive.
    fileParallelism: false,
  },
});
