import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Client } from 'pg';
import { startConsole, stopGracefully, type ChildRun } from '../support/processes';
import { until } from '../support/wait';
import { fillResolveForm, PASSWORD, signInAs } from '../support/e2e/helpers';

/**
 * A fresh `npm start` on the embedded database, and the analyst's very first action a resolve
 * with FRAUD (issue 19, item 4). That resolve used to start the job queue inside its transaction;
 * the embedded database runs one transaction at a time, so it never answered, and from then on
 * neither did `/api/health` nor any page. Its own console: a fresh DATA_DIR, no DATABASE_URL, on
 * a port of its own beside the run's console, started by `npm start`'s own start-up.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100) + 400;
const BASE = `http://localhost:${PORT}`;
test.use({ baseURL: BASE, storageState: { cookies: [], origins: [] } });
test.describe.configure({ timeout: 300_000 });

let run: ChildRun;
let dataDir: string;

/** The fresh console's own database, through the address its start-up keeps in DATA_DIR. */
async function query<T>(text: string): Promise<T[]> {
  const c = new Client({ connectionString: fs.readFileSync(path.join(dataDir, 'pglite.url'), 'utf8').trim() });
  await c.connect();
  try {
    return (await c.query(text)).rows as T[];
  } finally {
    await c.end();
  }
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-fresh-'));
  run = await startConsole({
    PORT: String(PORT),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    TEST_DATABASE_URL: '',
    E2E_DATABASE_URL: '',
    DEMO_PASSWORD: PASSWORD,
    NEXTAUTH_SECRET: 'fresh-start-secret-fresh-start-secret-0123',
    SIM_PORT: '0',
    SIM_EXECUTIONS: '120',
  });
});

test.afterAll(async () => {
  if (run) await stopGracefully(run);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('the analyst’s first action on a fresh console is a resolve with FRAUD: it answers within 5 s and the console keeps answering', async ({
  page,
  request,
}) => {
  // The start-up's backfill brings the simulator's executions and their cases; the demo history
  // rewrites them once (a transaction of its own that a resolve would rightly wait for).
  await until(
    () => query<{ n: number }>(`select count(*)::int as n from settings where key = 'cases.demo_history'`),
    (rows) => rows[0]?.n === 1,
    180_000,
    'the demo case history',
    1_000,
  );
  const [open] = await query<{ execution_id: string }>(`
    select c.execution_id from cases c join case_queues q on q.id = c.queue_id
     where c.state = 'open' and c.assignee_id is null and q.kind = 'filter' order by c.execution_id limit 1`);
  expect(open, 'an open case in a filter queue').toBeTruthy();

  await signInAs(page, 'analyst');

  await page.goto(`/executions/${open.execution_id}`);
  const form = await fillResolveForm(page, {
    outcome: 'Decline',
    reason: 'DOCUMENT_FORGED',
    comment: 'First thing on a fresh console.',
    label: ['FRAUD', 'IDENTITY_FRAUD'],
  });
  // The hang never answered. The 5 s target holds on a machine with a core to spare; on a saturated
  // one (several other builds and browsers sharing two cores) the bound is what tells an answer
  // from a hang, and the time is reported beside it.
  const perCore = os.loadavg()[0] / os.cpus().length;
  const bound = perCore < 2 ? 5_000 : 30_000;
  test
    .info()
    .annotations.push({ type: 'resolve bound', description: `${bound} ms at load ${perCore.toFixed(1)} per core` });
  const t0 = Date.now();
  await form.getByRole('button', { name: 'Resolve' }).click();
  await expect(page.getByTestId('case-resolution')).toContainText('Decline', { timeout: bound });
  const answeredMs = Date.now() - t0;
  console.log(
    `[fresh-start] the first resolve with FRAUD answered in ${answeredMs} ms (load ${perCore.toFixed(1)} per core)`,
  );
  expect(answeredMs).toBeLessThan(bound);

  // What the resolve wrote: the case, and the label with its delivery job.
  const [kase] = await query<{ state: string; outcome: string }>(
    `select state, outcome from cases where execution_id = '${open.execution_id}'`,
  );
  expect(kase).toEqual({ state: 'resolved', outcome: 'decline' });
  const after = await query<{ n: number }>(
    `select count(*)::int as n from feedback_submissions where execution_id = '${open.execution_id}' and status = 'FRAUD'`,
  );
  expect(after[0].n).toBe(1);

  // The console keeps answering: health, and a page for another request.
  for (let i = 0; i < 3; i++) {
    const health = await request.get('/api/health', { timeout: 5_000 });
    expect(health.status()).toBe(200);
  }
  await page.goto('/executions', { timeout: 10_000 });
  await expect(page.getByRole('heading', { name: 'Executions', level: 1 })).toBeVisible({ timeout: 10_000 });
  // And the label leaves: the worker delivers it to the simulator.
  await until(
    () =>
      query<{ state: string }>(
        `select state from feedback_submissions where execution_id = '${open.execution_id}' order by submitted_at desc limit 1`,
      ),
    (rows) => ['delivered', 'awaiting_approval'].includes(rows[0]?.state ?? ''),
    60_000,
    'the label delivered',
    1_000,
  );
});
