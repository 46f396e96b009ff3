import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { storageState } from './helpers';
import { E2E_TRENDS_WAVE_WORKFLOW, E2E_TRENDS_WORKFLOW } from '../fixtures/trends';

/**
 * The trends page in a browser, on the executions seeded by tests/e2e/seed/trends.ts (filtered
 * to their workflow, so other data cannot change the numbers).
 */
const utcDay = (offset: number) => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + offset)).toISOString().slice(0, 10);
};

test.describe('trends (manager)', () => {
  test.use({ storageState: storageState('manager') });

  test('changes range and granularity in the URL, and a bar opens the list filtered to exactly its executions', async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`/trends?definitionKey=${E2E_TRENDS_WORKFLOW}`);
    await expect(page.getByRole('heading', { name: 'Risk trends' })).toBeVisible();
    await expect(page.getByTestId('data-as-of')).toContainText('Data as of');
    // 30 days by default: 4 executions a day plus one NOT_EXECUTED every fifth day (days 0, 5, …, 25).
    await expect(page.locator('[data-kpi="executions"]')).toContainText('126');
    await expect(page.locator('[data-kpi="reject"]')).toContainText('23.8%');

    // The controls answer once the page is hydrated (the buttons are in the server's HTML before
    // their handlers are): on a loaded machine the first click may come too early, so it is repeated.
    await expect(async () => {
      await page.getByRole('group', { name: 'Range' }).getByRole('button', { name: '90 days' }).click();
      await expect(page).toHaveURL(/range=90/, { timeout: 2_000 });
    }).toPass();
    expect(errors).toEqual([]);
    // 60 seeded days fall in the range: 240 + 12.
    await expect(page.locator('[data-kpi="executions"]')).toContainText('252');
    await page.getByRole('group', { name: 'Granularity' }).getByRole('button', { name: 'Week' }).click();
    await expect(page).toHaveURL(/granularity=week/);
    await expect(page).toHaveURL(new RegExp(`definitionKey=${E2E_TRENDS_WORKFLOW}`));
    await expect(
      page.getByRole('group', { name: 'Granularity' }).getByRole('button', { name: 'Week' }),
    ).toHaveAttribute('aria-pressed', 'true');

    // The REJECTED bar of the last (current) week: its label carries its count.
    const bars = page.locator('[data-chart="decisions"] a[aria-label^="REJECTED,"]');
    await expect(bars.first()).toBeVisible();
    const bar = bars.last();
    const label = (await bar.getAttribute('aria-label'))!;
    const count = Number(/: ([\d,]+) executions/.exec(label)![1].replace(/,/g, ''));
    expect(count).toBeGreaterThan(0);
    await bar.click();

    await expect(page).toHaveURL(/\/executions\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get('decision')).toBe('REJECTED');
    expect(url.searchParams.get('definition')).toBe(E2E_TRENDS_WORKFLOW);
    expect(url.searchParams.get('createdTo')).toBe(utcDay(0));
    const from = url.searchParams.get('createdFrom')!;
    // The current ISO week, from its Monday (or the range's start) to today: one REJECTED a day.
    expect(new Date(`${from}T00:00:00Z`).getUTCDay() === 1 || from === utcDay(-89)).toBe(true);
    expect(count).toBe((Date.parse(`${utcDay(0)}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1);
    await expect(page.getByTestId('list-total')).toBeVisible();
    expect((await page.getByTestId('list-total').innerText()).replace(/\D/g, '')).toBe(String(count));
  });

  test('every chart has a table view with the same links, and a CSV download', async ({ page }) => {
    await page.goto(`/trends?definitionKey=${E2E_TRENDS_WORKFLOW}&range=7`);
    const card = page.locator('[data-chart="decisions"]');
    await card.getByRole('button', { name: 'Table' }).click();
    const table = card.getByRole('table');
    await expect(table).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(8); // header + 7 days
    const link = table.getByRole('link', { name: '1', exact: true }).first();
    await expect(link).toHaveAttribute('href', /decision=/);
    const download = page.waitForEvent('download');
    await card.getByRole('button', { name: /Download .* CSV/ }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('decisions.csv');
    const csv = fs.readFileSync((await file.path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('Period,PASSED,WARNING,REJECTED,NOT_EXECUTED,Total');
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(8);
    // The matrix: missed fraud and false rejects, each a link to its executions.
    const matrix = page.locator('[data-chart="decision-feedback"]');
    await expect(matrix.getByText('Missed fraud:')).toBeVisible();
    await expect(matrix.getByRole('link', { name: /REJECTED with FRAUD/ })).toHaveAttribute(
      'href',
      /decision=REJECTED&.*feedback=FRAUD|feedback=FRAUD.*decision=REJECTED/,
    );
  });
});

test.describe('from a trends link to the list', () => {
  test.use({ storageState: storageState('manager') });

  test('a matched-rules link shows every filter it sets as a chip, and Clear all filters clears them all', async ({
    page,
  }) => {
    await page.goto(`/trends?definitionKey=${E2E_TRENDS_WORKFLOW}&range=30`);
    const card = page.locator('[data-chart="rules"]');
    await card.getByRole('button', { name: 'Table' }).click();
    const link = card.getByRole('table').locator('a[href*="rule=e2e-rule-velocity"]').first();
    await expect(link).toBeVisible();
    await link.click();
    await expect(page).toHaveURL(/\/executions\?.*rule=e2e-rule-velocity/);

    const chips = page.getByRole('list', { name: 'Active filters' });
    await expect(chips.getByRole('button', { name: 'Remove filter Matched rule: e2e-rule-velocity' })).toBeVisible();
    // Every counted filter has its chip: the count on the button equals the chips shown.
    const count = Number((await page.getByRole('button', { name: /^Filters/ }).innerText()).replace(/\D/g, ''));
    await expect(chips.getByRole('button')).toHaveCount(count);

    await page.getByRole('button', { name: /^Filters/ }).click();
    await page.getByRole('button', { name: 'Clear all filters' }).click();
    await expect(page).not.toHaveURL(/rule=/);
    await expect(page.getByRole('list', { name: 'Active filters' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Filters/ })).toHaveText('Filters');
  });
});

test.describe('trends spike alerts', () => {
  test.use({ storageState: storageState('manager') });

  test('lists the day of the wave with its numbers, linked to its rejected executions', async ({ page }) => {
    await page.goto(`/trends?definitionKey=${E2E_TRENDS_WAVE_WORKFLOW}`);
    const alerts = page.getByRole('list', { name: 'Spike alerts' });
    await expect(alerts.getByRole('listitem')).toHaveCount(2); // the reject rate and usability BLURRED
    await expect(alerts).toContainText('60.0% (15 of 25)');
    const link = alerts.getByRole('link', { name: /View 15 executions for Reject rate/ });
    const day = utcDay(-3);
    await expect(link).toHaveAttribute(
      'href',
      `/executions?decision=REJECTED&createdFrom=${day}&createdTo=${day}&definition=${E2E_TRENDS_WAVE_WORKFLOW}`,
    );
    await expect(alerts.getByRole('link', { name: /usability · BLURRED/ })).toHaveAttribute(
      'href',
      new RegExp(`cap=usability%3Alabel%3ABLURRED`),
    );
  });
});

test.describe('trends (analyst)', () => {
  test.use({ storageState: storageState('analyst') });

  test('gets 403 and no Trends link', async ({ page }) => {
    const response = await page.goto('/trends');
    expect(response?.status()).toBe(403);
    await expect(page.getByText('You do not have access to this page')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trends' })).toHaveCount(0);
  });
});
