import type { Page } from '@playwright/test';
import { expect, seriousAccessibilityViolations, test } from './fixtures';

// Issue 19 item 1: each role signs in and lands at / on its own home with real figures (axe clean); the
// patient's home has its own spec (patient-home.spec.ts).

/** The first whole number in a text ("1,868 with a dispensing…" → 1868). */
const firstNumber = (text: string | null) => Number(/[\d,]+/.exec(text ?? '')?.[0]?.replaceAll(',', ''));

async function expectHome(page: Page, testId: string, role: string) {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  const home = page.getByTestId(testId);
  await expect(home).toBeVisible();
  await expect(home.getByRole('heading', { level: 1 })).toHaveText(/^Welcome, .+/);
  await expect(home).toContainText(role);
  // The visitor's page and its "Sign in" are gone for a signed-in user.
  await expect(page.getByRole('main').getByRole('link', { name: 'Sign in' })).toHaveCount(0);
  return home;
}

async function expectCohortFigures(page: Page) {
  const monitored = firstNumber(await page.getByTestId('patients-monitored').textContent());
  expect(monitored).toBeGreaterThan(10);
  await expect(page.getByTestId('share-adherent')).toHaveText(/^\d{1,3}%$/);
  await expect(page.getByTestId('cohort-counts')).toContainText(/with a dispensing in the period of [\d,]+ patients/);
  await expect(page.getByTestId('reporting-period')).toBeVisible();
}

test('a clinician lands on their organisation at a glance, with who lapsed this week', async ({ page, signIn }) => {
  await signIn('clinician');
  const home = await expectHome(page, 'clinician-home', 'Clinician');
  await expectCohortFigures(page);
  const lapsed = page.getByTestId('lapsed-this-week');
  await expect(lapsed).toContainText(/ran out between .+ and .+ \(the last 7 days of the period\)/);
  // Either a table of patients, each linking to their profile, or a sentence saying nobody lapsed.
  const rows = lapsed.locator('tbody tr');
  if ((await rows.count()) > 0) {
    await expect(rows.first().getByRole('link')).toHaveAttribute('href', /patient-profile\?patient=/);
  } else {
    await expect(lapsed).toContainText('Nobody lapsed in these 7 days.');
  }
  const next = home.getByRole('navigation', { name: 'Where to go next' });
  await expect(next.getByRole('link', { name: 'Compliance journey' })).toBeVisible();
  await expect(next.getByRole('link', { name: 'Risk worklist' })).toHaveAttribute('href', '/worklist');
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test('a manufacturer lands on their companies’ figures and the way into the portal', async ({ page, signIn, createAccount }) => {
  test.setTimeout(60_000);
  await signIn(await createAccount({ role: 'drug-manufacturer', companies: ['Northwind Pharma'] }));
  const home = await expectHome(page, 'manufacturer-home', 'Drug manufacturer');
  await expect(home).toContainText('Showing Northwind Pharma.');
  await expectCohortFigures(page);
  await expect(page.getByTestId('cohort-counts')).toContainText('dispensed Northwind Pharma products');
  await home.getByRole('link', { name: 'Open the portal' }).click();
  await expect(page).toHaveURL('/app/manufacturing');
  await page.goBack();
  await expect(page.getByTestId('manufacturer-home')).toBeVisible();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test('a government official lands on the national picture and the way into the impact model', async ({ page, signIn }) => {
  await signIn('government');
  const home = await expectHome(page, 'government-home', 'Government official');
  await expectCohortFigures(page);
  await expect(home.getByRole('link', { name: 'National healthcare impact' })).toHaveAttribute(
    'href',
    '/algorithms/patient-engagement/national-healthcare-impact',
  );
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test('an administrator lands on pending work with links to administration and data sources', async ({ page, signIn }) => {
  await signIn('admin');
  const home = await expectHome(page, 'admin-home', 'Administrator');
  await expect(page.getByTestId('imports-waiting')).toHaveText(/^\d[\d,]*$/);
  await expect(page.getByTestId('imports-running')).toHaveText(/^\d[\d,]*$/);
  await expect(page.getByTestId('failed-jobs')).toContainText(/No job failed in the last 7 days\.|failed after their retries/);
  // The demo accounts are among those counted by role: at least one administrator (this one).
  await expect(page.getByTestId('accounts')).toContainText('Administrator');
  await expectCohortFigures(page);
  await home.getByRole('link', { name: 'Administration: roles and companies' }).click();
  await expect(page).toHaveURL('/admin');
  await page.goBack();
  await expect(home.getByRole('link', { name: 'Data sources and imports' })).toHaveAttribute(
    'href',
    '/algorithms/patient-engagement/data-sources',
  );
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});
