import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { IdvClient } from '@/lib/idv/client';
import { imageFor } from '@/lib/simulator/images';
import { storageState } from '../support/e2e/helpers';
import { idCardAndSelfieWorkflow } from '../support/idv/wire-samples';
import { simAddress } from '../support/e2e/sim';
import { simulatorConfig } from '../support/simulator';

/**
 * A web-channel journey end to end (spec, What the service does 4): Verdict's client creates an
 * account whose credentials allow WEB, an end user opens the account response's web address
 * in Chromium and sends the pictures; the execution finalizes by itself, the built-in simulator
 * calls the console back, and the execution appears in the console with its web capture client.
 */
test.use({ storageState: storageState('analyst') });

test('a WEB journey: the capture page in Chromium, automatic finalization, callback, the console', async ({
  browser,
  page,
}) => {
  const sim = simAddress();
  const idv = new IdvClient(simulatorConfig(sim, { userAgent: 'Verdict e2e/1.0' }));
  const account = await idv.createAccount({
    customerInternalReference: `e2e-web-${Date.now()}`,
    workflowDefinition: idCardAndSelfieWorkflow('NLD'),
  });
  const executionId = account.workflowExecution.id;
  const href = (account.web as { href?: string }).href!;
  // The request names no channels (the spec's request has none): ID and SELFIE allow WEB by default.
  for (const c of account.workflowExecution.credentials) expect(c.allowedChannels).toContain('WEB');

  // The end user: a browser of their own, not signed in to anything.
  const user = await browser.newContext();
  const capture = await user.newPage();
  await capture.goto(href);
  await expect(capture.getByRole('heading', { name: 'Verify your identity', level: 1 })).toBeVisible();
  const picture = (kind: 'document-front' | 'document-back' | 'face', name: string) => {
    const { bytes, contentType } = imageFor(kind, 5);
    return { name, mimeType: contentType, buffer: bytes };
  };
  // Sending without consent is a form error the page names and links to.
  await capture.getByLabel(/Front of the document/).setInputFiles(picture('document-front', 'front.png'));
  await capture.getByLabel(/Back of the document/).setInputFiles(picture('document-back', 'back.png'));
  await capture.getByLabel(/A photo of your face/).setInputFiles(picture('face', 'selfie.jpg'));
  await capture
    .getByLabel(/Front of the document/)
    .evaluate((el) => el.closest('form')!.setAttribute('novalidate', ''));
  await capture.getByRole('button', { name: 'Send' }).click();
  await expect(capture.getByRole('alert')).toContainText('Tick the consent box');
  const axe = await new AxeBuilder({ page: capture }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  await capture.getByLabel(/Front of the document/).setInputFiles(picture('document-front', 'front.png'));
  await capture.getByLabel(/Back of the document/).setInputFiles(picture('document-back', 'back.png'));
  await capture.getByLabel(/A photo of your face/).setInputFiles(picture('face', 'selfie.jpg'));
  await capture.getByRole('checkbox', { name: /I agree/ }).check();
  await capture.getByRole('button', { name: 'Send' }).click();
  await expect(capture.getByRole('status')).toContainText(/Thank you/);
  await user.close();

  // The execution started by itself (no C5), was processed and called back.
  await expect
    .poll(async () => (await idv.getStatus(account.account.id!, executionId)).workflowExecution.status, {
      timeout: 20_000,
    })
    .toBe('PROCESSED');
  await expect
    .poll(
      async () => {
        const r = await fetch(`${sim.url}/__sim/callbacks`, {
          headers: { authorization: `Basic ${Buffer.from(`${sim.clientId}:${sim.clientSecret}`).toString('base64')}` },
        });
        const { attempts } = (await r.json()) as { attempts: Array<{ executionId: string; status?: number }> };
        return attempts.some((a) => a.executionId === executionId && a.status === 200);
      },
      { timeout: 20_000 },
    )
    .toBe(true);

  // The console fetched it on the callback: its detail page names the web capture client.
  await expect(async () => {
    const r = await page.goto(`/executions/${executionId}`);
    expect(r?.status()).toBe(200);
  }).toPass({ timeout: 30_000 });
  const captureSection = page.locator('#capture');
  await expect(captureSection).toContainText('Capture client and consent');
  await expect(captureSection.getByText('web', { exact: true }).first()).toBeVisible();
  await expect(captureSection).toContainText('front: upload');
  await expect(captureSection).toContainText('finalized');
});
