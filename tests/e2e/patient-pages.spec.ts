import { expect, seriousAccessibilityViolations, test } from './fixtures';

const profilePath = '/algorithms/patient-engagement/patient-profile';
const journeyPath = '/algorithms/patient-engagement/compliance-journey';

test.describe('Patient Profile', () => {
  test('a patient sees their own record (the demo account is linked to one)', async ({ page, signIn }) => {
    await signIn('patient');
    const response = await page.goto(profilePath);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('Patient Profile');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Patient Profile');
    await expect(page.getByText(/your own record/)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Proportion of days covered' })).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test('a clinician chooses among the patients of their organisations', async ({ page, signIn }) => {
    await signIn('clinician');
    await page.goto(profilePath);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Patient Profile');
    // The demo clinician works at the demo clinic (200 synthetic patients).
    const picker = page.getByRole('combobox', { name: 'Patient of your organisation' });
    await expect(picker).toBeVisible();
    await page.getByRole('button', { name: 'Show patient' }).click();
    await expect(page).toHaveURL(/\?patient=/);
    await expect(page.getByRole('heading', { name: 'Proportion of days covered' })).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test('a government official sees a de-identified example, its calendar usable with the keyboard', async ({ page, signIn }) => {
    await signIn('government');
    await page.goto(profilePath);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Patient Profile');
    const example = page.getByText('a de-identified example patient');
    await expect(example.or(page.getByText('There is no example patient yet')).first()).toBeVisible();
    if (await example.isVisible()) {
      await expect(page.getByTestId('synthetic-label')).toHaveText('synthetic demo data');
      await expect(page.getByTestId('pdc-summary')).toHaveText(/^PDC \d\.\d\d: \d+ of \d+ days covered$/);
      const grid = page.getByRole('grid', { name: /^Doses from/ });
      const last = grid.locator('[role="gridcell"][tabindex="0"]');
      await last.focus();
      const lastName = await last.getAttribute('aria-label');
      expect(lastName).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4}: (taken|missed|skipped|no dose recorded)/);
      await page.keyboard.press('ArrowUp');
      const previous = grid.locator('[role="gridcell"][tabindex="0"]');
      await expect(previous).toBeFocused();
      expect(await previous.getAttribute('aria-label')).not.toBe(lastName);
    }
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});

test.describe('12-Month Compliance Journey', () => {
  test('a government official sees no group of fewer than 11 patients', async ({ page, signIn }) => {
    await signIn('government');
    const response = await page.goto(journeyPath);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('12-Month Compliance Journey');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('12-Month Compliance Journey');
    const empty = page.getByText(/there is no journey to show yet/);
    const note = page.getByTestId('suppression-note');
    await expect(note.or(empty).first()).toBeVisible();
    if (await note.isVisible()) {
      const counts = await page.getByTestId('patient-count').allTextContents();
      expect(counts.length).toBeGreaterThan(0);
      for (const count of counts) {
        const shown = count.trim();
        expect(shown === '<11' || shown === 'suppressed' || shown === '0' || Number(shown) >= 11, `count "${shown}"`).toBe(true);
      }
      await expect(page.getByRole('heading', { name: 'Individual trajectories' })).toHaveCount(0);
      await expect(page.getByRole('heading', { name: 'Persistence (Kaplan–Meier)' })).toBeVisible();
    }
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  for (const role of ['patient', 'clinician'] as const) {
    test(`a ${role} opens it`, async ({ page, signIn }) => {
      await signIn(role);
      const response = await page.goto(journeyPath);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('12-Month Compliance Journey');
      // Individual trajectories are for clinicians and admins only.
      if (role === 'patient') await expect(page.getByRole('heading', { name: 'Individual trajectories' })).toHaveCount(0);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    });
  }
});
