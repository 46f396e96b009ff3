import { defineConfig } from '@playwright/test';
import { METRICS_TOKEN, PASSWORD as E2E_PASSWORD, e2eLogFile, workerMetricsPort } from './tests/support/e2e/helpers';

const PORT = Number(process.env.E2E_PORT ?? 3100);

export default defineConfig({
  testDir: 'tests/e2e',
  // A screenshot tool for people to look at, not a check: it runs only when asked for (SHOTS_DIR).
  testIgnore: process.env.SHOTS_DIR ? [] : ['**/feedback-screens.spec.ts', '**/day-screens.spec.ts'],
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  globalSetup: './tests/support/e2e/global-setup.ts',
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || undefined,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: 'node node_modules/tsx/dist/cli.mjs --conditions=react-server scripts/start.ts',
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      DATA_DIR: process.env.E2E_DATA_DIR || '.data/e2e',
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? '',
      DEMO_PASSWORD: E2E_PASSWORD,
      // Managers and admins of the tests' own must enrol a second factor; the analysts other specs
      // create sign in with a password alone (the demo users always do in demo mode).
      MFA_REQUIRED: 'privileged',
      NEXTAUTH_SECRET: 'e2e-secret-e2e-secret-e2e-secret-0123456789',
      SIM_PORT: '0',
      // As many as the demo needs for a ring of ten or more (1,500 on a fresh `npm start`; 300 forms none).
      SIM_EXECUTIONS: process.env.E2E_SIM_EXECUTIONS ?? '1000',
      NEXT_TELEMETRY_DISABLED: '1',
      // The operations spec scrapes both processes and reads their log lines (tests/e2e/operations.spec.ts).
      METRICS_TOKEN,
      METRICS_WORKER_PORT: String(workerMetricsPort(PORT)),
      LOG_FILE: e2eLogFile(),
    },
  },
});
