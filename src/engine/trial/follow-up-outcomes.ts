/**
 * One trial participant's dose-level outcomes (issue 14): adherence = confirmed-taken doses ÷ scheduled
 * doses, where scheduled doses come from the regimens active each day × their doses per day and a dose
 * without a confirmation counts as not taken. Days are local day numbers (days since 1970-01-01 in the
 * patient's time zone); follow-up week k is days [enrolledOn + 7(k−1), enrolledOn + 7k). Pure.
 */

export type ActiveRegimen = {
  /** First day of the regimen. */
  start: number;
  /** Last day of the regimen, included; null: open-ended. */
  end: number | null;
  dosesPerDay: number;
};

export type FollowUpOutcomeOptions = {
  /** Day of enrolment (the first day of week 1). */
  enrolledOn: number;
  /** Weeks of follow-up (12), and of the baseline window before enrolment. */
  weeks: number;
  /** Today in the patient's time zone: only weeks whose last day is before it count (the trial may still run). */
  today: number;
  regimens: readonly ActiveRegimen[];
  /** Doses confirmed taken, by the local day they were scheduled for. */
  takenByDay: ReadonlyMap<number, number>;
  /** Consecutive days without a confirmed-taken dose that make a gap (7). */
  gapDays: number;
};

export type AdherenceCount = { taken: number; scheduled: number; adherence: number | null };

export type FollowUpOutcomes = {
  /** The `weeks` weeks before enrolment, days with an active regimen only; adherence null when none. */
  baseline: AdherenceCount;
  /** Weeks 1 to `weeksReached`; adherence null when none reached or nothing was scheduled in them. */
  outcome: AdherenceCount;
  weeksReached: number;
  /** Week k at index k − 1; null when the week is not reached or had no scheduled dose. */
  weekly: (number | null)[];
  /**
   * Days from enrolment to the end of the first run of 7 consecutive days without a confirmed-taken
   * dose (7 when it starts on the day of enrolment); null when there is none in the weeks reached.
   */
  daysToFirstGap: number | null;
};

function scheduledOn(regimens: readonly ActiveRegimen[], day: number): number {
  let doses = 0;
  for (const regimen of regimens) {
    if (regimen.start <= day && (regimen.end === null || day <= regimen.end)) doses += regimen.dosesPerDay;
  }
  return doses;
}

function countDays(options: FollowUpOutcomeOptions, from: number, to: number): AdherenceCount {
  let taken = 0;
  let scheduled = 0;
  for (let day = from; day < to; day += 1) {
    const due = scheduledOn(options.regimens, day);
    if (due <= 0) continue;
    scheduled += due;
    // More confirmations than doses due (a duplicate, or a dose of a medicine without a regimen) cannot
    // lift the day above every dose taken: the outcome stays a share in [0, 1].
    taken += Math.min(options.takenByDay.get(day) ?? 0, due);
  }
  return { taken, scheduled, adherence: scheduled > 0 ? taken / scheduled : null };
}

export function computeFollowUpOutcomes(options: FollowUpOutcomeOptions): FollowUpOutcomes {
  const { enrolledOn, weeks, today } = options;
  if (!Number.isInteger(weeks) || weeks < 1) throw new RangeError(`weeks must be a positive whole number, got ${weeks}`);
  const weeksReached = Math.max(0, Math.min(weeks, Math.floor((today - enrolledOn) / 7)));
  const baseline = countDays(options, enrolledOn - 7 * weeks, enrolledOn);
  const outcome = countDays(options, enrolledOn, enrolledOn + 7 * weeksReached);
  const weekly: (number | null)[] = [];
  for (let week = 1; week <= weeks; week += 1) {
    weekly.push(week <= weeksReached ? countDays(options, enrolledOn + 7 * (week - 1), enrolledOn + 7 * week).adherence : null);
  }
  let daysToFirstGap: number | null = null;
  let run = 0;
  for (let index = 0; index < 7 * weeksReached; index += 1) {
    run = (options.takenByDay.get(enrolledOn + index) ?? 0) > 0 ? 0 : run + 1;
    if (run === options.gapDays) {
      daysToFirstGap = index + 1;
      break;
    }
  }
  return { baseline, outcome, weeksReached, weekly, daysToFirstGap };
}
