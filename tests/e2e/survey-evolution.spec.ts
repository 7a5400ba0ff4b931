import { expect, seriousAccessibilityViolations, test } from './fixtures';

const path = '/algorithms/patient-engagement/survey-evolution';

test('an admin sees the persona accuracy of the adaptive and fixed orders, labelled synthetic, and every survey version with its rates', async ({
  page,
  signIn,
}) => {
  // The accuracy simulation runs on the first load of a process; the demo cohort's responses are read.
  test.slow();
  await signIn('admin');
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Patient Micro-Survey Evolution');

  const accuracy = page.getByRole('region', { name: 'Persona accuracy: adaptive order against fixed order' });
  await expect(accuracy.getByText(/^Synthetic: 4,000 simulated patients/)).toBeVisible();
  // The target is stated with its measured figure, met or not.
  await expect(accuracy.getByText(/To reach 80% accuracy the adaptive order needs .+ and the fixed order .+\./)).toBeVisible();
  // And what the survey gives as the product runs it, stop rules on (never more than 5 questions on average).
  await expect(
    accuracy.getByText(
      /the adaptive survey asks these patients [0-5]\.\d questions on average and finds the true persona for \d+\.\d% of them\./,
    ),
  ).toBeVisible();
  await expect(accuracy.getByRole('img', { name: /Line chart of persona accuracy against the number of questions asked/ })).toBeVisible();
  const table = accuracy.getByRole('table', { name: /Persona accuracy by questions asked/ });
  // A header row and one row per number of questions, 0 to 26 (barrier survey version 4: 29 questions, the age group,
  // the supply and the channel from the record, decision 068).
  await expect(table.getByRole('row')).toHaveCount(28);
  await expect(accuracy.getByText(/The patient’s record answers age-band, supply-length and contact-channel/)).toBeVisible();

  const versions = page.getByRole('region', { name: 'Versions, responses and the information each question adds' });
  await expect(versions.getByText(/patients \(all patients\)/)).toBeVisible();
  const barriers = versions.getByRole('region', { name: /^What gets in the way of your medicines \(\d+ versions?\)$/ });
  await expect(barriers.getByRole('table', { name: /^Responses by channel/ }).first()).toBeVisible();
  await expect(barriers.getByRole('table', { name: /^Information each question added about the persona/ }).first()).toBeVisible();
  // The demo's responses carry the simulated year's dates, earlier than the day the built-in versions were stored.
  await expect(
    barriers.getByText(/^Responses dated before .+, when this version was stored, are the demo's synthetic responses/),
  ).toBeVisible();
  // The demo answers the current version only: an older one says it has no answers rather than listing zeros.
  const firstVersion = barriers.getByRole('region', { name: /^Version 1 — / });
  await expect(firstVersion.getByText('No answers yet, so no question has added information on this version.')).toBeVisible();
  await expect(firstVersion.getByRole('table')).toHaveCount(0);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test('a clinician sees the figures for the patients of their organisations', async ({ page, signIn }) => {
  test.slow();
  await signIn('clinician');
  await page.goto(path);
  await expect(page.getByText(/Responses of \d[\d,]* patients \(the patients of your organisations\)/)).toBeVisible();
  await expect(page.getByRole('table', { name: /Persona accuracy by questions asked/ })).toBeVisible();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});
