import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { withE2eDb } from '../support/e2e/db';
import { storageState } from '../support/e2e/helpers';
import { E2E_TRENDS_WAVE_WORKFLOW, E2E_TRENDS_WORKFLOW } from '../support/fixtures/trends';

/**
 * The trends page in a browser, on the executions seeded by tests/support/e2e/seed/trends.ts (filtered
 * to their workflow, so other data cannot change the numbers).
 *
 * The seed writes the 60 days up to its own today, minutes before these tests run: should
 * midnight (UTC) pass in between, the page's "last 30 days" end a day after the data. So the
 * expected figures are worked out from the seed's last day and the range the page shows.
 */
const utcDay = (offset: number) => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + offset)).toISOString().slice(0, 10);
};
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;
const shift = (day: string, days: number) => new Date((dayNumber(day) + days) * 86_400_000).toISOString().slice(0, 10);

/** The seed's today: the last day of its data (the wave workflow's days count back from it too). */
const seedDay = () =>
  withE2eDb(
    async (db) =>
      (
        await db.execute<{ day: string }>(
          sql`select to_char(max(created_at) at time zone 'UTC', 'YYYY-MM-DD') as day from executions where definition_key = ${E2E_TRENDS_WORKFLOW}`,
        )
      ).rows[0].day,
  );

/**
 * What the seed put on the days `from`..`to`: on each of its 60 days four executions, one of them
 * REJECTED, and one more (NOT_EXECUTED) every fifth day back from its last day.
 */
function seeded(from: string, to: string, last: string) {
  let executions = 0;
  let rejected = 0;
  for (let n = dayNumber(from); n <= dayNumber(to); n++) {
    const back = dayNumber(last) - n;
    if (back < 0 || back >= 60) continue;
    executions += back % 5 === 0 ? 5 : 4;
    rejected += 1;
  }
  return { executions, rejected };
}

/** The days the page shows, as its executions figure links them. */
async function rangeOf(page: Page) {
  const href = await page.locator('[data-kpi="executions"]').getAttribute('href');
  const q = new URL(href!, 'http://verdict.test').searchParams;
  return { from: q.get('createdFrom')!, to: q.get('createdTo')! };
}
const lengthOf = (r: { from: string; to: string }) => dayNumber(r.to) - dayNumber(r.from) + 1;

test.describe('trends (manager)', () => {
  test.use({ storageState: storageState('manager') });

  test('changes range and granularity in the URL, and a bar opens the list filtered to exactly its executions', async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const last = await seedDay();
    const today = utcDay(0);
    await page.goto(`/trends?definitionKey=${E2E_TRENDS_WORKFLOW}`);
    await expect(page.getByRole('heading', { name: 'Risk trends' })).toBeVisible();
    await expect(page.getByTestId('data-as-of')).toContainText('Data as of');
    // 30 days by default, up to today: 4 executions a day plus one NOT_EXECUTED every fifth day
    // (126 and 23.8 % when the seed ran today).
    const month = await rangeOf(page);
    expect([today, utcDay(0)]).toContain(month.to);
    expect(lengthOf(month)).toBe(30);
    const inMonth = seeded(month.from, month.to, last);
    await expect(page.locator('[data-kpi="executions"]')).toContainText(String(inMonth.executions));
    await expect(page.locator('[data-kpi="reject"]')).toContainText(
      `${((100 * inMonth.rejected) / inMonth.executions).toFixed(1)}%`,
    );

    // The controls answer once the page is hydrated (the buttons are in the server's HTML before
    // their handlers are): on a loaded machine the first click may come too early, so it is repeated.
    await expect(async () => {
      await page.getByRole('group', { name: 'Range' }).getByRole('button', { name: '90 days' }).click();
      await expect(page).toHaveURL(/range=90/, { timeout: 2_000 });
    }).toPass();
    expect(errors).toEqual([]);
    // The 60 seeded days fall in the range: 240 + 12.
    await expect.poll(async () => lengthOf(await rangeOf(page))).toBe(90);
    const quarter = await rangeOf(page);
    await expect(page.locator('[data-kpi="executions"]')).toContainText(
      String(seeded(quarter.from, quarter.to, last).executions),
    );
    await page.getByRole('group', { name: 'Granularity' }).getByRole('button', { name: 'Week' }).click();
    await expect(page).toHaveURL(/granularity=week/);
    await expect(page).toHaveURL(new RegExp(`definitionKey=${E2E_TRENDS_WORKFLOW}`));
    await expect(
      page.getByRole('group', { name: 'Granularity' }).getByRole('button', { name: 'Week' }),
    ).toHaveAttribute('aria-pressed', 'true');

    // The REJECTED bar of the last week with data (the current week, when the seed ran today): its
    // label carries its count.
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
    // That ISO week, from its Monday (or the range's start) to its Sunday (or today): one REJECTED a
    // seeded day.
    const sunday = shift(last, 6 - ((new Date(`${last}T00:00:00Z`).getUTCDay() + 6) % 7));
    const to = sunday < quarter.to ? sunday : quarter.to;
    expect(url.searchParams.get('createdTo')).toBe(to);
    const from = url.searchParams.get('createdFrom')!;
    expect(new Date(`${from}T00:00:00Z`).getUTCDay() === 1 || from === quarter.from).toBe(true);
    expect(count).toBe(seeded(from, to, last).rejected);
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
    // Today is still running: its row alone is marked as a partial period, not read as a whole day.
    await expect(table.getByRole('row').filter({ hasText: /so far\)/ })).toHaveCount(1);
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
    // The wave is three days before the seed's today.
    const day = shift(await seedDay(), -3);
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
