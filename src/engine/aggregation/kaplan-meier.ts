/**
 * Kaplan–Meier survival estimate (here: persistence on treatment). Each subject has a follow-up time and
 * whether it ended with the event (discontinuation) or was censored (still on treatment at the end of
 * the data). At each event time S(t) is multiplied by (1 − events / at risk); censored subjects leave the
 * risk set after their time, the usual convention for ties of events and censorings.
 */

export type SurvivalSubject = { time: number; event: boolean };

export type SurvivalPoint = {
  time: number;
  /** S(time): the share still persisting just after `time`. */
  survival: number;
  /** Subjects still followed at `time` (time ≥ `time`). */
  atRisk: number;
};

/** The step function evaluated at each of `times` (sorted or not). */
export function computeKaplanMeier(subjects: readonly SurvivalSubject[], times: readonly number[]): SurvivalPoint[] {
  for (const subject of subjects) {
    if (!(subject.time >= 0)) throw new RangeError(`Follow-up time must be zero or more, got ${subject.time}`);
  }
  const eventTimes = [...new Set(subjects.filter((subject) => subject.event).map((subject) => subject.time))].sort(
    (left, right) => left - right,
  );
  // S after each event time, in order.
  const steps: { time: number; survival: number }[] = [];
  let survival = 1;
  for (const time of eventTimes) {
    const atRisk = subjects.filter((subject) => subject.time >= time).length;
    const events = subjects.filter((subject) => subject.event && subject.time === time).length;
    survival *= 1 - events / atRisk;
    steps.push({ time, survival });
  }
  return times.map((time) => {
    let value = 1;
    for (const step of steps) {
      if (step.time > time) break;
      value = step.survival;
    }
    return { time, survival: value, atRisk: subjects.filter((subject) => subject.time >= time).length };
  });
}
