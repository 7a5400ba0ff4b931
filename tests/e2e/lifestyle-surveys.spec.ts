import type { Locator, Page } from '@playwright/test';
import { expect, seriousAccessibilityViolations, test } from './fixtures';

const path = '/algorithms/patient-engagement/lifestyle-surveys';

/** Brings a survey to a question, whatever an earlier run left (not started, unfinished, finished). */
async function openQuestion(section: Locator, title = 'Lifestyle') {
  const again = section.getByRole('button', { name: `Take this survey again: ${title}` });
  const resume = section.getByRole('button', { name: `Continue this survey: ${title}` });
  const start = section.getByRole('button', { name: `Start this survey: ${title}` });
  await expect(again.or(resume).or(start)).toBeVisible();
  if (await again.isVisible()) await again.click();
  else if (await resume.isVisible()) await resume.click();
  else await start.click();
  await expect(section.getByText(/^Question \d+ of (at most )?\d+$/)).toBeVisible();
}

/** "Question 3 of 15" → 3. */
async function questionNumber(section: Locator): Promise<number> {
  const text = await section.getByText(/^Question \d+ of \d+$/).textContent();
  return Number(/Question (\d+)/.exec(text ?? '')?.[1]);
}

/**
 * Answers the current question by keyboard only: focus is on the question's heading; Tab into the answers and
 * ArrowDown chooses the second answer (or type 30 minutes), then Save and continue.
 */
async function answerByKeyboard(page: Page, section: Locator) {
  const heading = section.locator('h3[tabindex="-1"]');
  await expect(heading).toBeFocused();
  const before = await heading.textContent();
  await page.keyboard.press('Tab');
  if ((await section.getByRole('radio').count()) > 0) {
    await page.keyboard.press('ArrowDown');
    await expect(section.getByRole('radio').nth(1)).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(section.getByRole('button', { name: 'Save and continue' })).toBeFocused();
    await page.keyboard.press('Enter');
  } else {
    const minutes = section.getByRole('textbox', { name: 'Minutes a day' }).or(section.getByRole('spinbutton', { name: 'Minutes a day' }));
    await expect(minutes).toBeFocused();
    // Named by its unit and its question, so the field alone says what is asked.
    await expect(minutes).toHaveAccessibleName(`Minutes a day ${before}`);
    await page.keyboard.type('30');
    await page.keyboard.press('Enter');
  }
  await expect(section.getByRole('heading', { name: 'Your results' }).or(heading.filter({ hasNotText: before ?? '' }))).toBeVisible();
}

