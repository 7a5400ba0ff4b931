import type { Page } from '@playwright/test';
import { expect, seriousAccessibilityViolations, test } from './fixtures';
import { expectChartDrawn } from './support/charts';

const base = '/algorithms/patient-engagement';
/** The default lab run simulates its cohort three times (about a minute alone; longer beside the other specs). */
const runTimeout = 6 * 60_000;

async function openWhenRun(page: Page, path: string, title: string, figures: string) {
  const response = await page.goto(`${base}/${path}`);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(title);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  // The first visit starts the default run and shows its progress; the page fetches the figures when it ends.
  await expect(page.getByTestId(figures)).toBeVisible({ timeout: runTimeout });
  await expect(page.getByTestId('synthetic-label').first()).toHaveText('synthetic · simulated');
  await expect(page.getByTestId('lab-cohort').first()).toContainText(
    /\d[\d,]* simulated patients over 52 weeks \(1 January 2025 – 30 December 2025\), seed 1,/,
  );
}

for (const role of ['clinician', 'government'] as const) {
  test.describe(`policy lab pages for the ${role === 'government' ? 'government official' : role}`, () => {
    test('learning journey: arm shares per persona and regret against the baselines, labelled simulated', async ({ page, signIn }) => {
      test.setTimeout(runTimeout + 60_000);
      await signIn(role);
      await openWhenRun(page, 'learning-journey', 'Algorithm Learning Journey', 'learning-journey');
      // Six personas, each with a drawn chart that says what it shows.
      await expect(page.getByRole('img', { name: /^Stacked area chart of the share of each week's decisions/ })).toHaveCount(6);
      await expectChartDrawn(page.getByRole('img', { name: /^Stacked area chart/ }).first());
      await expectChartDrawn(page.getByRole('img', { name: /^Line chart of the personalised policy's cumulative regret/ }));
      await expect(page.getByTestId('regret-summary')).toContainText(/uniform random/);
      await expect(page.getByTestId('regret-summary')).toContainText(
        /the fixed daily reminder by [\d.]+ percentage-point-weeks of doses taken \(\d[\d,]* simulated patients\)|level with the fixed daily reminder \(/,
      );
      await expect(page.getByTestId('most-chosen-table').getByRole('rowheader')).toHaveCount(6);
      // The targets are stated with their verdict and figures, met or not.
      await expect(page.getByTestId('policy-targets').getByRole('listitem')).toHaveCount(2);
      await expect(page.getByTestId('policy-targets')).toContainText(/messages per patient per week/);
      await expect(page.getByTestId('policy-targets')).toContainText(/: (met|not met) — \d+ of 6/);
      // The table's region scrolls and is reachable from the keyboard.
      await page.getByRole('region', { name: 'Most chosen arm per persona' }).focus();
      await expect(page.getByRole('region', { name: 'Most chosen arm per persona' })).toBeFocused();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    });

    test('learning visualization: the posterior per persona, explored week by week with the keyboard', async ({ page, signIn }) => {
      test.setTimeout(runTimeout + 60_000);
      await signIn(role);
      await openWhenRun(page, 'learning-visualization', 'Algorithm Learning Visualization', 'learning-visualization');
      const week = page.getByTestId('posterior-week');
      await expect(week).toContainText('Showing the end of week 52');
      const slider = page.getByRole('slider', { name: 'Week of the simulation' });
      await slider.focus();
      await slider.press('Home');
      await expect(week).toContainText('Showing the prior (before any data)');
      await slider.press('ArrowRight');
      await expect(week).toContainText('Showing the end of week 1');
      await expect(page.getByRole('img', { name: /advantage over no message for .+ at the end of week 1/ })).toBeVisible();
      // Personas are tabs: the arrow keys move between them; each shows a table of every arm with its interval.
      const firstTab = page.getByRole('tab').first();
      await firstTab.focus();
      await firstTab.press('ArrowRight');
      const second = page.getByRole('tab').nth(1);
      await expect(second).toHaveAttribute('aria-selected', 'true');
      const panel = page.getByRole('tabpanel');
      await expect(panel.getByRole('table').getByRole('rowheader')).toHaveCount(20);
      await expect(panel.getByRole('table')).toContainText(/-?\d\.\d{3} to -?\d\.\d{3}/);
      await expect(page.getByTestId('live-policy-note')).toContainText(/no stored version yet|The daily loop decides with version \d+/);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    });

    test('adherence optimisation: default settings against the baselines, and field errors from the keyboard', async ({ page, signIn }) => {
      test.setTimeout(runTimeout + 60_000);
      await signIn(role);
      const response = await page.goto(`${base}/adherence-optimization`);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveTitle('Medication Adherence Optimisation System');
      await expect(page.getByTestId('what-if-row-default')).toContainText(/\d\.\d{3}/, { timeout: runTimeout });
      await expect(page.getByTestId('what-if-row-fixed-daily')).toContainText(/\d+\.\d%/);
      await expect(page.getByRole('table', { name: /Expected adherence and message load over 52 weeks/ })).toBeVisible();

      const form = page.getByRole('form', { name: 'Policy settings' });
      const cap = form.getByLabel('Messages per week cap', { exact: true });
      await cap.focus();
      await cap.fill('2.5');
      await page.keyboard.press('Tab');
      await expect(form.getByLabel('Exploration floor (%)', { exact: true })).toBeFocused();
      await page.keyboard.type('90');
      await form.getByLabel('Quiet hours start', { exact: true }).fill('25:00');
      await form.getByLabel('Quiet hours start', { exact: true }).press('Enter');
      await expect(form.getByText('Messages per week cap must be a whole number from 0 to 14.')).toBeVisible();
      await expect(form.getByText(/^Exploration floor must be a percentage from 0 to 50/)).toBeVisible();
      await expect(form.getByText(/^Quiet hours start must be a time such as 21:00/)).toBeVisible();
      await expect(cap).toHaveAttribute('aria-invalid', 'true');
      await expect(page).not.toHaveURL(/\?run=/);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    });
  });
}

test('adherence optimisation: a what-if runs in the background with progress and is compared with the default settings', async ({
  page,
  signIn,
}) => {
  // Two runs one after the other on the one simulation worker: the default one and the what-if.
  test.setTimeout(2 * runTimeout + 60_000);
  await signIn('clinician');
  await page.goto(`${base}/adherence-optimization`);
  const form = page.getByRole('form', { name: 'Policy settings' });
  await form.getByLabel('Messages per week cap', { exact: true }).fill('2');
  await form.getByLabel('Burden weight', { exact: true }).fill('0.05');
  await form.getByLabel('Quiet hours start', { exact: true }).fill('');
  await form.getByLabel('Quiet hours end', { exact: true }).fill('');
  // Submitted from the keyboard.
  await form.getByLabel('Burden weight', { exact: true }).press('Enter');
  await expect(page).toHaveURL(/\?run=[0-9a-f-]{36}$/);
  await expect(page.getByTestId('what-if-settings')).toContainText('at most 2 messages a week, no quiet hours');
  await expect(page.getByTestId('what-if-row-settings')).toContainText(/\d\.\d{3}/, { timeout: 2 * runTimeout });
  await expect(page.getByTestId('what-if-difference')).toContainText(/percentage points/);
  await expect(form.getByLabel('Messages per week cap', { exact: true })).toHaveValue('2');
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});
