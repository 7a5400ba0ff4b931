import { expect, seriousAccessibilityViolations, test } from './fixtures';

const comparisonPath = '/algorithms/patient-engagement/medaptive-comparison';
const policyNames = ['No messages', 'Standard daily reminder (08:00)', 'Weekly check-in (Mondays 10:00)'];

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
    await expect(page.getByTestId('synthetic-label')).toHaveText('synthetic demo data');
    const table = page.getByRole('table');
    for (const name of policyNames) await expect(table.getByRole('rowheader', { name, exact: true })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Cost per adherent patient-day' })).toBeVisible();
    await expect(page.getByText('It joins this comparison, on the same cohort, when it lands.')).toBeVisible();
    // The charts are drawn (SVG) and say what they show.
    await expect(
      page
        .getByRole('img', { name: /^Line chart of mean PDC in each month/ })
        .locator('svg')
        .first(),
    ).toBeVisible();
    await expect(
      page
        .getByRole('img', { name: /^Bar chart of mean PDC/ })
        .locator('svg')
        .first(),
    ).toBeVisible();

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
});
