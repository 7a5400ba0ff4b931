import { describe, expect, it } from 'vitest';
import { defaultImprovementSource } from './improvement-source';

describe('defaultImprovementSource', () => {
  it('prefers a trial (measured on patients), then the simulated comparison, else the user’s own value', () => {
    expect(defaultImprovementSource({ trial: {}, comparison: {} })).toBe('trial');
    expect(defaultImprovementSource({ trial: {}, comparison: null })).toBe('trial');
    expect(defaultImprovementSource({ trial: null, comparison: {} })).toBe('comparison');
    expect(defaultImprovementSource({ trial: null, comparison: null })).toBe('own');
  });
});
