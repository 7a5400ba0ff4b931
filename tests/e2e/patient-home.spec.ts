import { expect, seriousAccessibilityViolations, signInByPhone, test } from './fixtures';

// The patient's home at /: a test patient of its own (made on /dev/phone, so no other spec's doses are
// touched), signed in by phone and SMS code as a patient would, answers today's dose in the app, sees it on
// the calendar of their journey, and takes it back within the undo window. In the live-messaging project,
// whose server expects live data recorded today.

test('a patient confirms today’s dose at home, sees it on the calendar, and can undo the answer', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/dev/phone');
  const form = page.getByRole('form', { name: 'Create a test patient' });
  await form.getByRole('button', { name: 'Create a test patient' }).click();
  const created = page.getByText(/was created with the test number \+1555\d{7}\./);
  await expect(created).toBeVisible();
  const phoneNumber = /(\+1555\d{7})/.exec((await created.textContent()) ?? '')?.[1] ?? '';

  await signInByPhone(page, phoneNumber);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your medicines today');
  const dose = page.getByTestId('today-dose');
  await expect(dose).toHaveCount(1);
  await expect(dose).toContainText('08:00');
  await expect(page.getByText(/due .* This is when the supply of your last fill runs out\./)).toBeVisible();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  // Keyboard: Tab to "Taken" and press Enter.
  const taken = dose.getByRole('button', { name: /^Taken:/ });
  await taken.focus();
  await page.keyboard.press('Enter');
  await expect(dose.getByTestId('dose-answer')).toHaveText('Taken in the app');
  await expect(page.getByText(/taken\. You can undo this for 5 minutes\./)).toBeVisible();

  // The journey's calendar shows today as taken.
  const today = new Date().toISOString().slice(0, 10);
  await page.goto('/algorithms/patient-engagement/patient-profile');
  const todayLabel = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${today}T00:00:00Z`),
  );
  await expect(page.getByRole('gridcell', { name: `${todayLabel}: taken`, exact: false })).toHaveCount(1);

  // Taken back: the dose is open again, and can be answered the other way.
  await page.goto('/');
  await dose.getByRole('button', { name: /^Undo/ }).click();
  await expect(dose.getByRole('button', { name: /^Skipped:/ })).toBeVisible();
  await dose.getByRole('button', { name: /^Skipped:/ }).click();
  await expect(dose.getByTestId('dose-answer')).toHaveText('Skipped in the app');
});
