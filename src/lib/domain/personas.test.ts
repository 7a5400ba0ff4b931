import { describe, expect, it } from 'vitest';
import { personas } from '@/engine/simulation/personas';
import { personaLabel } from './personas';

describe('personaLabel', () => {
  it('words every simulator persona with a capital first letter, and patients without one as "Not assigned"', () => {
    expect(personaLabel('busy-professional')).toBe('Busy professional');
    expect(personaLabel('forgetful_older-adult')).toBe('Forgetful older adult');
    expect(personaLabel('not-assigned')).toBe('Not assigned');
    for (const persona of personas) expect(personaLabel(persona)).toMatch(/^[A-Z][a-z]*( [a-z]+)*$/);
  });
});
