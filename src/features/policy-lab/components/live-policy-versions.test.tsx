import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createPolicyState, summarisePosterior } from '@/engine/policy/personalised';
import type { PolicyStateSummaryDto } from '@/features/policy-learning';
import { LivePolicyVersions } from './live-policy-versions';

const prior: PolicyStateSummaryDto = {
  version: 0,
  source: 'live',
  createdAt: '2026-11-20T03:00:00.000Z',
  decisionsUsed: 0,
  trainedThrough: null,
  posterior: summarisePosterior(createPolicyState()),
};

describe('LivePolicyVersions', () => {
  it('says plainly that no version is stored yet', () => {
    const html = renderToStaticMarkup(<LivePolicyVersions versions={[]} />);
    expect(html).toContain('no stored version yet');
    expect(html).not.toContain('<table');
  });

  it('names the version in use, what it learned from, and the three best arms of every persona', () => {
    const learned: PolicyStateSummaryDto = { ...prior, version: 1, decisionsUsed: 1234, trainedThrough: '2026-11-21T04:00:00.000Z' };
    const html = renderToStaticMarkup(<LivePolicyVersions versions={[prior, learned]} />);
    expect(html).toContain('decides with version 1');
    expect(html).toContain('1,234 rewarded decisions');
    const personaCount = new Set(prior.posterior.map((row) => row.persona)).size;
    // Each table's header row, two version rows, then three arms per persona.
    expect(html.match(/<tr class="border-b/g)?.length).toBe(2 + 2 + 3 * personaCount);
    expect(html).toContain('None (the prior)');
  });
});
