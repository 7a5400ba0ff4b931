import { expect, type Locator } from '@playwright/test';

/**
 * A chart is drawn when it comes near the screen (src/lib/components/echart.tsx), so it is scrolled to first,
 * as a reader would, and then must show its SVG.
 */
export async function expectChartDrawn(chart: Locator): Promise<void> {
  await chart.scrollIntoViewIfNeeded();
  // The chart library is a separate script fetched and run only then: on a loaded 2-core machine that took over the
  // default 10 s once (a trial chart at 390 px, load average 11), so it gets the time a slow page would.
  await expect(chart.locator('svg').first()).toBeVisible({ timeout: 30_000 });
}
