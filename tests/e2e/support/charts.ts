import { expect, type Locator } from '@playwright/test';

/**
 * A chart is drawn when it comes near the screen (src/lib/components/echart.tsx), so it is scrolled to first,
 * as a reader would, and then must show its SVG.
 */
export async function expectChartDrawn(chart: Locator): Promise<void> {
  await chart.scrollIntoViewIfNeeded();
  await expect(chart.locator('svg').first()).toBeVisible();
}
