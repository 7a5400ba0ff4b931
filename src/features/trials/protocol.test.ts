import { describe, expect, it } from 'vitest';
import {
  defaultArms,
  defaultObjective,
  defaultSecondaryEndpoints,
  eligibilityCriteria,
  followUpEndsOn,
  isRecruitmentClosed,
  mergeProtocolFacts,
  participantStatusOf,
  trialStatusOf,
} from './protocol';

describe('trial protocol', () => {
  it('merges a trial row’s protocol texts over the defaults, ignoring fields of the wrong shape and anything unnamed', () => {
    // The shape the demo seed wrote before issue 14: strings for arms, an object for the endpoint, a seed.
    const facts = mergeProtocolFacts({
      objective: 'Does it work?',
      arms: { control: 'Usual care', intervention: { label: 'Personalised', description: '' } },
      primaryEndpoint: { measure: 'PDC' },
      secondaryEndpoints: ['Opt-outs', 3],
      allocation: { ratio: '1:1', method: 'permuted blocks', seed: 1234, blockSize: 4 },
      targetEnrolment: 400,
    });
    expect(facts.objective).toBe('Does it work?');
    expect(facts.arms.control).toEqual(defaultArms.control);
    expect(facts.arms.intervention).toEqual({ label: 'Personalised', description: defaultArms.intervention.description });
    expect(facts.secondaryEndpoints).toEqual(defaultSecondaryEndpoints);
    expect(facts.allocation).toMatchObject({ ratio: '1:1', method: 'permuted blocks' });
    expect(JSON.stringify(facts)).not.toMatch(/1234|seed|blockSize/);
    expect(facts.targetEnrolment).toBe(400);
    expect(mergeProtocolFacts(null)).toMatchObject({ objective: defaultObjective, targetEnrolment: null });
  });

  it('lists system checks before the clinician’s, each id once', () => {
    const ids = eligibilityCriteria.map((criterion) => criterion.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(eligibilityCriteria.map((criterion) => criterion.checkedBy)).toEqual([
      'system',
      'system',
      'system',
      'system',
      'clinician',
      'clinician',
      'clinician',
    ]);
  });

  it('follows a participant for 7 × weeks days from the enrolment day', () => {
    expect(followUpEndsOn('2026-01-01', 12)).toBe('2026-03-25');
    expect(followUpEndsOn('2026-01-01', 1)).toBe('2026-01-07');
    const record = { enrolledOn: '2026-01-01', withdrawnOn: null, lostToFollowUpOn: null, discontinuedOn: null };
    expect(participantStatusOf(record, 12, '2026-03-25')).toBe('in-follow-up');
    expect(participantStatusOf(record, 12, '2026-03-26')).toBe('completed');
    expect(participantStatusOf({ ...record, discontinuedOn: '2026-02-01' }, 12, '2026-02-02')).toBe('discontinued');
    expect(participantStatusOf({ ...record, discontinuedOn: '2026-02-01' }, 12, '2026-04-01')).toBe('completed');
    expect(participantStatusOf({ ...record, withdrawnOn: '2026-02-01' }, 12, '2026-04-01')).toBe('withdrawn');
    expect(participantStatusOf({ ...record, lostToFollowUpOn: '2026-02-01' }, 12, '2026-02-02')).toBe('lost-to-follow-up');
  });

  it('closes recruitment at the target or on the closing date, and completes when nobody is followed any more', () => {
    const base = { targetEnrolment: 10, recruitmentClosedOn: null, today: '2026-05-01' };
    expect(trialStatusOf({ ...base, enrolments: 0, stillFollowed: 0 })).toBe('set-up');
    expect(trialStatusOf({ ...base, enrolments: 9, stillFollowed: 9 })).toBe('recruiting');
    expect(trialStatusOf({ ...base, enrolments: 10, stillFollowed: 4 })).toBe('follow-up');
    expect(trialStatusOf({ ...base, enrolments: 10, stillFollowed: 0 })).toBe('complete');
    expect(trialStatusOf({ ...base, targetEnrolment: null, recruitmentClosedOn: '2026-05-02', enrolments: 3, stillFollowed: 3 })).toBe(
      'recruiting',
    );
    expect(trialStatusOf({ ...base, targetEnrolment: null, recruitmentClosedOn: '2026-05-01', enrolments: 3, stillFollowed: 3 })).toBe(
      'follow-up',
    );
    expect(trialStatusOf({ ...base, targetEnrolment: null, enrolments: 3, stillFollowed: 0 })).toBe('recruiting');
    // Closed before anyone enrolled: still set up (nobody to follow; the plan may still change).
    expect(trialStatusOf({ ...base, recruitmentClosedOn: '2026-04-01', enrolments: 0, stillFollowed: 0 })).toBe('set-up');
    expect(isRecruitmentClosed({ ...base, recruitmentClosedOn: '2026-04-01', enrolments: 0 })).toBe(true);
  });
});
