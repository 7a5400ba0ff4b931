import { type Page } from '@playwright/test';
import { type MessagingProgramme, messagingProgrammeLabels } from '../../src/lib/domain/messaging-programmes';
import { chooseInSelect, expect, seriousAccessibilityViolations, test } from './fixtures';
import { patientIdInPicker } from './patient-picker';

// Enrolment in the learning policy from the screens: /dev/phone makes a test patient in the personalised
// programme, asks the daily loop for today's decision, and the clinician sees that decision traced with every
// action's probability on the flow page; a clinician changes a patient's programme on the profile with the keyboard.

const profilePath = '/algorithms/patient-engagement/patient-profile';
const flowPath = '/algorithms/patient-engagement/personalised-message-flow';

/** Makes a new test patient in `programme` on /dev/phone and opens their phone; returns the pseudonym. */
async function openNewTestPatient(page: Page, programme: MessagingProgramme): Promise<string> {
  await page.goto('/dev/phone');
  const form = page.getByRole('form', { name: 'Create a test patient' });
  await chooseInSelect(form, 'Messaging programme', messagingProgrammeLabels[programme]);
  await form.getByRole('button', { name: 'Create a test patient' }).click();
  await expect(page).toHaveURL(/\/dev\/phone\?patient=T-[0-9a-f]{8}$/);
  const pseudonym = decodeURIComponent(new URL(page.url()).searchParams.get('patient') ?? '');
  await expect(page.getByText(`Phone of ${pseudonym}`)).toBeVisible();
  return pseudonym;
}

test('a test patient enrolled in the personalised programme gets a live decision the clinician sees traced', async ({
  browser,
  page,
  signIn,
}) => {
  // The loop and the send are background jobs, and the flow page aggregates the whole cohort: give it time.
  test.setTimeout(180_000);
  const pseudonym = await openNewTestPatient(page, 'personalised');
  await page.getByRole('button', { name: 'Send today’s message now' }).click();
  // The personalised policy may choose no message: wait for the decision, not for a message.
  await expect(page.getByTestId('latest-decision')).not.toHaveText('The daily loop has made no decision for this patient yet.', {
    timeout: 30_000,
  });

  const clinicianContext = await browser.newContext();
  await signIn('clinician', clinicianContext);
  const clinician = await clinicianContext.newPage();
  // The traced decision is the latest live one of the clinician's patients: this patient's, once the loop ran.
  await expect
    .poll(
      async () => {
        await clinician.goto(flowPath);
        const traced = clinician.getByTestId('traced-decision');
        return (await traced.count()) > 0 ? ((await traced.locator('p').first().textContent()) ?? '') : '';
      },
      { timeout: 60_000, intervals: [2000] },
    )
    .toContain(`Patient ${pseudonym}`);
  const traced = clinician.getByTestId('traced-decision');
  await expect(traced).toContainText(/decided .* by policy version \S+\./);
  await expect(traced.getByRole('table', { name: /Probability of every action/ })).toBeVisible();
  expect(await seriousAccessibilityViolations(clinician)).toEqual([]);
  await clinicianContext.close();
});

test('a clinician changes a patient’s messaging programme on the profile with the keyboard', async ({ browser, page, signIn }) => {
  test.setTimeout(180_000);
  const pseudonym = await openNewTestPatient(page, 'fixed-daily');

  const clinicianContext = await browser.newContext();
  await signIn('clinician', clinicianContext);
  const clinician = await clinicianContext.newPage();
  await clinician.goto(profilePath);
  const patientId = await patientIdInPicker(clinician, pseudonym);
  await clinician.goto(`${profilePath}?patient=${patientId}`);
  const form = clinician.getByRole('form', { name: 'Change the messaging programme' });
  const programme = form.getByRole('button', { name: / Programme$/ });
  await expect(programme).toHaveText('Fixed daily reminder');
  expect(await seriousAccessibilityViolations(clinician)).toEqual([]);

  // Keyboard only: focus the select, type the start of the label to choose it, Tab to Save, Enter.
  await programme.focus();
  await clinician.keyboard.type('Personalised');
  await expect(programme).toHaveText('Personalised (learning policy)');
  await clinician.keyboard.press('Tab');
  await expect(form.getByRole('button', { name: 'Save programme' })).toBeFocused();
  await clinician.keyboard.press('Enter');
  await expect(form.getByRole('status')).toHaveText('Saved: the patient is now in “Personalised (learning policy)”.');

  // Stored: a fresh render shows the new programme.
  await clinician.goto(`${profilePath}?patient=${patientId}`);
  await expect(
    clinician.getByRole('form', { name: 'Change the messaging programme' }).getByRole('button', { name: / Programme$/ }),
  ).toHaveText('Personalised (learning policy)');
  await clinicianContext.close();
});
