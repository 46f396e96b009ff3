import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { storageState } from '../support/e2e/helpers';
import { parseWallTime } from '@/lib/format';

/**
 * Outgoing webhooks end to end: an admin adds an endpoint pointing at a receiver this test runs
 * on 127.0.0.1, copies the secret shown once, sends a test event, and sees it delivered in the
 * log; the worker inside `npm start` sends it, and the receiver verifies its signature.
 */
test.use({ storageState: storageState('admin') });

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startReceiver({ status: 200, body: 'received by the e2e receiver' });
});
test.afterAll(async () => {
  await receiver?.stop();
});

test('an admin adds an endpoint, sends a test event and sees it delivered in the log', async ({ page, baseURL }) => {
  await page.goto('/admin/webhooks');
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  const form = page.getByRole('form', { name: 'Add an endpoint' });
  const url = form.getByLabel('URL');
  const add = form.getByRole('button', { name: 'Add endpoint' });

  // Bad input is refused with a message on the field.
  await url.fill('ftp://example.com/hooks');
  await add.click();
  await expect(form.getByText('The URL must start with http:// or https://.')).toBeVisible();
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await url.fill(`http://localhost:${new URL(baseURL!).port}/api/health`);
  await add.click();
  await expect(form.getByText(/points at Verdict itself/)).toBeVisible();
  // Internal addresses are refused with the rule; this console runs the simulator (demo mode), so loopback is allowed and the form says so.
  await expect(form.getByTestId('webhook-destinations')).toContainText('Demo mode: receivers on this machine');
  await url.fill('http://169.254.169.254/latest/meta-data/');
  await add.click();
  await expect(form.getByText(/may not go to a link-local address \(169\.254\.0\.0\/16/)).toBeVisible();
  await url.fill(`https://example.com/${'a'.repeat(2001)}`);
  await add.click();
  await expect(form.getByText('The URL is longer than 2,000 characters.').first()).toBeVisible();

  const description = `E2E receiver ${Date.now()}`;
  await url.fill(receiver.url);
  await form.getByLabel('Description').fill(description);
  await form.getByRole('checkbox', { name: /trend\.spike/ }).uncheck();
  await add.click();
  const secretBox = page.getByTestId('webhook-secret');
  await expect(secretBox).toHaveText(/^whsec_/);
  const secret = (await secretBox.textContent())!.trim();

  await form.getByRole('link', { name: /Open the endpoint/ }).click();
  await expect(page.getByRole('heading', { name: description, level: 1 })).toBeVisible();
  await expect(page.getByText('Nothing sent yet')).toBeVisible();

  // Keyboard: focus the button and press Enter.
  const send = page.getByRole('button', { name: 'Send a test event' });
  await send.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText(/Test event queued/)).toBeVisible();

  const log = page.getByRole('table', { name: 'Delivery attempts, newest first' });
  const row = log.getByRole('row').filter({ hasText: 'webhook.test' });
  await expect(row).toHaveCount(1, { timeout: 20_000 });
  await expect(row).toContainText('HTTP 200');
  await expect(row).toContainText('delivered');
  await expect(row).toContainText('received by the e2e receiver');

  // The replay range is prefilled as it is typed: the last day, to the minute, in the reader's zone (UTC here).
  const from = await page.getByLabel('Events from').inputValue();
  const to = await page.getByLabel('to', { exact: true }).inputValue();
  for (const v of [from, to]) expect(v).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  const span = parseWallTime(to)!.getTime() - parseWallTime(from)!.getTime();
  expect(Math.abs(span - 24 * 3_600_000)).toBeLessThanOrEqual(2 * 60_000);
  expect(Math.abs(parseWallTime(to)!.getTime() - Date.now())).toBeLessThan(5 * 60_000);

  // What arrived is signed with the secret that was shown once.
  expect(receiver.requests).toHaveLength(1);
  const q = receiver.requests[0];
  const verified = new Webhook(secret).verify(q.body, q.headers) as { type: string };
  expect(verified.type).toBe('webhook.test');
  await expect(row).toContainText(q.headers['webhook-id']);

  // The list shows it healthy, and the secret is not shown again anywhere.
  await page.goto('/admin/webhooks');
  const listed = page.getByRole('row').filter({ hasText: description });
  await expect(listed).toContainText('Healthy');
  await expect(listed).toContainText('case.resolved');
  await expect(listed).not.toContainText('trend.spike');
  await expect(page.getByText(secret)).toHaveCount(0);

  // The sync page shows its health; then the endpoint is deleted.
  await page.goto('/sync');
  await expect(page.getByRole('region', { name: 'Outgoing webhooks' }).getByText(description)).toBeVisible();
  await page.getByRole('link', { name: description }).click();
  await page.getByRole('button', { name: 'Delete endpoint' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/webhooks$/);
  await expect(page.getByText(description)).toHaveCount(0);
});
