import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { CRITERIA, FX, PERSON, XSS_LAST, XSS_NAME } from '../support/fixtures/review';
import { storageState } from '../support/e2e/helpers';

/**
 * The review workspace in a real browser, against fixtures seeded through ingest by the global
 * setup (tests/support/e2e/seed.ts): search, filters, sort, keyset pages, URL state, detail, next and
 * previous, reveal with a reason and its audit entry, images, CSV export, accessibility, and
 * hostile text rendered as text.
 */
test.use({ storageState: storageState('analyst') });

const rows = (page: Page) => page.locator('tbody tr');
const rowLinks = (page: Page) => page.locator('tbody a[data-row-link]');

async function search(page: Page, text: string) {
  const box = page.getByRole('searchbox');
  await box.fill(text);
  await box.press('Enter');
}

async function noSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')})`,
    ),
  ).toEqual([]);
}

test.describe('executions list', () => {
  test('searches by a name without putting it in the URL, and by an id straight to the execution', async ({ page }) => {
    await page.goto('/executions');
    await expect(page.getByRole('heading', { name: 'Executions', level: 1 })).toBeVisible();
    // "/" focuses the search box (once the page is hydrated: the heading is already there in the
    // server's HTML, the key handler only after hydration, so the key is pressed until it works).
    await expect(async () => {
      await page.locator('body').press('/');
      await expect(page.getByRole('searchbox')).toBeFocused({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await search(page, `${PERSON.firstName} ${PERSON.lastName}`);
    await expect(page).toHaveURL(/[?&]st=/);
    expect(page.url().toLowerCase()).not.toContain(PERSON.lastName.toLowerCase());
    await expect(rows(page)).toHaveCount(2); // the execution and the one with the same document
    // Masked in the list: the first letter only.
    await expect(page.getByRole('cell', { name: /^P•+ Q•+$/ }).first()).toBeVisible();
    await expect(page.getByText(PERSON.lastName)).toHaveCount(0);
    // Reloading the URL gives the same list, the search box keeps the term.
    await page.reload();
    await expect(rows(page)).toHaveCount(2);
    await expect(page.getByRole('searchbox')).toHaveValue(`${PERSON.firstName} ${PERSON.lastName}`);

    await search(page, FX.every);
    await expect(page).toHaveURL(new RegExp(`/executions/${FX.every}$`));
    await expect(page.getByRole('heading', { name: /Execution/, level: 1 })).toContainText(FX.every);
  });

  test('combines three filters, sorts, pages forward and back, and keeps it all in the URL', async ({ page }) => {
    await page.goto('/executions');
    await page.getByRole('button', { name: /^Filters/ }).click();
    const filters = page.getByRole('form', { name: 'Filters' });
    // Exact: the queue filter lists queues with similar names ("Warnings").
    await filters.getByRole('checkbox', { name: 'PASSED', exact: true }).check();
    await filters.getByRole('checkbox', { name: 'WARNING', exact: true }).check();
    await filters.getByLabel('Risk score from').fill('5');
    await filters.getByLabel('Risk score to').fill('60');
    await filters.getByLabel('Reporting criteria').fill('');
    await filters.getByRole('checkbox', { name: 'PROCESSED', exact: true }).check();
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/decision=PASSED&decision=WARNING/);
    await expect(page).toHaveURL(/riskMin=5&riskMax=60/);
    await expect(page).toHaveURL(/status=PROCESSED/);
    await expect(page.getByRole('list', { name: 'Active filters' }).getByRole('button')).toHaveCount(4);
    await expect(rows(page).first()).toBeVisible();

    // Sort by risk, highest first: the scores on the page never go up.
    await page.getByRole('button', { name: /^Sort by Risk score/ }).click();
    await expect(page).toHaveURL(/sort=risk/);
    const scores = async () =>
      (await page.locator('tbody td:nth-child(4)').allInnerTexts()).map((s) => Number(s.trim().split(/\s/)[0]));
    await expect.poll(async () => (await scores()).length).toBeGreaterThan(0);
    const first = await scores();
    expect([...first].sort((a, b) => b - a)).toEqual(first);
    for (const s of first) expect(s >= 5 && s <= 60).toBe(true);

    // Page forward and back with 25 rows per page.
    const page1 = await rowLinks(page).evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page).toHaveURL(/after=/);
    await expect
      .poll(async () => (await rowLinks(page).evaluateAll((as) => as.map((a) => a.getAttribute('href'))))[0])
      .not.toBe(page1[0]);
    const page2 = await rowLinks(page).evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(page2.some((h) => page1.includes(h))).toBe(false);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect(page).toHaveURL(/before=/);
    await expect
      .poll(async () => rowLinks(page).evaluateAll((as) => as.map((a) => a.getAttribute('href'))))
      .toEqual(page1);
    // The back button returns to page 2; reloading keeps everything.
    await page.goBack();
    await expect
      .poll(async () => rowLinks(page).evaluateAll((as) => as.map((a) => a.getAttribute('href'))))
      .toEqual(page2);
    await page.reload();
    await expect
      .poll(async () => rowLinks(page).evaluateAll((as) => as.map((a) => a.getAttribute('href'))))
      .toEqual(page2);
  });

  test('bad parameters fall back to defaults instead of an error', async ({ page }) => {
    const res = await page.goto(
      '/executions?sort=nope&size=7&riskMin=abc&createdFrom=2026-13-45&after=garbage&decision=%3Cscript%3E&st=!!',
    );
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'Executions', level: 1 })).toBeVisible();
    await expect(rows(page)).toHaveCount(25);
  });

  test('j/k move, Enter opens, and next/previous on the detail walk the same list', async ({ page }) => {
    await page.goto(`/executions?criteria=${CRITERIA}`);
    await expect(rows(page)).toHaveCount(7); // every fixture but the minimal one, which has no references
    const hrefs = await rowLinks(page).evaluateAll((as) =>
      as.map((a) => new URL((a as HTMLAnchorElement).href).pathname),
    );
    // The key handler is there once the page is hydrated: the first "j" is pressed until it works.
    await expect(async () => {
      await page.locator('body').press('j');
      await expect(rowLinks(page).nth(0)).toBeFocused({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await page.keyboard.press('j');
    await expect(rowLinks(page).nth(1)).toBeFocused();
    await page.keyboard.press('k');
    await expect(rowLinks(page).nth(0)).toBeFocused();
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`${hrefs[1]}\\?criteria=${CRITERIA}$`));
    const heading = page.getByRole('heading', { level: 1 });
    await page.getByRole('link', { name: /^Next/ }).click();
    await expect(heading).toContainText(hrefs[2].split('/').pop()!);
    await page.locator('body').press('j');
    await expect(heading).toContainText(hrefs[3].split('/').pop()!);
    await page.locator('body').press('k');
    await expect(heading).toContainText(hrefs[2].split('/').pop()!);
    await page.getByRole('link', { name: /^Previous/ }).click();
    await expect(page).toHaveURL(new RegExp(hrefs[1]));
    await page.getByRole('link', { name: /^Back to list/ }).click();
    await expect(page).toHaveURL(/\/executions\?criteria=e2e-review&at=/);
    await expect(rowLinks(page).first()).toHaveAttribute('href', new RegExp(hrefs[1]));
  });

  test('exports the filtered list as CSV, masked, with hostile text kept literal', async ({ page }) => {
    await page.goto(`/executions?criteria=${CRITERIA}`);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    const text = await (
      await file.createReadStream()
    )
      .toArray()
      .then((chunks) => Buffer.concat(chunks).toString('utf8'));
    const lines = text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain('execution_id');
    expect(lines).toHaveLength(8);
    expect(text).not.toContain(PERSON.lastName);
    expect(text).toContain('P•');
    // The hostile row: its text kept literally, and no cell a spreadsheet would run as a formula.
    const hostile = lines.find((l) => l.startsWith(FX.xss))!;
    expect(hostile).toContain('e2e-<script>alert(2)</script>');
    for (const line of lines) for (const cell of line.split(',')) expect(cell).not.toMatch(/^"?[=+@]/);
  });

  test('columns can be hidden and stay hidden for this user', async ({ page }) => {
    await page.goto('/executions');
    await expect(page.getByRole('columnheader', { name: /Workflow/ })).toBeVisible();
    await page.getByRole('button', { name: 'Choose columns' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Workflow' }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('columnheader', { name: /Workflow/ })).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('columnheader', { name: /Workflow/ })).toHaveCount(0);
    // By keyboard, before the menu's code is loaded (it loads on first use): Enter opens it with
    // focus inside, Escape closes it and gives focus back to the button.
    await page.getByRole('button', { name: 'Choose columns' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menu')).toBeVisible();
    await expect(page.getByRole('menu')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Choose columns' })).toBeFocused();
    await page.getByRole('button', { name: 'Choose columns' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Workflow' }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('columnheader', { name: /Workflow/ })).toBeVisible();
  });

  test('rows can be selected', async ({ page }) => {
    await page.goto(`/executions?criteria=${CRITERIA}`);
    await page.getByRole('checkbox', { name: `Select execution ${FX.every}` }).check();
    await page.getByRole('checkbox', { name: `Select execution ${FX.wiped}` }).check();
    await expect(page.getByText('2 selected')).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export selected' }).click();
    const file = await (await (await download).createReadStream()).toArray();
    const csv = Buffer.concat(file).toString('utf8');
    expect(csv).toContain(FX.every);
    expect(csv).toContain(FX.wiped);
    expect(csv.trim().split('\r\n')).toHaveLength(3);
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await expect(page.getByText('2 selected')).toHaveCount(0);
  });

  test('has no serious accessibility violations', async ({ page }) => {
    await page.goto('/executions');
    await expect(rows(page).first()).toBeVisible();
    await noSeriousViolations(page);
    await page.getByRole('button', { name: /^Filters/ }).click();
    await noSeriousViolations(page);
  });
});

test.describe('execution detail', () => {
  test('explains the decision, reveals with a reason, shows the audit entry and opens an image', async ({ page }) => {
    await page.goto(`/executions/${FX.every}`);
    const why = page.getByRole('region', { name: 'Why' });
    await expect(
      why.getByRole('list', { name: 'Checks in dependency order' }).getByRole('listitem').first(),
    ).toContainText('Usability');
    await expect(why).toContainText('The document was photographed from a screen, not held in hand.');
    await expect(why).toContainText('Digital copy of document');
    // Masked by default, images too.
    await expect(page.getByText(PERSON.lastName)).toHaveCount(0);
    await expect(page.getByText('Reveal personal data to view this image.').first()).toBeVisible();
    expect(
      (await page.request.get(`/api/executions/${FX.every}/parts/0e2e0000-0000-4000-c000-000000000001/FRONT`)).status(),
    ).toBe(403);

    await page.getByRole('button', { name: 'Reveal personal data' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reveal personal data' });
    await dialog.getByRole('button', { name: 'Reveal for 15 minutes' }).click();
    await expect(dialog.getByText(/at least 10 characters/)).toBeVisible();
    await dialog.getByLabel('Reason').fill('Checking the selfie against the passport for case E2E-1');
    await dialog.getByRole('button', { name: 'Reveal for 15 minutes' }).click();
    await expect(page.getByText(/Personal data is revealed to you until/)).toBeVisible();
    await expect(
      page.getByRole('heading', { level: 1 }).locator('..').getByText(`${PERSON.firstName} ${PERSON.lastName}`),
    ).toBeVisible();
    const audit = page.getByRole('region', { name: 'Audit trail' });
    await expect(audit).toContainText('revealed personal data');
    await expect(audit).toContainText('Checking the selfie against the passport for case E2E-1');

    // Images come through the proxy, not cached, and open larger.
    const img = page.getByRole('img', { name: /Document front/ }).first();
    await expect(img).toBeVisible();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    const res = await page.request.get(`/api/executions/${FX.every}/parts/0e2e0000-0000-4000-c000-000000000001/FRONT`);
    expect(res.status()).toBe(200);
    expect(res.headers()['cache-control']).toContain('no-store');
    // The route's own headers survive the proxy: private, and a sandbox for the image itself.
    expect(res.headers()['cache-control']).toContain('private');
    expect(res.headers()['content-security-policy']).toBe("default-src 'none'; sandbox");
    await page.getByRole('button', { name: /Open Document front/ }).click();
    const viewer = page.getByRole('dialog');
    await viewer.getByRole('button', { name: /Rotate .* right/ }).click();
    await viewer.getByRole('button', { name: /Zoom in/ }).click();
    await expect(viewer.getByText('125%')).toBeVisible();
    await page.keyboard.press('Escape');
    await page.reload();
    await expect(page.getByRole('region', { name: 'Audit trail' })).toContainText('viewed an image');

    // Extracted vs supplied data: the differing last name is highlighted.
    await expect(
      page
        .getByRole('region', { name: 'Extracted and supplied data' })
        .getByRole('row', { name: /Last name.*differs/ }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Hide personal data' }).click();
    await expect(page.getByText(/Personal data is revealed/)).toHaveCount(0);
    await noSeriousViolations(page);
  });

  test('renders unusual results without errors', async ({ page }) => {
    for (const id of Object.values(FX)) {
      const res = await page.goto(`/executions/${id}`);
      expect(res?.status(), id).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(id);
      await expect(page.getByText('Something went wrong')).toHaveCount(0);
    }
    await page.goto(`/executions/${FX.unknown}`);
    await expect(page.getByRole('region', { name: 'Capabilities' })).toContainText('voiceVerification');
    await expect(page.getByRole('region', { name: 'Why' })).toContainText('OK_VERIFIED_EXTENDED');
    await page.goto(`/executions/${FX.notExecuted}`);
    await expect(page.getByText('not scored (-1): not executed')).toBeVisible();
    await page.goto(`/executions/${FX.wiped}`);
    await expect(page.getByText(/wiped this execution’s personal data/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reveal personal data' })).toBeDisabled();
  });

  test('shows text from the service as text, everywhere', async ({ page }) => {
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    await page.goto(`/executions/${FX.xss}`);
    await page.getByRole('button', { name: 'Reveal personal data' }).click();
    // The feedback form has a Reason too: fill the reveal dialog's.
    await page.getByRole('dialog').getByLabel('Reason').fill('Checking how hostile text is displayed');
    await page.getByRole('button', { name: 'Reveal for 15 minutes' }).click();
    await expect(page.getByText(`${XSS_NAME} ${XSS_LAST}`).first()).toBeVisible();
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    await expect(page.getByText('e2e-<script>alert(2)</script>').first()).toBeVisible();
    await page.goto(`/executions?criteria=${CRITERIA}`);
    await expect(page.getByText(XSS_NAME, { exact: false }).first()).toBeVisible();
    expect(dialogs).toBe(0);
  });

  test('a bad or unknown id gets the not-found page', async ({ page }) => {
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-00000000dead', '%3Cscript%3E']) {
      const res = await page.goto(`/executions/${id}`);
      expect(res?.status(), id).toBe(404);
      await expect(page.getByRole('heading', { name: /not found/i })).toBeVisible();
    }
  });
});
