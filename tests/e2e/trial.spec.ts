import { type Browser, type Locator, type Page } from '@playwright/test';
import { messagingProgrammeLabels } from '../../src/lib/domain/messaging-programmes';
import { chooseInSelect, expect, seriousAccessibilityViolations, test } from './fixtures';

// The 12-week trial page (issue 14): the demo's complete cohort A as a clinician and as a patient, the
// sample-size calculator, and a trial of the test's own (cohort A is complete, so no one can join it) that an
// admin sets up and a clinician enrols into, with the CONSORT counts following each step.

const cohortA = '/trials/cohort-a';

/** Ticks a HeroUI checkbox or radio from the keyboard (the input is visually hidden inside its label). */
async function press(control: Locator) {
  await control.focus();
  await control.press('Space');
  await expect(control).toBeChecked();
}

/** A CONSORT box's text, spaces collapsed. */
async function consortText(page: Page, testId: string): Promise<string> {
  return ((await page.getByTestId(testId).textContent()) ?? '').replace(/\s+/g, ' ');
}

/** A new test patient of the demo clinic from /dev/phone (on treatment, consenting to reminders); returns the pseudonym. */
async function newTestPatient(browser: Browser): Promise<string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto('/dev/phone');
    const form = page.getByRole('form', { name: 'Create a test patient' });
    await chooseInSelect(form, 'Messaging programme', messagingProgrammeLabels['fixed-daily']);
    await form.getByRole('button', { name: 'Create a test patient' }).click();
    await expect(page).toHaveURL(/\/dev\/phone\?patient=T-[0-9a-f]{8}$/);
    return decodeURIComponent(new URL(page.url()).searchParams.get('patient') ?? '');
  } finally {
    await context.close();
  }
}

/** Finds `pseudonym` among the candidates, confirms the checklist and consent, enrols; returns the confirmation. */
async function enrol(page: Page, trialPath: string, pseudonym: string): Promise<Locator> {
  await page.goto(trialPath);
  const enrolment = page.getByTestId('trial-enrolment');
  await enrolment.getByLabel('Search candidates by pseudonym').fill(pseudonym);
  await enrolment.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(`${trialPath}?search=${encodeURIComponent(pseudonym)}`);
  await press(enrolment.getByRole('radio', { name: pseudonym }));
  const assessment = page.getByTestId('trial-assessment');
  await expect(assessment.getByRole('heading', { name: `Assessing ${pseudonym}` })).toBeVisible();
  // The system's checks are shown as met, not as something to tick.
  await expect(assessment.getByText(/^Not met/)).toHaveCount(0);
  const enrolForm = assessment.getByRole('form', { name: `Enrol ${pseudonym}` });
  for (const label of ['Aged 18 or over', /Able to read messages/, /Has given informed consent/, 'Consent recorded']) {
    await press(enrolForm.getByRole('checkbox', { name: label }));
  }
  // No arm on the page before the enrolment is saved (allocation concealment).
  await expect(page.getByText(/Allocated to:/)).toHaveCount(0);
  await enrolForm.getByRole('button', { name: 'Enrol and randomise' }).click();
  const confirmation = page.getByTestId('trial-enrolment-confirmation');
  await expect(confirmation).toContainText(`${pseudonym} is enrolled and randomised.`);
  return confirmation;
}

