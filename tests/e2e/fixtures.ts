import { createHash } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

/**
 * Every test appears to the server as its own client (X-Forwarded-For, believed because the e2e server
 * trusts the loopback proxy), so per-client rate limits never couple two tests.
 */
export const test = base.extend<{ clientAddress: string }>({
  clientAddress: async ({}, use, testInfo) => {
    const digest = createHash('sha256').update(`${testInfo.testId}:${testInfo.repeatEachIndex}:${testInfo.retry}`).digest();
    await use(`10.${digest[0]}.${digest[1]}.${digest[2]}`);
  },
  context: async ({ context, clientAddress }, use) => {
    await context.setExtraHTTPHeaders({ 'X-Forwarded-For': clientAddress });
    await use(context);
  },
});

export { expect };

/** Serious and critical axe-core violations on the page (or the part of it `include` selects). */
export async function seriousAccessibilityViolations(page: Page, include?: string) {
  let builder = new AxeBuilder({ page });
  if (include !== undefined) builder = builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ id: violation.id, help: violation.help, targets: violation.nodes.map((node) => node.target) }));
}
