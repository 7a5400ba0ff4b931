import { expect, seriousAccessibilityViolations, test } from './fixtures';

// The demo patient's account is linked to a synthetic patient record (src/features/demo-data/server/link-demo-accounts.ts).
test('a patient opts out of SMS reminders on /profile with the keyboard; it is kept and in the history', async ({ page, signIn }) => {
  // Two saves, a reload and an axe check: over 30 s on this 2-core machine with the server busy.
  test.slow();
  await signIn('patient');
  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Messages you agree to' });
  const smsReminders = section.getByRole('group', { name: 'SMS' }).getByRole('checkbox', { name: 'Reminders' });
  const save = section.getByRole('button', { name: 'Save consents' });
  const saved = section.getByRole('status');
  const history = section.getByRole('table', { name: 'History of your consents' });

  // Whatever an earlier run left, start opted in (so the opt-out below is a change the ledger records).
  if (!(await smsReminders.isChecked())) {
    await smsReminders.focus();
    await page.keyboard.press('Space');
    await expect(smsReminders).toBeChecked();
    await save.click();
    await expect(saved).toHaveText('Your consents are saved.');
    await expect(history.getByRole('row').nth(1)).toContainText('Opted in to reminders by SMS');
  }

  await smsReminders.focus();
  await page.keyboard.press('Space');
  await expect(smsReminders).not.toBeChecked();
  await save.focus();
  await page.keyboard.press('Enter');
  await expect(saved).toHaveText('Your consents are saved.');

  await page.reload();
  await expect(smsReminders).not.toBeChecked();
  const latest = history.getByRole('row').nth(1);
  await expect(latest).toContainText('Opted out of reminders by SMS');
  await expect(latest).toContainText('your profile');
  expect(await seriousAccessibilityViolations(page, 'section[aria-labelledby="consent-heading"]')).toEqual([]);
});

test('an account without a patient record is told consents apply to patients', async ({ page, signIn }) => {
  await signIn('clinician');
  await page.goto('/profile');
  await expect(page.getByText('Consents to messages apply to patients: your account is not linked to a patient record.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save consents' })).toHaveCount(0);
});
