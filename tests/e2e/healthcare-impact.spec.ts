import type { Page } from '@playwright/test';
import { type Credentials, expect, seriousAccessibilityViolations, test } from './fixtures';
import { expectChartDrawn } from './support/charts';

// National healthcare impact and patient outcomes (issue 15 items 4–5), for a government official (a created
// account) and the demo admin: a country preset and a slider changed from the keyboard change the figures;
// both pages axe clean.

const nationalPath = '/algorithms/patient-engagement/national-healthcare-impact';
const outcomesPath = '/algorithms/patient-engagement/patient-outcomes';

/** Opens a HeroUI select from the keyboard and picks an option by typing its name. */
async function choose(page: Page, label: RegExp, option: string) {
  const trigger = page.getByRole('button', { name: label });
  await trigger.focus();
  await page.keyboard.press('Enter');
  const item = page.getByRole('option', { name: option });
  await expect(item).toBeVisible();
  await page.keyboard.type(option.slice(0, 4));
  await expect(item).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(trigger).toContainText(option);
}

const totalRow = (page: Page) => page.getByTestId('impact-row-Total');

for (const who of ['government-official', 'admin'] as const) {
  test(`${who}: national impact recomputes from the preset and the improvement slider; patient outcomes by group; axe clean`, async ({
    page,
    signIn,
    createAccount,
  }) => {
    test.setTimeout(120_000);
    const account: 'admin' | Credentials = who === 'admin' ? 'admin' : await createAccount({ role: 'government-official' });
    await signIn(account);

    const response = await page.goto(nationalPath);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('National Healthcare Impact');
    await expect(page.getByTestId('not-causal')).toContainText('Modelled from observational associations, not causal.');
    await expect(page.getByTestId('improvement-source')).toContainText(/trial|No trial/);
    await expect(page.getByText(/Chowdhury R et al\., Eur Heart J 2013/).first()).toBeVisible();
    const ukTotal = (await totalRow(page).textContent()) ?? '';
    expect(ukTotal).toContain('£');

    await choose(page, /Country preset/, 'India');
    await expect.poll(async () => (await totalRow(page).textContent()) ?? '').not.toEqual(ukTotal);
    await expect(totalRow(page)).toContainText('₹');

    const slider = page.getByRole('slider', { name: /^Adherence improvement/ });
    await slider.focus();
    // Home: no improvement, nothing avoided; two steps right: half a point each, the figures follow.
    await slider.press('Home');
    await expect(totalRow(page)).toContainText('Central 0 ');
    const noneTotal = (await totalRow(page).textContent()) ?? '';
    await slider.press('ArrowRight');
    await slider.press('ArrowRight');
    await expect(page.getByText('1.0 points', { exact: true })).toBeVisible();
    await expect.poll(async () => (await totalRow(page).textContent()) ?? '').not.toEqual(noneTotal);
    await expectChartDrawn(page.getByRole('img', { name: /Hospital admissions avoided per year in India/ }));
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    const outcomes = await page.goto(outcomesPath);
    expect(outcomes?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Patient Outcomes with Universal Health Impact');
    await expect(page.getByTestId('not-causal')).toContainText('Modelled from observational associations, not causal.');
    await expect(page.getByTestId('outcomes-population')).toContainText(/Patients with a dispensing from .+ share adherent/);
    const personaTable = page.getByTestId('outcomes-persona');
    await expect(personaTable).toBeVisible();
    await expect(page.getByTestId('outcomes-condition')).toContainText('Hypertension');
    const ukFigures = (await personaTable.textContent()) ?? '';
    await choose(page, /Country preset/, 'India');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(/[?&]country=india/);
    await expect.poll(async () => (await personaTable.textContent()) ?? '').not.toEqual(ukFigures);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
}
