import fs from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { inArray } from 'drizzle-orm';
import { executions } from '@/lib/db/schema';
import { ingestMany } from '@/lib/sync/ingest';
import { withE2eDb } from '../support/e2e/db';
import { chooseFraud, METRICS_TOKEN, e2eLogFile, storageState, workerMetricsPort } from '../support/e2e/helpers';
import { simAddress, simGet } from '../support/e2e/sim';

/**
 * What an operator sees of the console that `npm start` runs (docs/operations.md): /metrics on
 * the console and on the worker's own listener, refused without METRICS_TOKEN; its series move
 * after an analyst's pages and a label; and the JSON log lines of both processes hold none of the
 * values of the person the analyst revealed, searched for and labelled FRAUD.
 */

const PORT = Number(process.env.E2E_PORT ?? 3100);
const WORKER_METRICS = `http://127.0.0.1:${workerMetricsPort(PORT)}/metrics`;
const withToken = { Authorization: `Bearer ${METRICS_TOKEN}` };

/** The sum of the samples of `name` whose labels include `labels`, in Prometheus text (0 when none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-z_:][\w:]*)(?:\{(.*)\})? (\S+)$/i.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(m[3]);
  }
  return sum;
}

async function scrape(api: APIRequestContext, url: string): Promise<string> {
  const r = await api.get(url, { headers: withToken });
  expect(r.status(), `${url} with the token`).toBe(200);
  expect(r.headers()['content-type']).toContain('text/plain');
  return r.text();
}

interface SimExecution {
  workflow: { id: string; status: string };
  wipedOutAt?: string;
  feedback?: unknown;
}

test.describe.configure({ mode: 'serial' });

test('/metrics refuses callers without METRICS_TOKEN, sessions included, on the console and the worker', async ({
  playwright,
  baseURL,
}) => {
  const anon = await playwright.request.newContext({ baseURL });
  const admin = await playwright.request.newContext({ baseURL, storageState: storageState('admin') });
  for (const [who, ctx, headers] of [
    ['no credential', anon, {}],
    ['a wrong token', anon, { Authorization: 'Bearer not-the-metrics-token-000' }],
    ["an admin's session", admin, {}],
  ] as const) {
    for (const url of ['/metrics', WORKER_METRICS]) {
      const r = await ctx.get(url, { headers, maxRedirects: 0 });
      expect(r.status(), `${who}: GET ${url}`).toBe(401);
      expect(r.headers()['www-authenticate']).toContain('Bearer');
      expect(await r.text()).not.toContain('verdict_');
    }
  }
  await anon.dispose();
  await admin.dispose();
});

test('series move after pages and a FRAUD label; the JSON logs hold none of the person', async ({
  browser,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const api = await playwright.request.newContext({ baseURL });
  const before = { console: await scrape(api, '/metrics'), worker: await scrape(api, WORKER_METRICS) };
  // Every queue has its depth series from the first scrape on, and the histograms are declared.
  for (const text of [before.console, before.worker]) {
    expect(text).toContain('verdict_job_queue_depth{queue="feedback.deliver",state="created"}');
    expect(text).toContain('# TYPE verdict_http_request_duration_seconds histogram');
    expect(text).toContain('verdict_db_pool_connections{state="max"}');
  }

  // A processed simulator execution without a label, with a name and a document number, in the cache.
  const sim = simAddress();
  const { workflowExecutions } = await simGet<{ workflowExecutions: SimExecution[] }>(
    api,
    sim,
    '/api/v1/workflow-executions?page=3&size=100',
  );
  const candidates = workflowExecutions.filter(
    (e) => e.workflow.status === 'PROCESSED' && !e.wipedOutAt && !e.feedback,
  );
  await withE2eDb((db) =>
    ingestMany(
      db,
      candidates.map((result) => ({ result, fetchedAt: new Date() })),
    ),
  );
  const rows = await withE2eDb((db) =>
    db
      .select({
        id: executions.id,
        firstName: executions.firstName,
        lastName: executions.lastName,
        documentNumber: executions.documentNumber,
        dateOfBirth: executions.dateOfBirth,
        feedbackStatus: executions.feedbackStatus,
      })
      .from(executions)
      .where(
        inArray(
          executions.id,
          candidates.map((c) => c.workflow.id),
        ),
      ),
  );
  const person = rows.reverse().find((r) => r.firstName && r.lastName && r.documentNumber && !r.feedbackStatus);
  expect(person, 'a labelable execution with personal data').toBeDefined();
  const { id, firstName, lastName, documentNumber, dateOfBirth } = person!;
  const reason = 'Comparing the passport with the selfie for ticket OPS-24';

  const context = await browser.newContext({ storageState: storageState('analyst') });
  const page = await context.newPage();
  await page.goto(`/executions/${id}`);
  await page.getByRole('button', { name: 'Reveal personal data' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reveal personal data' });
  await dialog.getByLabel('Reason').fill(reason);
  await dialog.getByRole('button', { name: 'Reveal for 15 minutes' }).click();
  await expect(page.getByText(/Personal data is revealed to you until/)).toBeVisible();
  await expect(page.getByText(`${firstName} ${lastName}`).first()).toBeVisible();

  await page.goto('/executions');
  const box = page.getByRole('searchbox');
  await box.fill(lastName!);
  await box.press('Enter');
  await expect(page.locator(`tbody a[href*="${id}"]`).first()).toBeVisible();

  await page.goto(`/executions/${id}`);
  const panel = page.getByTestId('feedback-panel');
  await chooseFraud(panel, 'IDENTITY_FRAUD');
  await panel.getByRole('button', { name: /^Submit / }).click();
  await expect(panel.getByTestId('feedback-current')).toContainText('Delivered', { timeout: 45_000 });
  await context.close();

  // The console counted the pages and the actions; the worker ran the delivery job and called R11.
  const after = { console: await scrape(api, '/metrics'), worker: '' };
  const page2xx = { route: '/executions/[id]', method: 'GET', status: '2xx' };
  expect(sample(after.console, 'verdict_http_request_duration_seconds_count', page2xx)).toBeGreaterThanOrEqual(
    sample(before.console, 'verdict_http_request_duration_seconds_count', page2xx) + 2,
  );
  for (const action of ['pii.reveal', 'feedback.submit']) {
    const ok = { action, outcome: 'ok' };
    expect(sample(after.console, 'verdict_action_duration_seconds_count', ok), action).toBeGreaterThan(
      sample(before.console, 'verdict_action_duration_seconds_count', ok),
    );
  }
  await expect(async () => {
    after.worker = await scrape(api, WORKER_METRICS);
    expect(sample(after.worker, 'verdict_feedback_deliveries_total', { outcome: 'delivered' })).toBeGreaterThan(
      sample(before.worker, 'verdict_feedback_deliveries_total', { outcome: 'delivered' }),
    );
  }).toPass({ timeout: 20_000 });
  const job = { queue: 'feedback.deliver', outcome: 'completed' };
  expect(sample(after.worker, 'verdict_job_duration_seconds_count', job)).toBeGreaterThan(
    sample(before.worker, 'verdict_job_duration_seconds_count', job),
  );
  const r11 = { operation: 'R11 setFeedback', outcome: '200' };
  expect(sample(after.worker, 'verdict_idv_request_duration_seconds_count', r11)).toBeGreaterThan(
    sample(before.worker, 'verdict_idv_request_duration_seconds_count', r11),
  );
  // No label value is a path or a person: routes are templates.
  expect(after.console).not.toContain(id);
  expect(after.console + after.worker).not.toContain(lastName!);

  // Both processes' lines are JSON with the fields an operator filters on, and none holds the person.
  const lines = fs.readFileSync(e2eLogFile(), 'utf8').split('\n').filter(Boolean);
  const notJson = lines.filter((l) => {
    try {
      return typeof JSON.parse(l) !== 'object';
    } catch {
      return true;
    }
  });
  expect(notJson, 'log lines that are not JSON').toEqual([]);
  const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(entries.some((e) => e.process === 'console')).toBe(true);
  // The worker (npm start's own process) logged the delivery.
  expect(entries.some((e) => e.process === 'start' && String(e.msg).startsWith('feedback: delivered'))).toBe(true);
  // The page's GET (its actions, such as the reveal, are POSTs to the same route).
  const pageLine = entries.find(
    (e) => e.msg === 'request' && e.route === '/executions/[id]' && e.method === 'GET' && e.userId,
  );
  expect(pageLine, 'a request line of the execution page').toMatchObject({
    level: 'info',
    time: expect.any(String),
    requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    method: 'GET',
    status: 200,
    durationMs: expect.any(Number),
  });
  const values = [firstName!, lastName!, documentNumber!, dateOfBirth, reason].filter((v): v is string => !!v);
  for (const v of values) {
    const word = new RegExp(`\\b${v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i');
    expect(
      lines.filter((l) => word.test(l)),
      `log lines holding "${v}"`,
    ).toEqual([]);
  }
  await api.dispose();
});