// The demo patient's account is linked to a synthetic patient record (src/features/demo-data/server/link-demo-accounts.ts).
test('a patient answers the lifestyle survey by keyboard, stops, resumes after leaving, and sees the result beside the cohort', async ({
  page,
  signIn,
  allowConsoleMessages,
}) => {
  // About 16 saved answers, two reloads and an axe check on a 2-core machine.
  test.slow();
  await signIn('patient');
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lifestyle Micro-Surveys');
  const section = page.getByRole('region', { name: 'Lifestyle', exact: true });

  await openQuestion(section);
  // The question screen itself passes axe, not only the results.
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  const first = await questionNumber(section);
  await answerByKeyboard(page, section);
  await expect(section.getByText(`Question ${first + 1} of`, { exact: false })).toBeVisible();

  // Stop, leave the page and come back: the answers are kept and the survey continues where it stopped.
  await section.getByRole('button', { name: 'Stop for now' }).click();
  await expect(section.getByText(`You have answered ${first} of`)).toBeVisible();
  // The button that had focus is gone: focus waits on the way back in, not on the page.
  await expect(section.getByRole('button', { name: 'Continue this survey: Lifestyle' })).toBeFocused();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.goto('/profile');
  await page.goto(path);
  await expect(section.getByText(`You have answered ${first} of`)).toBeVisible();
  const resume = section.getByRole('button', { name: 'Continue this survey: Lifestyle' });
  await resume.focus();
  await page.keyboard.press('Enter');
  await expect(section.getByText(`Question ${first + 1} of`, { exact: false })).toBeVisible();

  // The connection drops as the next answer is saved: the form says so and can be used again once it is back.
  allowConsoleMessages(/net::ERR_INTERNET_DISCONNECTED/, /^Failed to fetch$/);
  const heading = section.locator('h3[tabindex="-1"]');
  const radios = section.getByRole('radio');
  if ((await radios.count()) > 0) await radios.nth(1).check();
  else await section.getByRole('spinbutton').or(section.getByRole('textbox')).fill('30');
  await page.context().setOffline(true);
  const save = section.getByRole('button', { name: 'Save and continue' });
  await save.click();
  await expect(section.getByRole('alert').filter({ hasText: 'We could not reach Medaptive' })).toBeVisible();
  await expect(save).toBeEnabled();
  await expect(section.getByText(`Question ${first + 1} of`, { exact: false })).toBeVisible();
  await page.context().setOffline(false);
  await save.click();
  await expect(
    section.getByText(`Question ${first + 2} of`, { exact: false }).or(section.getByRole('heading', { name: 'Your results' })),
  ).toBeVisible();
  // Focus moves on to the next question (or the result), as after any saved answer.
  await expect(heading).toBeFocused();

  const results = section.getByRole('heading', { name: 'Your results' });
  for (let step = 0; step < 20 && !(await results.isVisible()); step += 1) await answerByKeyboard(page, section);
  await expect(results).toBeFocused();
  await expect(section.getByText(/Physical activity: (low|moderate|high)/)).toBeVisible();
  await expect(section.getByText(/MET-minutes a week/)).toBeVisible();
  await expect(section.getByText(/Alcohol \(AUDIT-C\): \d+ of 12/)).toBeVisible();

  // Beside it, the cohort's distribution (synthetic demo responses), with its population and dates.
  const cohort = page.getByRole('region', { name: 'Lifestyle: the cohort’s results' });
  await expect(cohort.getByRole('table', { name: /Physical activity \(IPAQ category\)/ })).toBeVisible();
  await expect(
    cohort.getByText(/patients \(all patients\), each counted once by their latest completed response; responses completed/),
  ).toBeVisible();
  await expect(cohort.getByText(/synthetic demo data/)).toBeVisible();

  // Reloaded, the result is still there.
  await page.reload();
  await expect(section.getByRole('heading', { name: 'Your results' })).toBeVisible();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test('the barrier survey does not ask what the patient’s record says: at most 5 questions, and the result marks the record’s answers', async ({
  page,
  signIn,
}) => {
  test.slow();
  await signIn('patient');
  await page.goto(path);
  const title = 'What gets in the way of your medicines';
  const section = page.getByRole('region', { name: title, exact: true });
  await openQuestion(section, title);
  // The demo patient's record holds an age band, a preferred channel and fills (decision 068): none of them is asked.
  const heading = section.locator('h3[tabindex="-1"]');
  await heading.focus();
  const results = section.getByRole('heading', { name: 'Your results' });
  for (let step = 0; step < 5 && !(await results.isVisible()); step += 1) {
    await expect(section.getByText(/^Question [1-5] of at most 5$/)).toBeVisible();
    await expect(heading).not.toHaveText(/age group|send you messages|at a time/);
    await answerByKeyboard(page, section);
  }
  await expect(results).toBeVisible();
  await expect(section.getByText('(from your record, not asked)')).toHaveCount(3);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test('a clinician sees their patients’ results and the cohort unsuppressed, and is not offered a survey', async ({ page, signIn }) => {
  test.slow();
  await signIn('clinician');
  await page.goto(path);
  await expect(page.getByText('Surveys are taken by patients. Below are the results of the patients of your organisations.')).toBeVisible();
  const results = page.getByRole('region', { name: 'Your patients’ results' });
  await expect(results.getByRole('table')).toBeVisible();
  // Results in words, as the cohort's distribution names them, not the stored codes.
  await expect(results.getByText('Physical activity (IPAQ category)').first()).toBeVisible();
  await expect(results.getByText('Most likely persona').first()).toBeVisible();
  await expect(results.getByText(/ipaq:|persona:/)).toHaveCount(0);
  await expect(
    results.getByText(/busy-professional|forgetful-older-adult|medication-sceptic|cost-constrained|engaged-self-manager|newly-diagnosed/),
  ).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Start this survey/ })).toHaveCount(0);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});
