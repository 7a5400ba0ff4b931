import { expect, seriousAccessibilityViolations, test } from './fixtures';
import { choosePatient, patientPicker } from './patient-picker';
import { expectChartDrawn } from './support/charts';

const profilePath = '/algorithms/patient-engagement/patient-profile';
const journeyPath = '/algorithms/patient-engagement/compliance-journey';

test.describe('Patient Profile', () => {
  // axe's whole-page check of these table- and chart-heavy pages takes about 12 s by itself on a 2-core machine
  // (measured on the journey: 2,200 elements, 770 table cells); with two workers and the server busy, 30 s is too tight.
  test.slow();

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
    const picker = patientPicker(page);
    await expect(picker).toBeVisible();
    // The server's HTML carries every choice's address (the pages bench reads patient ids from it).
    const html = await (await page.request.get(profilePath)).text();
    expect(new Set([...html.matchAll(/patient-profile\?patient=([0-9a-f-]{36})/g)].map((match) => match[1])).size).toBeGreaterThan(1);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    // Switching patients happens in the page: a marker left on the window survives it (a full reload would drop it).
    await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));
    const first = await choosePatient(page);
    await expect(page.getByRole('heading', { name: 'Proportion of days covered' })).toBeVisible();
    // With the keyboard alone: clear the search, arrow to a patient other than the one shown, Enter.
    await picker.fill('');
    await picker.press('ArrowDown');
    const focused = page.locator('[role="option"][data-focused="true"]');
    if ((await focused.getAttribute('data-patient-id')) === first) await picker.press('ArrowDown');
    const second = await focused.getAttribute('data-patient-id');
    expect(second).not.toBe(first);
    await picker.press('Enter');
    await expect(page).toHaveURL(new RegExp(`[?&]patient=${second}(&|$)`));
    await expect(picker).toHaveValue(/\S/);
    expect(await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test('a clinician asking for a patient outside their organisations, or for a malformed one, gets the list and why', async ({
    page,
    signIn,
  }) => {
    await signIn('clinician');
    for (const query of ['?patient=00000000-0000-4000-8000-000000000000', '?patient=a&patient=b', `?patient=${'x'.repeat(80)}`]) {
      const response = await page.goto(profilePath + query);
      expect(response?.status()).toBe(200);
      await expect(page.getByText('That patient is not one of your organisations’ patients. Choose one from the list.')).toBeVisible();
      await expect(page.getByRole('combobox', { name: 'Patient of your organisation' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Proportion of days covered' })).toHaveCount(0);
    }
  });

  test('a government official sees a de-identified example, its calendar usable with the keyboard', async ({ page, signIn }) => {
    await signIn('government');
    await page.goto(profilePath);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Patient Profile');
    const example = page.getByText('a de-identified example patient');
    await expect(example.or(page.getByText('There is no example patient yet')).first()).toBeVisible();
    if (await example.isVisible()) {
      await expect(page.getByTestId('synthetic-label')).toHaveText('synthetic demo data');
      // One dose calendar (the keyboard grid), its days counted in words; the CMA trend is drawn (SVG) and named.
      await expect(page.getByTestId('calendar-counts')).toContainText(/^\d+ days? with every dose taken, \d+ with a dose skipped/);
      await expect(page.getByRole('img', { name: /^Calendar heatmap/ })).toHaveCount(0);
      await expectChartDrawn(page.getByRole('img', { name: /^Line chart of CMA7 and CMA9/ }));
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
      // Page Up: the same day of the month before.
      const before = /^(\d{1,2}) ([A-Z][a-z]+) (\d{4})/.exec((await previous.getAttribute('aria-label')) ?? '')!;
      await page.keyboard.press('PageUp');
      const monthEarlier = new Date(`${before[1]} ${before[2]} ${before[3]} UTC`);
      monthEarlier.setUTCMonth(monthEarlier.getUTCMonth() - 1);
      const expected = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
        monthEarlier,
      );
      await expect(grid.locator('[role="gridcell"][tabindex="0"]')).toHaveAttribute('aria-label', new RegExp(`^${expected}:`));
      await expect(grid.locator('[role="gridcell"][tabindex="0"]')).toBeFocused();
    }
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});

test.describe('12-Month Compliance Journey', () => {
  // axe's whole-page check of these table- and chart-heavy pages takes about 12 s by itself on a 2-core machine
  // (measured on the journey: 2,200 elements, 770 table cells); with two workers and the server busy, 30 s is too tight.
  test.slow();

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
        expect(
          shown === '<11' || shown === 'suppressed' || shown === '0' || Number(shown.replaceAll(',', '')) >= 11,
          `count "${shown}"`,
        ).toBe(true);
      }
      await expect(page.getByRole('heading', { name: 'Individual trajectories' })).toHaveCount(0);
      await expect(page.getByRole('heading', { name: 'Persistence (Kaplan–Meier)' })).toBeVisible();
      // Every chart is an ECharts SVG named as an image, with a table of the same figures.
      await expectChartDrawn(page.getByRole('img', { name: /^Box chart of monthly PDC/ }));
      await expectChartDrawn(page.getByRole('img', { name: /^Persistence, all patients and by persona: step lines/ }));
      await expectChartDrawn(page.getByRole('img', { name: /^Line chart of the median monthly PDC by persona/ }));
      await expect(page.getByRole('table', { name: 'Monthly PDC by persona' })).toBeVisible();
    }
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test('a government official narrows the page to one persona with the keyboard, still suppressed', async ({ page, signIn }) => {
    await signIn('government');
    await page.goto(journeyPath);
    const persona = page.getByRole('button', { name: /Persona/ });
    await persona.focus();
    await page.keyboard.press('Enter');
    const option = page.getByRole('option', { name: 'Busy professional' });
    await expect(option).toBeVisible();
    await page.keyboard.type('Busy');
    await expect(option).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(persona).toContainText('Busy professional');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(/[?&]persona=busy-professional/);
    await expect(page.getByText(/with the persona “Busy professional”/)).toBeVisible();
    await expect(page.getByText(/the PDC bands and the breakdown by product are not shown to your role/)).toBeVisible();
    await expect(page.getByRole('table', { name: 'Persistence by product (the medicine of the first fill)' })).toHaveCount(0);
    for (const count of await page.getByTestId('patient-count').allTextContents()) {
      const shown = count.trim();
      expect(
        shown === '<11' || shown === 'suppressed' || shown === '0' || Number(shown.replaceAll(',', '')) >= 11,
        `count "${shown}"`,
      ).toBe(true);
    }
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test('a malformed or unknown filter in the address is named, not a crash', async ({ page, signIn }) => {
    await signIn('admin');
    const malformed = await page.goto(`${journeyPath}?persona=%3Cscript%3E`);
    expect(malformed?.status()).toBe(200);
    await expect(page.getByTestId('filter-error')).toContainText('persona may hold only letters, digits');
    await page.goto(`${journeyPath}?persona=nobody`);
    await expect(page.getByTestId('filter-error')).toHaveText(/^persona: “nobody” is not a persona of this cohort/);
    await expect(page.getByRole('heading', { name: 'Monthly proportion of days covered' })).toHaveCount(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test('a manufacturer sees only the products of their companies', async ({ page, signIn }) => {
    // The demo manufacturer belongs to Northwind Pharma and Halcyon Therapeutics, both selected (no spec changes them).
    const ownProducts = ['Amlonor', 'Lisinor', 'Atorwind', 'Glucohal', 'Sitahal', 'Empahal'];
    const otherProducts = ['Rosumer', 'Ramimer', 'Apixamer', 'Rivamer', 'Tiosol', 'Salflusol', 'Losasol', 'Simsol'];
    await signIn('manufacturer');
    await page.goto(journeyPath);
    await expect(page.getByText(/patients dispensed products of Halcyon Therapeutics and Northwind Pharma /)).toBeVisible();
    const byProduct = page.getByRole('table', { name: 'Persistence by product (the medicine of the first fill)' });
    await expect(byProduct).toBeVisible();
    const listed = (await byProduct.getByRole('rowheader').allTextContents()).map((name) => name.trim());
    expect(listed.length).toBeGreaterThan(0);
    for (const name of listed) expect(ownProducts).toContain(name);
    const product = page.getByRole('button', { name: /Product \(first fill\)/ });
    await product.click();
    await expect(page.getByRole('option', { name: 'All products' })).toBeVisible();
    // The options of the product list (not those of the period's native select).
    const offered = (await page.getByRole('listbox').getByRole('option').allTextContents())
      .map((name) => name.trim())
      .filter((name) => name !== 'All products');
    expect(offered.length).toBeGreaterThan(0);
    for (const name of offered) expect(ownProducts).toContain(name);
    await page.keyboard.press('Escape');
    for (const name of otherProducts) await expect(page.getByText(name)).toHaveCount(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // Another company's product in the address is refused like one that does not exist.
    await page.goto(`${journeyPath}?product=meridian-rosuvastatin-10mg`);
    await expect(page.getByTestId('filter-error')).toHaveText(
      /^product: “meridian-rosuvastatin-10mg” is not one of the products you can view/,
    );
    for (const name of otherProducts) await expect(page.getByText(name)).toHaveCount(0);
  });

  test('a clinician narrows the page to one product and keeps the trajectories', async ({ page, signIn }) => {
    await signIn('clinician');
    await page.goto(journeyPath);
    const product = page.getByRole('button', { name: /Product \(first fill\)/ });
    await product.click();
    const first = page.getByRole('listbox').getByRole('option').nth(1);
    const name = (await first.textContent())?.trim() ?? '';
    await first.click();
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(/[?&]product=/);
    await expect(page.getByText(`whose first fill was ${name}`)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Individual trajectories' })).toBeVisible();
    await page.getByRole('link', { name: 'Whole cohort' }).click();
    await expect(page).toHaveURL(journeyPath);
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
