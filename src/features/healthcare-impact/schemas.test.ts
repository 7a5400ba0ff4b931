import { describe, expect, it } from 'vitest';
import { parsePlatformAdherenceQuery, type PlatformAdherence, platformAdherenceQuery } from './schemas';

const adherence: PlatformAdherence = {
  share: 0.62346,
  patients: 1234,
  period: { from: '2025-01-01', to: '2025-12-31', dataTo: '2026-01-05' },
  population: 'platform patients with a fill in the period of any product (every company; all regions)',
};

/** The query as a page receives it, from the query the portal builds. */
const paramsOf = (query: Record<string, string>) => Object.fromEntries(new URLSearchParams(new URLSearchParams(query).toString()));

describe('parsePlatformAdherenceQuery', () => {
  it('reads back what the portal link carries (the share to four places)', () => {
    expect(parsePlatformAdherenceQuery(paramsOf(platformAdherenceQuery(adherence)))).toEqual({
      kind: 'valid',
      adherence: { ...adherence, share: 0.6235 },
    });
  });

  it('takes the patient count as optional', () => {
    const parsed = parsePlatformAdherenceQuery(paramsOf(platformAdherenceQuery({ ...adherence, patients: null })));
    expect(parsed).toMatchObject({ kind: 'valid', adherence: { patients: null } });
  });

  it('is nothing when the address carries none of it', () => {
    expect(parsePlatformAdherenceQuery({})).toEqual({ kind: 'none' });
    expect(parsePlatformAdherenceQuery({ country: 'india' })).toEqual({ kind: 'none' });
  });

  it.each([
    ['a share above 1', { measuredAdherence: '1.2' }, 'the measured adherence must be a share from 0 to 1'],
    ['a percentage', { measuredAdherence: '62' }, 'the measured adherence must be a share from 0 to 1'],
    ['not a number', { measuredAdherence: 'NaN' }, 'the measured adherence must be a share from 0 to 1'],
    ['a share given twice', { measuredAdherence: ['0.5', '0.6'] }, 'the measured adherence must be given once'],
    ['a count under 11', { measuredPatients: '7' }, 'a share is shown only over at least 11 patients'],
    ['an impossible date', { measuredFrom: '2025-02-30' }, 'the period’s first day must be a date written YYYY-MM-DD'],
    ['a period ending before it starts', { measuredFrom: '2026-01-01' }, 'the period must not end before it starts'],
    ['a period past its data', { measuredDataTo: '2025-06-30' }, 'the period must not end after the last day of data'],
    ['an overlong population', { measuredPopulation: 'x'.repeat(301) }, 'the population must be at most 300 characters'],
    ['a blank population', { measuredPopulation: '  ' }, 'the population must be described'],
  ])('ignores %s, saying why', (_, change, reason) => {
    const parsed = parsePlatformAdherenceQuery({ ...paramsOf(platformAdherenceQuery(adherence)), ...change });
    expect(parsed.kind).toBe('invalid');
    if (parsed.kind !== 'invalid') return;
    expect(parsed.problem).toContain('The measured adherence in this page’s address was ignored:');
    expect(parsed.problem).toContain(reason);
  });

  it('ignores a share without its period and population', () => {
    const parsed = parsePlatformAdherenceQuery({ measuredAdherence: '0.62' });
    expect(parsed.kind).toBe('invalid');
    if (parsed.kind === 'invalid') expect(parsed.problem).toContain('the period’s first day must be a date written YYYY-MM-DD');
  });
});
