import { describe, expect, it } from 'vitest';
import { compareDosesAndRefills } from './doses-and-refills';

const doses = (confirmed: number, scheduled: number) => ({
  scheduledDoses: scheduled,
  confirmedDoses: confirmed,
  onTimeDoses: confirmed,
  confirmedShare: scheduled === 0 ? null : confirmed / scheduled,
  onTimeShare: scheduled === 0 ? null : confirmed / scheduled,
});

describe('dose confirmations beside refills', () => {
  it('says when they disagree, and which way', () => {
    const more = compareDosesAndRefills(doses(17, 19), 0.37);
    expect(more.disagree).toBe(true);
    expect(more.sentence).toMatch(
      /^Confirmed 17 of 19 reported doses \(89%\); refills cover 37% of days\. They disagree\. More doses were confirmed/,
    );
    expect(compareDosesAndRefills(doses(2, 19), 0.9).sentence).toMatch(
      /They disagree\. The refills cover more days than the doses confirmed/,
    );
  });

  it('says they agree when close, and gives the facts alone when one is missing', () => {
    expect(compareDosesAndRefills(doses(17, 19), 0.8)).toMatchObject({
      disagree: false,
      sentence: expect.stringMatching(/The two agree\.$/),
    });
    expect(compareDosesAndRefills(doses(0, 0), 0.5)).toMatchObject({
      disagree: false,
      sentence: 'No doses were reported; refills cover 50% of days.',
    });
    expect(compareDosesAndRefills(doses(3, 4), null).sentence).toBe('Confirmed 3 of 4 reported doses (75%); no refills are recorded.');
  });
});
