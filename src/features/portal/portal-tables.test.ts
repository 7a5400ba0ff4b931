import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computePdc } from '@/engine/adherence/pdc';
import { adherenceBarriersSurvey } from '@/engine/surveys';
import { coveredDaysIn, periodMonths, pqaCoverage, surveyReasons } from './portal-tables';

describe('portal coverage', () => {
  it('counts the covered days of any window exactly as computePdc does', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ day: fc.integer({ min: 0, max: 400 }), duration: fc.integer({ min: 0, max: 90 }), drug: fc.constantFrom('a', 'b') }),
          {
            minLength: 1,
            maxLength: 12,
          },
        ),
        fc.integer({ min: 0, max: 450 }),
        fc.integer({ min: 1, max: 120 }),
        (drawn, from, length) => {
          const events = drawn
            .map((fill) => ({ day: fill.day, duration: fill.duration, dose: 1, medicationClass: fill.drug }))
            .sort((left, right) => left.day - right.day);
          const expected = computePdc({
            fills: events.map((event) => ({ day: event.day, daysSupply: event.duration, drug: event.medicationClass })),
            periodStart: from,
            periodEnd: from + length,
          }).coveredDays;
          expect(coveredDaysIn(pqaCoverage(events), from, from + length)).toBe(expected);
        },
      ),
    );
  });

  it('splits a period into calendar months clipped to it', () => {
    // 15 Jan 2026 (day 20468) to 10 Mar 2026 exclusive.
    const months = periodMonths({ start: 20468, end: 20522 });
    expect(months.map((month) => [month.key, month.end - month.start])).toEqual([
      ['2026-01', 17],
      ['2026-02', 28],
      ['2026-03', 9],
    ]);
  });
});

describe('survey reasons', () => {
  it('name questions and answers the barrier survey asks, so a renamed one cannot silently count nobody', () => {
    for (const reason of surveyReasons)
      for (const [id, answers] of Object.entries(reason.gives as Readonly<Record<string, readonly string[]>>)) {
        const question = adherenceBarriersSurvey.questions.find((candidate) => candidate.id === id);
        expect(question?.kind, `${reason.key}: ${id}`).toBe('choice');
        const values = question?.kind === 'choice' ? question.options.map((option) => option.value) : [];
        for (const answer of answers) expect(values, `${reason.key}: ${id}`).toContain(answer);
      }
  });
});
