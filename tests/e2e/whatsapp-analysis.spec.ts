import path from 'node:path';
import { expect, seriousAccessibilityViolations, test } from './fixtures';

const pagePath = '/algorithms/patient-engagement/whatsapp-analysis';
// The shared test data beside the repository (read at test time, never copied).
const sampleExport = path.resolve(process.cwd(), '../shared/testdata/whatsapp-export/WhatsR/englishandroid24h.txt');

for (const role of ['clinician', 'admin'] as const) {
  test(`a ${role} sees the message store's WhatsApp analysis with its period and population`, async ({ page, signIn }) => {
    test.slow();
    await signIn(role);
    await page.goto(pagePath);
    await expect(page.getByRole('heading', { level: 1, name: 'WhatsApp Message Data Analysis' })).toBeVisible();
    await expect(page.getByTestId('reporting-period')).toBeVisible();
    await expect(page.getByTestId('store-population')).toContainText('WhatsApp messages');
    await expect(page.getByTestId('reply-rate')).toContainText('%');
    await expect(page.getByTestId('store-heat-map').getByRole('table')).toBeVisible();
    await expect(page.getByTestId('store-templates')).toContainText('Reply rate (95% CI)');
    await expect(page.getByTestId('store-intents')).toContainText('Taken');
    expect(await seriousAccessibilityViolations(page, 'main')).toEqual([]);
  });
}

test('a user analyses a WhatsApp export in the browser, saves it, finds it listed, and deletes it', async ({
  page,
  signIn,
  createAccount,
}) => {
  test.slow();
  const account = await createAccount({ role: 'patient' });
  await signIn(account);
  await page.goto(pagePath);
  await page.getByTestId('chat-file').setInputFiles(sampleExport);
  const participants = page.getByTestId('chat-participants');
  await expect(participants).toBeVisible();
  await expect(participants.getByRole('row', { name: /^Bob/ })).toContainText('19');
  await expect(participants.getByRole('row', { name: /^Alice/ })).toContainText('13');
  await expect(page.getByTestId('chat-totals')).toContainText('42 messages (40 text, 2 media) from 5 participants, and 8 system messages');
  expect(await seriousAccessibilityViolations(page, 'main')).toEqual([]);

  await page.getByRole('button', { name: 'Save this conversation' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved englishandroid24h.txt' })).toBeVisible();
  const saved = page.getByTestId('saved-chats');
  await expect(saved).toContainText('englishandroid24h.txt');
  // Still there after a reload: it was stored for this user.
  await page.reload();
  await expect(page.getByTestId('saved-chats')).toContainText('50 messages, 5 participants');
  await page.getByRole('button', { name: 'Open englishandroid24h.txt' }).click();
  await expect(page.getByRole('heading', { name: 'Saved conversation: englishandroid24h.txt' })).toBeVisible();

  await page.getByRole('button', { name: 'Delete englishandroid24h.txt' }).click();
  await expect(page.getByTestId('confirm-delete')).toBeVisible();
  await page.getByRole('button', { name: 'Delete for good' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Deleted englishandroid24h.txt' })).toBeVisible();
  await expect(page.getByTestId('saved-chats')).toHaveCount(0);
  await page.reload();
  await expect(page.getByText('None saved yet.')).toBeVisible();
});
