import fs from 'node:fs';
import { type Page } from '@playwright/test';
import { expect, seriousAccessibilityViolations, test } from './fixtures';

const path = '/algorithms/patient-engagement/message-data-collection';
const csvHeader =
  'message_id,pseudonym,channel,direction,category,framing,template_id,template_version,sent_at,status,delivered_at,read_at,failed_code,reply_intent';

/** The page's field table, data-quality checks and export, as every viewer with the export permission sees them. */
async function expectTablesAndExport(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: 'Message Data Collection' })).toBeVisible();
  const fields = page.getByTestId('collected-messages');
  await expect(fields.getByRole('rowheader', { name: /^status_history/ })).toBeVisible();
  await expect(fields.getByRole('rowheader', { name: /^body \(sensitive\)/ })).toBeVisible();
  await expect(fields).toContainText('kept until the record is deleted');
  await expect(page.getByTestId('collected-webhook_events')).toContainText('removed by the nightly prune');
  await expect(page.getByTestId('quality-population')).toContainText('Period:');
  await expect(page.getByTestId('quality-final-status')).toBeVisible();
  await expect(page.getByTestId('quality-latency')).toContainText(/p50 .* p90 .* p99/);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-message-log').click()]);
  expect(download.suggestedFilename()).toMatch(/^message-log-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const file = await download.path();
  const text = fs.readFileSync(file, 'utf8');
  expect(text.split('\r\n')[0]).toBe(csvHeader);
  expect(text.split('\r\n').length).toBeGreaterThan(2);
}

test('a clinician sees what is collected, the live feed receives a reply and pauses, and the CSV downloads', async ({
  browser,
  page,
  signIn,
}) => {
  test.slow();
  await signIn('clinician');
  await page.goto(path);
  await expectTablesAndExport(page);

  const feed = page.getByTestId('live-feed');
  await expect(page.getByTestId('live-feed-state')).toHaveAttribute('data-state', 'live', { timeout: 15_000 });
  await expect(feed.getByTestId('live-feed-row').first()).toBeVisible();
  expect(await seriousAccessibilityViolations(page, 'main')).toEqual([]);

  // A test patient of the demo clinic replies through the signed SMS webhook (as /dev/phone plays it).
  const phoneContext = await browser.newContext();
  const phone = await phoneContext.newPage();
  await phone.goto('/dev/phone');
  await phone.getByRole('form', { name: 'Create a test patient' }).getByRole('button', { name: 'Create a test patient' }).click();
  await expect(phone).toHaveURL(/\/dev\/phone\?patient=T-[0-9a-f]{8}$/);
  const pseudonym = decodeURIComponent(new URL(phone.url()).searchParams.get('patient') ?? '');
  await phone.getByRole('group', { name: 'SMS reply keywords' }).getByRole('button', { name: 'STOP' }).click();
  await expect(phone.getByRole('status').filter({ hasText: 'Sent through the webhook.' })).toBeVisible();
  await expect(feed.getByTestId('live-feed-row').filter({ hasText: pseudonym }).filter({ hasText: 'STOP (opt-out)' })).toBeVisible({
    timeout: 20_000,
  });

  // Paused, a new reply is not shown; resumed, it is.
  const pause = page.getByRole('button', { name: 'Pause the feed' });
  await pause.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('live-feed-state')).toHaveAttribute('data-state', 'paused');
  await expect(page.getByRole('button', { name: 'Resume the feed' })).toHaveAttribute('aria-pressed', 'true');
  const sms = phone.getByRole('form', { name: 'Reply by SMS' });
  await sms.getByRole('textbox').fill('what is this about');
  await sms.getByRole('button', { name: 'Send' }).click();
  await expect(phone.getByRole('status').filter({ hasText: 'Sent through the webhook.' })).toBeVisible();
  const unrecognised = feed.getByTestId('live-feed-row').filter({ hasText: pseudonym }).filter({ hasText: 'Not recognised' });
  // Longer than a poll: nothing arrives while paused.
  await page.waitForTimeout(6_000);
  await expect(unrecognised).toHaveCount(0);
  await page.getByRole('button', { name: 'Resume the feed' }).click();
  await expect(unrecognised).toBeVisible({ timeout: 20_000 });
  await phoneContext.close();
});

test('an admin sees what is collected, the latest messages, the data-quality checks, and downloads the message log', async ({
  page,
  signIn,
}) => {
  test.slow();
  await signIn('admin');
  // A calendar year of the demo data: "the last 3 months" would depend on whether other specs on this server
  // have recorded live data today (they move the last day of data), and so on the order the specs ran in.
  await page.goto(`${path}?period=year-2025&channel=whatsapp`);
  await expectTablesAndExport(page);
  await expect(page.getByTestId('live-feed-state')).toHaveAttribute('data-state', 'live', { timeout: 15_000 });
  await expect(page.getByTestId('live-feed').getByTestId('live-feed-row').first()).toContainText('WhatsApp');
  await expect(page.getByTestId('quality-webhooks')).toBeVisible();
  expect(await seriousAccessibilityViolations(page, 'main')).toEqual([]);
});
