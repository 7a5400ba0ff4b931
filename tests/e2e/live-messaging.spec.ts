import { type Page } from '@playwright/test';
import { expect, seriousAccessibilityViolations, test } from './fixtures';
import { patientIdInPicker } from './patient-picker';

// The live loop in a browser: /dev/phone makes a test patient of its own (verified test number, WhatsApp and
// SMS reminder opt-ins, the fixed daily programme, in the demo clinic), asks the daily loop for today's message,
// and plays the patient's phone through the signed webhooks. Each test has its own patient, so none changes
// what another sees.

const profilePath = '/algorithms/patient-engagement/patient-profile';
const longDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** Makes a new test patient on /dev/phone and opens their phone; returns the pseudonym. */
async function openNewTestPatient(page: Page): Promise<string> {
  await page.goto('/dev/phone');
  await page.getByRole('form', { name: 'Create a test patient' }).getByRole('button', { name: 'Create a test patient' }).click();
  await expect(page).toHaveURL(/\/dev\/phone\?patient=T-[0-9a-f]{8}$/);
  const pseudonym = decodeURIComponent(new URL(page.url()).searchParams.get('patient') ?? '');
  await expect(page.getByText(`Phone of ${pseudonym}`)).toBeVisible();
  await expect(page.getByTestId('latest-decision')).toHaveText('The daily loop has made no decision for this patient yet.');
  return pseudonym;
}

test('the day’s message reaches the phone on WhatsApp; "Taken" puts the dose on the clinician’s calendar', async ({
  browser,
  page,
  signIn,
}) => {
  // The loop, the send and the reply are background jobs, and the clinician's profile renders a year: give it time.
  test.slow();
  const pseudonym = await openNewTestPatient(page);
  await page.getByRole('button', { name: 'Send today’s message now' }).click();
  const whatsApp = page.getByRole('list', { name: 'WhatsApp messages' });
  // The page reads the threads again every two seconds: the message appears once the loop and the send job ran.
  await expect(whatsApp.getByTestId('phone-message-outbound')).toHaveCount(1, { timeout: 20_000 });
  await expect(page.getByTestId('latest-decision')).toContainText(/message reminder\.[a-z]+\.\d, sent\./);
  // The reminder names the medicine from the patient's regimen and no placeholder is left.
  await expect(whatsApp.getByTestId('phone-message-outbound')).not.toContainText('{{');
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  await page.getByRole('group', { name: 'Quick replies to the latest message' }).getByRole('button', { name: 'Taken ✓' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sent through the webhook.' })).toBeVisible();

  const clinicianContext = await browser.newContext();
  await signIn('clinician', clinicianContext);
  const clinician = await clinicianContext.newPage();
  await clinician.goto(profilePath);
  const patientId = await patientIdInPicker(clinician, pseudonym);
  const today = longDate.format(new Date());
  // Test patients live in UTC: the dose is today's.
  await expect
    .poll(
      async () => {
        await clinician.goto(`${profilePath}?patient=${patientId}`);
        return clinician.getByRole('gridcell', { name: `${today}: taken`, exact: false }).count();
      },
      { timeout: 30_000, intervals: [1000] },
    )
    .toBeGreaterThan(0);
  await clinicianContext.close();
});

test('STOP by SMS opts the patient out everywhere: the next WhatsApp message is not sent', async ({ page }) => {
  test.slow();
  await openNewTestPatient(page);
  const sms = page.getByRole('list', { name: 'SMS messages' });
  await page.getByRole('group', { name: 'SMS reply keywords' }).getByRole('button', { name: 'STOP' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sent through the webhook.' })).toBeVisible();
  await expect(sms.getByTestId('phone-message-inbound')).toHaveText(/STOP/);
  // The carriers' rule: the opt-out is confirmed on the channel it came from.
  await expect(sms.getByTestId('phone-message-outbound')).toHaveCount(1, { timeout: 20_000 });

  await page.getByRole('button', { name: 'Send today’s message now' }).click();
  await expect(page.getByTestId('latest-decision')).toContainText('not sent (no-consent)', { timeout: 20_000 });
  await expect(page.getByRole('list', { name: 'WhatsApp messages' }).getByTestId('phone-message-outbound')).toHaveCount(0);
});
