import type { Page } from '@playwright/test';
import { expect, seriousAccessibilityViolations, test } from './fixtures';

const flowPath = '/algorithms/patient-engagement/personalised-message-flow';
const steps = ['Patient data', 'Context', 'Posterior', 'Probabilities', 'Choice', 'Message', 'Reply', 'Reward', 'Update'];
/** A count as the page shows it: a number, or "<11" for a small group a viewer may not see. */
const shownCount = /^(\d[\d,]*|<11)$/;

/** The page's period and population, its diagram and the table of the same counts; returns the table's counts. */
async function expectFlowPage(page: Page, population: RegExp): Promise<string[]> {
  const response = await page.goto(flowPath);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle('Personalised Message Flow');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Personalised Message Flow');
  await expect(page.getByTestId('flow-population')).toContainText(/Period: the 28 days to /);
  await expect(page.getByTestId('flow-population')).toContainText(population);

  // The diagram: one node per step, drawn by React Flow in the browser.
  const diagram = page.getByTestId('message-flow-diagram');
  for (const step of steps) await expect(diagram.locator('.react-flow__node', { hasText: step }).first()).toBeVisible();
  await expect(diagram.locator('.react-flow__edge')).toHaveCount(9);

  // The text alternative: every edge a row with its count.
  const table = page.getByTestId('flow-table');
  await expect(table.locator('tbody tr')).toHaveCount(9);
  const counts = (await table.locator('tbody tr td:last-child').allTextContents()).map((text) => text.trim());
  for (const count of counts) expect(count).toMatch(shownCount);
  return counts;
}

test.describe('Personalised Message Flow', () => {
  test('a clinician sees the live pipeline of their organisation, works it with the keyboard, and it passes axe', async ({
    page,
    signIn,
  }) => {
    test.setTimeout(90_000);
    await signIn('clinician');
    const counts = await expectFlowPage(page, /the patients of your organisations in the personalised programme — \d[\d,]* enrolled now/);
    // A care team sees its own patients' counts unsuppressed, and — once any decision exists — the latest one traced;
    // with none (the demo data hold no live personalised decision), the page says so instead of inventing one.
    for (const count of counts) expect(count).toMatch(/^\d[\d,]*$/);
    if (counts[1] === '0') {
      expect(counts.slice(0, 8)).toEqual(['0', '0', '0', '0', '0', '0', '0', '0']);
      await expect(page.getByTestId('no-live-decision')).toContainText('No live decision of the personalised policy exists yet');
      await expect(page.getByTestId('traced-decision')).toHaveCount(0);
    } else {
      const traced = page.getByTestId('traced-decision');
      await expect(traced).toContainText(/decided .* by policy version \S+\./);
      await expect(traced.getByRole('table', { name: /Probability of every action/ })).toBeVisible();
    }

    // Keyboard: Tab reaches the diagram's nodes, each announcing its step.
    const firstNode = page.getByTestId('message-flow-diagram').locator('.react-flow__node').first();
    await firstNode.focus();
    await expect(firstNode).toBeFocused();
    await expect(firstNode).toHaveAttribute('aria-label', /^Patient data: \d[\d,]* enrolled$/);
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('message-flow-diagram').locator('.react-flow__node').nth(1)).toBeFocused();
    // The edges follow the nodes, each labelled with its count and period.
    const firstEdge = page.getByTestId('message-flow-diagram').locator('.react-flow__edge').first();
    await expect(firstEdge).toHaveAttribute('aria-label', /^Patient data to Context: \d[\d,]* patients decided for, the 28 days to /);
    // The table of counts is a focusable region too (it may scroll sideways).
    const region = page.getByRole('region', { name: 'Counts on each edge' });
    await region.focus();
    await expect(region).toBeFocused();

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test('a government official sees all patients’ counts through suppression and no individual', async ({ page, signIn }) => {
    test.setTimeout(90_000);
    await signIn('government');
    await expectFlowPage(page, /all patients in the personalised programme — (\d[\d,]*|<11) enrolled now/);
    await expect(page.getByTestId('suppression-note')).toContainText('such a count reads “<11”');
    // An official never sees a real patient's day: a traced decision, if any, is a synthetic patient's.
    const traced = page.getByTestId('traced-decision');
    if ((await traced.count()) > 0) await expect(traced.getByTestId('synthetic-label')).toHaveText('synthetic demo data');
    else await expect(page.getByTestId('no-live-decision').or(page.getByTestId('trace-not-shown'))).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});

// A phone and a portrait tablet: the row layout cut steps off at both widths.
for (const viewport of [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
]) {
  test.describe(`Personalised Message Flow ${viewport.width} px wide`, () => {
    test.use({ viewport });

    test('the diagram turns into two columns, with every step wholly inside it', async ({ page, signIn }) => {
      test.setTimeout(90_000);
      await signIn('clinician');
      await expectFlowPage(page, /the patients of your organisations in the personalised programme/);
      const diagram = page.getByTestId('message-flow-diagram');
      await expect(diagram).toHaveAttribute('data-orientation', 'columns');
      // Fitted to the view: in the row layout only the middle steps were inside it at this width.
      await expect
        .poll(async () => {
          const frame = await diagram.boundingBox();
          const nodes = await diagram
            .locator('.react-flow__node')
            .evaluateAll((elements) =>
              elements.map(
                (element) => element.getBoundingClientRect().toJSON() as { left: number; right: number; top: number; bottom: number },
              ),
            );
          if (frame === null || nodes.length !== steps.length) return `${nodes.length} nodes`;
          return nodes.every(
            (node) =>
              node.left >= frame.x && node.right <= frame.x + frame.width && node.top >= frame.y && node.bottom <= frame.y + frame.height,
          )
            ? 'all inside'
            : 'some outside';
        })
        .toBe('all inside');
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    });
  });
}