test('cohort A as a clinician: protocol, CONSORT flow of 400 randomised, results with CIs and p-values, synthetic label, axe clean', async ({
  page,
  signIn,
}) => {
  test.setTimeout(120_000);
  await signIn('clinician');
  const response = await page.goto(cohortA);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle('12-Week Trial');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('12-Week Trial');
  await expect(page.getByTestId('trial-status')).toContainText('synthetic demo data');
  await expect(page.getByTestId('trial-status')).toContainText('Complete');

  const protocol = page.getByTestId('trial-protocol');
  await expect(protocol).toContainText(/Intervention: personalised messages/);
  await expect(protocol).toContainText('12 weeks of follow-up');
  await expect(protocol).toContainText(/1:1/);
  await expect(page.getByTestId('trial-analysis-plan')).toContainText('Frozen since enrolment started');
  await expect(page.getByTestId('trial-analysis-plan')).toContainText(/SHA-256: [0-9a-f]{64}/);

  await expect(page.getByTestId('consort-randomised')).toHaveText(/Randomised \(n = 400\)/);
  const allocated = await Promise.all(
    ['intervention', 'control'].map(async (arm) => Number(/\(n = (\d+)\)/.exec(await consortText(page, `consort-allocated-${arm}`))?.[1])),
  );
  expect(allocated.reduce((sum, count) => sum + count, 0)).toBe(400);

  const results = page.getByTestId('trial-results');
  await expect(results.getByTestId('trial-primary')).toContainText(
    /Difference in means \(Welch\)-?\d\.\d{3} \(95% CI -?\d\.\d{3} to -?\d\.\d{3}\), p (< 0\.001|= \d\.\d{3})/,
  );
  await expect(results.getByTestId('trial-primary')).toContainText(/ANCOVA/);
  await expect(results.getByTestId('trial-binary')).toContainText(/Fisher’s exact testp [<=] /);
  await expect(results.getByRole('region', { name: 'Weekly adherence by arm' }).getByRole('table')).toBeVisible();
  await expect(results.getByRole('link', { name: /Download CSV/ })).toHaveAttribute('href', '/api/trials/cohort-a/analysis-dataset');
  // A clinician of a complete trial neither enrols nor sees a candidate list.
  await expect(page.getByTestId('trial-enrolment')).toHaveCount(0);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test('an admin sets up a trial, a clinician enrols two and withdraws one, CONSORT follows, and the plan is then frozen', async ({
  browser,
  page,
  signIn,
}) => {
  test.setTimeout(240_000);
  const trialId = `e2e-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
  const trialPath = `/trials/${trialId}`;
  const [first, second] = [await newTestPatient(browser), await newTestPatient(browser)];

  // The admin sets the trial up and edits its plan before anyone is enrolled.
  await signIn('admin');
  await page.goto('/trials');
  const setUp = page.getByRole('form', { name: 'Set up a trial' });
  await setUp.getByLabel('Trial id').fill(trialId);
  await setUp.getByLabel('Target enrolment').fill('20');
  // A required field left empty is named in words; once corrected, the same form submits.
  await setUp.getByRole('button', { name: 'Set up the trial' }).click();
  await expect(setUp.getByText('Name: give the trial a name.')).toBeVisible();
  await expect(setUp.getByLabel('Name')).toHaveAccessibleDescription('Name: give the trial a name.');
  await expect(page).toHaveURL('/trials');
  await setUp.getByLabel('Name').fill(`E2E trial ${trialId}`);
  await setUp.getByRole('button', { name: 'Set up the trial' }).click();
  await expect(page).toHaveURL(trialPath);
  await expect(page.getByText(`E2E trial ${trialId}`)).toBeVisible();
  const planForm = page.getByRole('form', { name: 'Edit the analysis plan' });
  const plan = planForm.getByLabel('Analysis plan', { exact: true });
  await plan.fill('Intention to treat; Welch difference in mean dose-level adherence with its 95% CI; ANCOVA on baseline.');
  await planForm.getByRole('button', { name: 'Save analysis plan' }).click();
  await expect(planForm.getByRole('status')).toHaveText('Analysis plan saved.');
  await expect(page.getByTestId('consort-assessed')).toHaveText(/Assessed for eligibility \(n = 0\)/);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  // A clinician of the demo clinic enrols two test patients; each arm is shown only after saving.
  const clinicianContext = await browser.newContext();
  try {
    await signIn('clinician', clinicianContext);
    const clinician = await clinicianContext.newPage();
    for (const pseudonym of [first, second]) {
      const confirmation = await enrol(clinician, trialPath, pseudonym);
      await expect(confirmation).toContainText(/Allocated to: (Intervention: personalised messages|Control: standard programme)/);
      await expect(confirmation).toContainText(/follow-up ends on \d{1,2} \w+ \d{4}/);
    }
    await expect.poll(async () => consortText(clinician, 'consort-randomised'), { timeout: 15_000 }).toContain('Randomised (n = 2)');
    await expect(clinician.getByTestId('consort-assessed')).toHaveText(/Assessed for eligibility \(n = 2\)/);
    await expect(clinician.getByTestId('trial-status')).toContainText('Recruiting');
    const participants = clinician.getByTestId('trial-participants');
    await expect(participants.getByRole('row', { name: new RegExp(first) })).toContainText('In follow-up');
    expect(await seriousAccessibilityViolations(clinician)).toEqual([]);

    // The second withdraws: reason and date required, then the status and the CONSORT count change.
    const withdrawnBefore = await clinician
      .getByTestId('consort')
      .getByText(/^Withdrew \(n = 1\)$/)
      .count();
    expect(withdrawnBefore).toBe(0);
    await participants.getByRole('button', { name: `Record withdrawal / loss to follow-up / discontinuation of ${second}` }).click();
    const exit = participants.getByRole('form', { name: `Record an exit of ${second}` });
    await exit.getByRole('button', { name: 'Save exit' }).click();
    await expect(exit.getByText('Reason: say why (no names or contact details).')).toBeVisible();
    await exit.getByLabel('Reason').fill('Moved away and asked to stop taking part');
    await exit.getByRole('button', { name: 'Save exit' }).click();
    await expect(participants.getByRole('status')).toHaveText(`Withdrawal of ${second} recorded.`);
    await expect(participants.getByRole('row', { name: new RegExp(second) })).toContainText('Withdrew');
    await expect(participants.getByRole('row', { name: new RegExp(first) })).toContainText('In follow-up');
    await expect
      .poll(async () =>
        clinician
          .getByTestId('consort')
          .getByText(/^Withdrew \(n = 1\)$/)
          .count(),
      )
      .toBe(1);
    await expect(clinician.getByTestId('consort-randomised')).toHaveText(/Randomised \(n = 2\)/);
  } finally {
    await clinicianContext.close();
  }

  // The admin's page still holds the editor from before enrolment: saving now is refused, in words.
  await plan.fill('A different plan written after the first enrolment, which must be refused.');
  await planForm.getByRole('button', { name: 'Save analysis plan' }).click();
  await expect(planForm.getByRole('alert').first()).toContainText('frozen because enrolment has started');
  await page.reload();
  await expect(page.getByTestId('trial-analysis-plan')).toContainText('Frozen since enrolment started');
  await expect(page.getByTestId('trial-analysis-plan')).toContainText('Intention to treat; Welch difference');
  await expect(page.getByRole('form', { name: 'Edit the analysis plan' })).toHaveCount(0);
});

test('a patient sees the protocol, the CONSORT flow and only their own participation', async ({ page, signIn }) => {
  await signIn('patient');
  await page.goto(cohortA);
  await expect(page.getByTestId('trial-protocol')).toContainText('Primary endpoint');
  await expect(page.getByTestId('consort-randomised')).toHaveText(/Randomised \(n = 400\)/);
  const own = page.getByTestId('your-participation');
  await expect(own).toContainText(/Arm(Intervention|Control)|You are not taking part in this trial\./);
  // Nothing of anyone else: no participants, no candidates, no dataset.
  await expect(page.getByTestId('trial-participants')).toHaveCount(0);
  await expect(page.getByTestId('trial-enrolment')).toHaveCount(0);
  await expect(page.getByRole('link', { name: /Download CSV/ })).toHaveCount(0);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test('the sample-size calculator gives statsmodels’ n rounded up and names a bad field', async ({ page, signIn }) => {
  await signIn('patient');
  await page.goto(cohortA);
  const proportions = page.getByRole('form', { name: 'Sample size for two proportions' });
  await proportions.getByLabel('Proportion in the control arm (p1)').fill('0.5');
  await proportions.getByLabel('Proportion in the intervention arm (p2)').fill('0.65');
  await proportions.getByLabel('Significance level (α)').fill('0.05');
  await proportions.getByLabel('Power').fill('0.8');
  await proportions.getByRole('button', { name: 'Calculate for two proportions' }).click();
  // statsmodels: 169.31 per arm, 182.40 with the continuity correction (reference.json, sampleSizeProportions).
  await expect(proportions.getByRole('status')).toHaveText('170 participants per arm (183 with the continuity correction), rounded up.');

  await proportions.getByLabel('Proportion in the intervention arm (p2)').fill('1.5');
  await proportions.getByRole('button', { name: 'Calculate for two proportions' }).click();
  await expect(proportions.getByText('Proportion in the intervention arm (p2) must be between 0 and 1 (exclusive).')).toBeVisible();
  await expect(proportions.getByRole('status')).toHaveText('');

  const means = page.getByRole('form', { name: 'Sample size for two means' });
  await means.getByLabel('Standard deviation').fill('0.25');
  await means.getByLabel('Difference to detect').fill('0.1');
  await means.getByRole('button', { name: 'Calculate for two means' }).click();
  // 98.11 per arm (reference.json, sampleSizeMeans).
  await expect(means.getByRole('status')).toHaveText('99 participants per arm, rounded up.');
});
