import { expect, test } from '@playwright/test';
import { storageState } from '../support/e2e/helpers';

/**
 * An admin creates a read-API key, sees it once, and a machine reads with it; revoked, the same
 * key gets 401. The API calls go over real HTTP to the running console, without its cookies.
 */
test.use({ storageState: storageState('admin') });

test('an admin creates a key, sees it once, uses it, and revokes it', async ({ page, playwright, baseURL }) => {
  const name = `e2e key ${Date.now()}`;
  await page.goto('/admin/api-keys');
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Expires after').selectOption('30');
  await page.getByRole('button', { name: 'Create key' }).click();

  const shown = page.getByTestId('new-api-key');
  await expect(shown).toContainText('shown only once');
  const key = await page.getByLabel('New API key').inputValue();
  expect(key).toMatch(/^vk_[A-Za-z0-9_-]{43}$/);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Active');
  await expect(row).toContainText('Never');
  await expect(row).toContainText(key.slice(0, 10));
  await expect(row).not.toContainText(key);

  const machine = await playwright.request.newContext({ baseURL });
  const auth = { Authorization: `Bearer ${key}` };
  const ok = await machine.get('/api/v1/executions/changes?limit=2', { headers: auth });
  expect(ok.status()).toBe(200);
  const body = (await ok.json()) as { data: unknown[]; next: string | null; hasMore: boolean };
  expect(Array.isArray(body.data)).toBe(true);
  expect(typeof body.hasMore).toBe('boolean');

  // Shown once: after a reload only the prefix is left, and the last use is listed.
  await page.reload();
  await expect(page.getByTestId('new-api-key')).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText(key);
  await expect(row).not.toContainText('Never');

  page.once('dialog', (d) => d.accept());
  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await expect(row).toContainText('Revoked');

  const refused = await machine.get('/api/v1/executions/changes?limit=2', { headers: auth });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ title: 'Unauthorized', status: 401 });
  await machine.dispose();
});
