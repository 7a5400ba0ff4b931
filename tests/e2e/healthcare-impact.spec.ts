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

test('admin: a measured adherence linked from the portal is shown with its period and population and can be the baseline; a bad one is ignored with a note', async ({
  page,
  signIn,
}) => {
  test.setTimeout(120_000);
  await signIn('admin');
  const linked = new URLSearchParams({
    measuredAdherence: '0.62',
    measuredPatients: '1234',
    measuredFrom: '2025-01-01',
    measuredTo: '2025-12-31',
    measuredDataTo: '2025-12-31',
    measuredPopulation: 'platform patients with a fill in the period of any product (every company; all regions)',
  });
  await page.goto(`${nationalPath}?${linked}`);
  await expect(page.getByTestId('platform-adherence')).toContainText(
    'measured on the platform: 62% of 1,234 patients at PDC ≥ 0.8, 1 Jan 2025 – 31 Dec 2025 (data up to 31 Dec 2025), platform patients',
  );
  const ukTotal = (await totalRow(page).textContent()) ?? '';
  await page.getByRole('button', { name: /Use the platform’s measured adherence/ }).click();
  await expect(page.getByText(/^Baseline adherence set to 62% for hypertension, type 2 diabetes, hyperlipidaemia/)).toBeVisible();
  await expect(page.getByText(/The platform’s adherence, measured on the platform: 62%/)).toHaveCount(3);
  // The UK preset's baseline differs from 62%, so the figures follow (unless the improvement is 0, when nothing is avoided either way).
  if (!ukTotal.includes('Central 0 ')) await expect.poll(async () => (await totalRow(page).textContent()) ?? '').not.toEqual(ukTotal);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  linked.set('measuredAdherence', '62');
  await page.goto(`${nationalPath}?${linked}`);
  await expect(page.getByTestId('platform-adherence-problem')).toContainText(
    'The measured adherence in this page’s address was ignored: the measured adherence must be a share from 0 to 1',
  );
  await expect(page.getByTestId('platform-adherence')).toHaveCount(0);
});
