import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { storageState } from '../support/e2e/helpers';
import { dataJourney, e2eDataDir, simAddress, simHeaders } from '../support/e2e/sim';

/**
 * The sync against the running console: the built-in simulator sends its callbacks to the real
 * route, the worker inside `npm start` fetches them, and the admin's sync page shows it all.
 */
const callbackSecret = () => fs.readFileSync(path.join(e2eDataDir(), 'callback-secret'), 'utf8').trim();

test.describe('callback route', () => {
  test('refuses bad callbacks with a 4xx and accepts a good one', async ({ request }) => {
    const sim = simAddress();
    const list = await request.get(`${sim.url}/api/v1/workflow-executions?page=1&size=1`, {
      headers: await simHeaders(request, sim),
    });
    const [known] = (
      (await list.json()) as { workflowExecutions: Array<{ workflow: { id: string }; account: { id: string } }> }
    ).workflowExecutions;
    const body = (id = known.workflow.id) => ({
      workflowExecution: {
        id,
        href: `${sim.url}/api/v1/workflow-executions/${id}`,
        definitionKey: '10013',
        status: 'PROCESSED',
      },
      account: { id: known.account.id },
    });
    const url = (secret?: string) =>
      `/api/idv/callback${secret === undefined ? '' : `?token=${encodeURIComponent(secret)}`}`;

    expect((await request.post(url(), { data: body() })).status()).toBe(401);
    expect((await request.post(url('wrong-secret-wrong-secret'), { data: body() })).status()).toBe(401);
    expect(
      (
        await request.post(url(callbackSecret()), {
          data: Buffer.from('{"workflowExecution":'),
          headers: { 'content-type': 'application/json' },
        })
      ).status(),
    ).toBe(400);
    // An execution the service does not know is still acknowledged: the receiver only stores
    // (one cheap write, README "Sync"); the inbox then finds it unknown, records the error on the
    // callback and fetches nothing (tests/integration/sync-callback.test.ts checks that part).
    expect(
      (await request.post(url(callbackSecret()), { data: body('6f1c2b1e-0000-4000-8000-000000000001') })).status(),
    ).toBe(200);
    expect(
      (await request.post(url(callbackSecret()), { data: { ...body(), padding: 'x'.repeat(100 * 1024) } })).status(),
    ).toBe(413);
    const ok = await request.post(url(callbackSecret()), { data: body() });
    expect(ok.status()).toBe(200);
    expect(await ok.json()).toMatchObject({ received: true });
    const bearer = await request.post(url(), {
      data: body(),
      headers: { authorization: `Bearer ${callbackSecret()}` },
    });
    expect(bearer.status()).toBe(200);
  });
});

test.describe('sync page', () => {
  test.use({ storageState: storageState('admin') });

  test('admin sees the counts, starts a backfill and sees its progress', async ({ page }) => {
    await page.goto('/sync');
    await expect(page.getByRole('heading', { name: 'Sync', level: 1 })).toBeVisible();
    const health = page.getByRole('region', { name: 'Sync health' });
    await expect(health.getByText('Executions at the service')).toBeVisible();
    // Feedback delivery has its own card: what waits, what the service refused, what got through.
    const delivery = page.getByRole('region', { name: 'Feedback delivery' });
    await expect(delivery.getByText('Labels are stored first and sent with retries.')).toBeVisible();
    await expect(delivery.getByText('Delivered in 24 h')).toBeVisible();
    // The start-up backfill counts the service and fills the cache.
    await expect(health.getByText(/counted by a full walk|estimated from the list/)).toBeVisible({ timeout: 45_000 });
    await page.getByRole('button', { name: 'Start a backfill' }).click();
    await expect(page.getByText(/The backfill is queued|A backfill was already open/)).toBeVisible();
    // A new run: its progress bar while it runs, then its row; either way it is there.
    const runs = page.getByRole('table', { name: /Backfills, reconciliations and polls/ });
    await expect(runs.getByRole('row', { name: /Backfill #\d+ · admin@verdict\.local/ }).first()).toBeVisible({
      timeout: 30_000,
    });
    await expect(
      runs.getByRole('row', { name: /Backfill #\d+ · admin@verdict\.local.*completed/ }).first(),
    ).toBeVisible({ timeout: 60_000 });
    // Other browser tests add fixture executions that the service never had, so the cache may
    // hold more than the service; it is never behind it after a completed backfill.
    await expect(health.getByText(/in step with the service|more than the service counted/)).toBeVisible({
      timeout: 30_000,
    });
  });

  test('a journey through the simulator arrives through its callback', async ({ page, request }) => {
    await dataJourney(request, simAddress());

    await page.goto('/sync');
    const health = page.getByRole('region', { name: 'Sync health' });
    // The "Last callback" card's own time (the card holds its title's header): other cards of the
    // region may say "just now" too.
    const lastCallback = health.getByRole('heading', { name: 'Last callback' }).locator('xpath=../..');
    // The callback (sent by the simulator to the console) is fetched by the worker within seconds.
    await expect(async () => {
      await page.reload();
      await expect(lastCallback.getByText(/^just now$/)).toBeVisible({ timeout: 1000 });
      await expect(health.getByText(/PROCESSED · \d+ in 24 h · median/)).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 30_000 });
  });
});

test.describe('sync page for other roles', () => {
  test.use({ storageState: storageState('analyst') });

  test('an analyst gets 403 and no Sync link', async ({ page }) => {
    const r = await page.goto('/sync');
    expect(r?.status()).toBe(403);
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Sync' })).toHaveCount(0);
  });
});
