import type { Page } from '@playwright/test';
import { chooseInSelect, expect, seriousAccessibilityViolations, test } from './fixtures';

// The manufacturer and government portal (issue 15 items 1–3): a manufacturer (a created account, member of
// Northwind Pharma only) sees only Northwind's products and a table's CSV matches it; a government official
// sees every company; the demo patient and clinician are refused in words; axe clean.

const portalPath = '/app/manufacturing';

/** A table's rows as [label, first figure] with the figure's thousands separators removed, as the CSV writes it. */
async function firstColumn(page: Page, tableId: string): Promise<string[][]> {
  const rows = page.getByTestId(`table-${tableId}`).locator('tbody tr');
  const result: string[][] = [];
  for (let index = 0; index < (await rows.count()); index += 1) {
    const row = rows.nth(index);
    const label = (await row.locator('th').textContent()) ?? '';
    const first = ((await row.locator('td').first().textContent()) ?? '').replaceAll(',', '');
    result.push([label, first]);
  }
  return result;
}

test('a manufacturer sees only their companies’ products, and the CSV matches the table; axe clean', async ({
  page,
  signIn,
  createAccount,
}) => {
  test.setTimeout(180_000);
  await signIn(await createAccount({ role: 'drug-manufacturer', companies: ['Northwind Pharma'] }));
  const response = await page.goto(portalPath);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Manufacturing Portal');
  await expect(page.getByTestId('portal-companies')).toHaveText('Showing the products of Northwind Pharma.');
  await page.getByRole('button', { name: / Product$/ }).click();
  const productOptions = await page.getByRole('option').allTextContents();
  await page.keyboard.press('Escape');
  expect(productOptions).toContain('Amlonor (Northwind Pharma)');
  expect(productOptions.some((option) => /Halcyon|Meridian|Solace/.test(option))).toBe(false);
  const byProduct = await firstColumn(page, 'by-product');
  expect(byProduct.length).toBeGreaterThan(0);
  for (const [label] of byProduct) expect(label).toContain('(Northwind Pharma)');
  await expect(page.getByTestId('worst-window')).toContainText('Worst window');
  await expect(page.getByRole('heading', { name: 'Reasons for missed doses, from surveys' })).toBeVisible();

  // The CSV of the by-product table: the same rows and the same (suppressed) counts.
  const href = await page.getByTestId('csv-by-product').getAttribute('href');
  expect(href).toMatch(/^\/api\/portal\/export\?/);
  const csv = await page.request.get(href!);
  expect(csv.status()).toBe(200);
  expect(csv.headers()['content-type']).toContain('text/csv');
  const lines = (await csv.text()).trim().split('\r\n').slice(3);
  const fromCsv = lines.map((line) => {
    const match = /^("(?:[^"]|"")*"|[^,]*),([^,]*)/.exec(line)!;
    return [match[1]!.replace(/^"|"$/g, '').replaceAll('""', '"'), match[2]!];
  });
  expect(fromCsv).toEqual(byProduct);

  // A filter carried in the address: one product.
  await chooseInSelect(page, 'Product', 'Amlonor (Northwind Pharma)');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/product=/);
  await expect.poll(async () => (await firstColumn(page, 'by-product')).map(([label]) => label)).toEqual(['Amlonor (Northwind Pharma)']);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test('a government official sees every company; axe clean', async ({ page, signIn, createAccount }) => {
  test.setTimeout(180_000);
  await signIn(await createAccount({ role: 'government-official' }));
  await page.goto(portalPath);
  await expect(page.getByTestId('portal-companies')).toContainText('Northwind Pharma');
  await expect(page.getByTestId('portal-companies')).toContainText('Halcyon Therapeutics');
  const companies = await firstColumn(page, 'by-company');
  expect(companies.map(([label]) => label)).toEqual(expect.arrayContaining(['Northwind Pharma', 'Halcyon Therapeutics']));
  await expect(page.getByTestId('table-by-condition')).toBeVisible();
  // The impact link carries the view's share at PDC ≥ 0.8 (shown: every company's patients are well over 11), with its period.
  const impactLink = page.getByRole('link', { name: 'Model the national healthcare impact' });
  await expect(impactLink).toHaveAttribute(
    'href',
    /^\/algorithms\/patient-engagement\/national-healthcare-impact\?measuredAdherence=(0(\.\d{1,4})?|1)&.*measuredFrom=\d{4}-\d{2}-\d{2}/,
  );
  const impactHref = (await impactLink.getAttribute('href'))!;
  // The demand forecast's CSV: the same months, in order, as its table.
  const forecastRows = page.getByTestId('demand-forecast-months').locator('tbody tr th');
  await expect(forecastRows.first()).toBeVisible();
  const shownMonths = await forecastRows.allTextContents();
  const forecastHref = await page.getByTestId('csv-demand-forecast').getAttribute('href');
  expect(forecastHref).toMatch(/^\/api\/portal\/export\?.*table=demand-forecast/);
  const forecastCsv = await page.request.get(forecastHref!);
  expect(forecastCsv.status()).toBe(200);
  const csvMonths = (await forecastCsv.text())
    .trim()
    .split('\r\n')
    .filter((line) => /^\d{4}-\d{2},/.test(line))
    .map((line) =>
      new Date(`${line.slice(0, 7)}-01T00:00:00Z`).toLocaleDateString('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' }),
    );
  expect(csvMonths).toEqual(shownMonths);
  await expect(page.getByTestId('csv-demand-backtest')).toHaveAttribute('href', /table=demand-backtest/);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  // The impact page shows the linked figure with its period and population.
  await page.goto(impactHref);
  await expect(page.getByTestId('platform-adherence')).toContainText(
    /measured on the platform: \d+% of [\d,]+ patients at PDC ≥ 0\.8, .+ \(data up to .+\), platform patients/,
  );
  await expect(page.getByTestId('platform-adherence-problem')).toHaveCount(0);
});

for (const who of ['patient', 'clinician'] as const) {
  test(`the demo ${who} is refused the portal and its CSV`, async ({ page, signIn }) => {
    await signIn(who);
    await page.goto(portalPath);
    await expect(page.getByTestId('portal-refused')).toContainText('for drug manufacturers, government officials and admins');
    await expect(page.getByTestId('table-monthly')).toHaveCount(0);
    const csv = await page.request.get('/api/portal/export?table=monthly');
    expect(csv.status()).toBe(403);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
}
