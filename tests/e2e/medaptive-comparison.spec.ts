import { expect, seriousAccessibilityViolations, test } from './fixtures';
import { expectChartDrawn } from './support/charts';

const comparisonPath = '/algorithms/patient-engagement/medaptive-comparison';
const policyNames = ['No messages', 'Standard daily reminder (08:00)', 'Weekly check-in (Mondays 10:00)', 'Personalised (learning policy)'];

test.describe('Medaptive Comparison', () => {
  test('runs one synthetic cohort under each policy, re-runs with another seed, and passes axe', async ({ page, signIn }) => {
    test.setTimeout(90_000);
    await signIn('patient');
    const response = await page.goto(comparisonPath);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('Medaptive Comparison');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Medaptive Comparison');

    const form = page.getByRole('form', { name: 'Comparison settings' });
    await form.getByLabel('Cohort size (patients)', { exact: true }).fill('200');
    await form.getByLabel('Seed', { exact: true }).fill('7');
    await form.getByRole('button', { name: 'Run comparison' }).click();

    const cohort = page.getByTestId('comparison-cohort');
    await expect(cohort).toContainText('200 simulated patients');
    await expect(cohort).toContainText('seed 7;');
    // The address now names the run, so a reload (or a bookmark) shows the same figures.
    await expect(page).toHaveURL(/\?patients=200&seed=7&smsPrice=0\.04&whatsappPrice=0\.02$/);
    const reloadedFigures = await page.getByTestId('policy-row-fixed-daily').textContent();
    await page.reload();
    await expect(cohort).toContainText('seed 7;');
    await expect(page.getByTestId('policy-row-fixed-daily')).toHaveText(reloadedFigures ?? '');
    await expect(form.getByLabel('Seed', { exact: true })).toHaveValue('7');
    await expect(page.getByTestId('synthetic-label')).toHaveText('synthetic demo data');
    const table = page.getByRole('table');
    for (const name of policyNames) await expect(table.getByRole('rowheader', { name, exact: true })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Cost per adherent patient-day' })).toBeVisible();
    await expect(page.getByText('In this comparison it starts from its prior, knowing nothing about the cohort')).toBeVisible();
    // The charts are drawn (SVG) and say what they show.
    await expectChartDrawn(page.getByRole('img', { name: /^Line chart of mean PDC in each month/ }).first());
    await expectChartDrawn(page.getByRole('img', { name: /^Bar chart of mean PDC/ }).first());

    // Another seed, submitted from the keyboard: another cohort, other figures.
    const dailyRow = page.getByTestId('policy-row-fixed-daily');
    const seedSevenFigures = await dailyRow.textContent();
    await form.getByLabel('Seed', { exact: true }).fill('8');
    await form.getByLabel('Seed', { exact: true }).press('Enter');
    await expect(cohort).toContainText('seed 8;');
    await expect(dailyRow).not.toHaveText(seedSevenFigures ?? '');
    for (const name of policyNames) await expect(table.getByRole('rowheader', { name, exact: true })).toBeVisible();

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test('names the field that is wrong and runs nothing', async ({ page, signIn }) => {
    // The first view simulates the default cohort: 17 s on this shared machine beside another comparison.
    test.slow();
    await signIn('patient');
    await page.goto(comparisonPath);
    const form = page.getByRole('form', { name: 'Comparison settings' });
    const before = await page.getByTestId('comparison-cohort').textContent();
    await form.getByLabel('Cohort size (patients)', { exact: true }).fill('5');
    await form.getByLabel('SMS price per message (£)', { exact: true }).fill('cheap');
    await form.getByRole('button', { name: 'Run comparison' }).click();
    await expect(form.getByText('Cohort size must be a whole number from 100 to 50,000 patients.')).toBeVisible();
    await expect(form.getByText('SMS price per message must be an amount in pounds from 0 to 10, such as 0.04.')).toBeVisible();
    await expect(form.getByLabel('Cohort size (patients)', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('comparison-cohort')).toHaveText(before ?? '');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test('a background run survives leaving the page: its address shows progress, then the stored result, after a reload too', async ({
    page,
    browser,
    signIn,
    createAccount,
  }) => {
    // The simulations queue runs one job at a time: this run may wait behind the policy lab's runs of other specs.
    test.setTimeout(480_000);
    // An account of its own, so "your most recent run" is this test's; a seed no other run uses, so nothing is cached.
    const owner = await createAccount({ role: 'patient' });
    await signIn(owner);
    await page.goto(comparisonPath);
    await expect(page.getByTestId('comparison-latest-run')).toContainText('You have not started a background run yet.');

    const seed = String(100_000 + Math.floor(Math.random() * 4_000_000_000));
    const form = page.getByRole('form', { name: 'Comparison settings' });
    await form.getByLabel('Cohort size (patients)', { exact: true }).fill('1200');
    await form.getByLabel('Seed', { exact: true }).fill(seed);
    await form.getByRole('button', { name: 'Run comparison' }).click();
    await expect(page).toHaveURL(/\?run=[0-9a-f-]{36}$/);
    const runUrl = page.url();
    const run = page.getByTestId('comparison-run');
    await expect(run).toContainText(`1,200 patients, seed ${seed}`);
    await expect(page.getByTestId('comparison-announcement')).toHaveText(/^Background run (queued|\d+% simulated|finished)/);

    // Leave for another page and come back: the run is still there, in progress or done.
    await page.goto('/profile');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(runUrl);
    await expect(run).toContainText(`1,200 patients, seed ${seed}`);
    await expect(page.getByTestId('comparison-run-status')).toHaveText(
      /^(queued, waiting to start|running, \d+% simulated|finished .+ UTC)$/,
    );

    // It ends with the stored result.
    await expect(page.getByTestId('comparison-run-status')).toContainText('finished', { timeout: 400_000 });
    const cohort = page.getByTestId('comparison-cohort');
    await expect(cohort).toContainText('1,200 simulated patients');
    await expect(cohort).toContainText(`seed ${seed};`);
    const dailyRow = page.getByTestId('policy-row-fixed-daily');
    const figures = await dailyRow.textContent();
    expect(figures).toMatch(/\d/);

    // The result's address, reloaded: the same result, read from the stored run.
    await page.reload();
    await expect(page.getByTestId('comparison-run-status')).toContainText('finished');
    await expect(cohort).toContainText(`seed ${seed};`);
    await expect(dailyRow).toHaveText(figures ?? '');
    await expect(form.getByLabel('Cohort size (patients)', { exact: true })).toHaveValue('1200');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // The page without a run points to the latest one, reachable from the keyboard.
    await page.goto(comparisonPath);
    await expect(page.getByTestId('comparison-latest-run')).toContainText(`seed ${seed}`);
    const latest = page.getByRole('link', { name: 'Open your most recent run' });
    await latest.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(runUrl);
    await expect(dailyRow).toHaveText(figures ?? '');

    // Someone else opening the address learns nothing of the run.
    const other = await browser.newContext();
    try {
      await signIn('patient', other);
      const otherPage = await other.newPage();
      await otherPage.goto(runUrl);
      await expect(otherPage.getByTestId('comparison-run-problem')).toContainText(
        'There is no comparison run with this id that you can see.',
      );
      await expect(otherPage.getByTestId('comparison-run')).toHaveCount(0);
      await expect(otherPage.getByText(`seed ${seed}`)).toHaveCount(0);
    } finally {
      await other.close();
    }
  });

  test('an address with a malformed run id says which field is wrong', async ({ page, signIn }) => {
    await signIn('patient');
    const response = await page.goto(`${comparisonPath}?run=123`);
    expect(response?.status()).toBe(200);
    await expect(page.getByTestId('comparison-run-problem')).toContainText(
      'This address does not name a comparison run: run must be a comparison run id',
    );
    await page.getByRole('link', { name: 'Open the comparison without a run' }).click();
    await expect(page).toHaveURL(new RegExp(`${comparisonPath}$`));
    await expect(page.getByTestId('comparison-latest-run')).toBeVisible();
  });
});
