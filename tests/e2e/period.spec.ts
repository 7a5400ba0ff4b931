import type { Page } from '@playwright/test';
import { chooseInSelect, expect, test } from './fixtures';
import { choosePatient } from './patient-picker';

/**
 * Issue 11 item 1: one as-of date and one period. Every page states the period it reports and the last day of
 * data, the same for the same viewer and choice; a choice made on one page carries to the others through the
 * address; the period never runs past the data, so the journey's last month is not empty for the demo data.
 * (Figures change with the simulator: these tests assert the rules and the agreement, not the numbers.)
 */
const pages = {
  home: '/',
  dataSources: '/algorithms/patient-engagement/data-sources',
  journey: '/algorithms/patient-engagement/compliance-journey',
  profile: '/algorithms/patient-engagement/patient-profile',
} as const;

const PERIOD_TEXT = /^(\d{1,2} [A-Z][a-z]{2,3} \d{4}) – (\d{1,2} [A-Z][a-z]{2,3} \d{4}), data up to (\d{1,2} [A-Z][a-z]{2,3} \d{4})$/;

async function statedPeriod(page: Page): Promise<string> {
  const stated = page.getByTestId('reporting-period');
  await expect(stated).toHaveText(PERIOD_TEXT);
  return (await stated.textContent()) ?? '';
}

/** The first whole number in a text ("1,868 with a dispensing…" → 1868). */
const firstNumber = (text: string | null) => Number(/[\d,]+/.exec(text ?? '')?.[0]?.replaceAll(',', ''));

test.describe('One period on every page', () => {
  // Four data pages in a row on a 2-core machine, one of them the journey (about 12 s with the server busy).
  test.slow();

  test('every page states the same period, ending on the last day of data, and the same patient count', async ({ page, signIn }) => {
    await signIn('admin');
    const stated: string[] = [];
    for (const path of Object.values(pages)) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      stated.push(await statedPeriod(page));
    }
    expect(new Set(stated).size, stated.join(' | ')).toBe(1);
    const [, , end, asOf] = PERIOD_TEXT.exec(stated[0]!)!;
    // The period ends on the last day of data (never after it), and that day is not in the future.
    expect(end).toBe(asOf);
    expect(new Date(`${asOf} UTC`).getTime()).toBeLessThanOrEqual(Date.now());

    // The patients with a dispensing in the period: the same number on the home page, data sources and the journey.
    await page.goto(pages.home);
    const monitored = firstNumber(await page.getByTestId('patients-monitored').textContent());
    await expect(page.getByTestId('cohort-counts')).toContainText(/with a dispensing in the period of [\d,]+ patients/);
    await page.goto(pages.dataSources);
    const sources = page.getByTestId('cohort-counts');
    await expect(sources).toContainText(/with a dispensing in the period of [\d,]+ patients/);
    expect(firstNumber(await sources.textContent())).toBe(monitored);
    await page.goto(pages.journey);
    expect(firstNumber(await page.getByTestId('journey-cohort-count').textContent())).toBe(monitored);
    expect(monitored).toBeGreaterThan(0);
  });

  test('“last 3 months” chosen on one page carries to the others', async ({ page, signIn }) => {
    await signIn('clinician');
    await page.goto(pages.journey);
    const twelve = await statedPeriod(page);
    await chooseInSelect(page, 'Reporting period', 'Last 3 months');
    await page.getByRole('button', { name: 'Apply period' }).click();
    await expect(page).toHaveURL(/[?&]period=last-3-months/);
    const three = await statedPeriod(page);
    expect(three).not.toBe(twelve);
    // Same last day of data, shorter period.
    expect(PERIOD_TEXT.exec(three)![3]).toBe(PERIOD_TEXT.exec(twelve)![3]);
    await expect(page.getByTestId('reporting-period').locator('..')).toContainText(/\((8\d|9[0-2]) days\)/);

    const nav = page.getByRole('navigation', { name: 'The same period on other pages' });
    await nav.getByRole('link', { name: 'Data sources' }).click();
    await expect(page).toHaveURL(/data-sources\?period=last-3-months$/);
    expect(await statedPeriod(page)).toBe(three);
    await page.getByRole('navigation', { name: 'The same period on other pages' }).getByRole('link', { name: 'Patient profile' }).click();
    await expect(page).toHaveURL(/patient-profile\?period=last-3-months$/);
    expect(await statedPeriod(page)).toBe(three);
    // Choosing another patient keeps the period.
    await choosePatient(page);
    await expect(page).toHaveURL(/period=last-3-months.*patient=|patient=.*period=last-3-months/);
    expect(await statedPeriod(page)).toBe(three);
    await page.getByRole('navigation', { name: 'The same period on other pages' }).getByRole('link', { name: 'Home' }).click();
    await expect(page).toHaveURL(/\/\?period=last-3-months$/);
    expect(await statedPeriod(page)).toBe(three);
  });

  test('a malformed period in the address is named and the default shown', async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto(pages.journey);
    const twelve = await statedPeriod(page);
    const response = await page.goto(`${pages.journey}?period=custom&from=2025-02-30&to=soon`);
    expect(response?.status()).toBe(200);
    const alert = page.getByRole('alert').filter({ hasText: 'The period in the address is not valid' });
    await expect(alert).toContainText('from: give a date as YYYY-MM-DD');
    await expect(alert).toContainText('to: give a date as YYYY-MM-DD');
    expect(await statedPeriod(page)).toBe(twelve);
  });

  test('the journey’s last month is not empty for the demo data, and the profile shows doses beside refills', async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto(pages.journey);
    const table = page.getByRole('table', { name: 'Monthly PDC distribution' });
    const last = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Month 12', exact: true }) });
    const cells = last.getByRole('cell');
    // Patients followed for the whole of month 12, with quartiles shown, some of them still covered.
    expect(firstNumber(await cells.nth(0).textContent())).toBeGreaterThan(0);
    await expect(cells.nth(2)).toHaveText(/^\d\.\d\d$/);
    expect(Number(await cells.nth(3).textContent())).toBeGreaterThan(0);

    await page.goto(pages.profile);
    await expect(page.getByTestId('doses-and-refills')).toHaveText(
      /(Confirmed \d+ of \d+ reported doses|No doses were reported).*refill|no refills/,
    );
    await expect(
      page.getByRole('columnheader', { name: 'Text as sent' }).or(page.getByText('No messages were sent')).first(),
    ).toBeVisible();
  });
});
