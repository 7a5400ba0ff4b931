import { describe, expect, it } from 'vitest';
import { roles } from '@/db/schema';
import { MINIMUM_GROUP_SIZE, seesSuppressedAggregates } from './suppression';

describe('suppression rule', () => {
  it('suppresses every role but care teams and admins, and visitors who are not signed in', () => {
    expect(Object.fromEntries(roles.map((role) => [role, seesSuppressedAggregates(role)]))).toEqual({
      patient: true,
      clinician: false,
      'drug-manufacturer': true,
      'government-official': true,
      admin: false,
    });
    expect(seesSuppressedAggregates(null)).toBe(true);
  });

  it('never shows a group under 11 (DESIGN §1)', () => {
    expect(MINIMUM_GROUP_SIZE).toBe(11);
  });
});
