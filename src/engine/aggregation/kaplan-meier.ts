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

export type SurvivalPointWithInterval = SurvivalPoint & {
  /** 95% pointwise confidence limits (Greenwood variance, log(−log) transform, so the limits stay in [0, 1]); null where undefined. */
  lower: number | null;
  upper: number | null;
};

/**
 * The Kaplan–Meier step function at each of `times` with pointwise confidence limits: Greenwood's variance
 * of log S, carried to the log(−log S) scale (Kalbfleisch & Prentice), the default of R's survfit
 * conf.type = "log-log". Sorts the subjects once, so it serves large cohorts.
 */
export function computeKaplanMeierWithIntervals(
  subjects: readonly SurvivalSubject[],
  times: readonly number[],
  z = 1.959963984540054,
): SurvivalPointWithInterval[] {
  for (const subject of subjects) {
    if (!(subject.time >= 0)) throw new RangeError(`Follow-up time must be zero or more, got ${subject.time}`);
  }
  const sorted = [...subjects].sort((left, right) => left.time - right.time);
  // Steps after each event time: S and Σ d / (n (n − d)) (Greenwood's sum).
  const steps: { time: number; survival: number; greenwood: number }[] = [];
  let survival = 1;
  let greenwood = 0;
  let index = 0;
  while (index < sorted.length) {
    const time = sorted[index]!.time;
    const atRisk = sorted.length - index;
    let events = 0;
    let next = index;
    while (next < sorted.length && sorted[next]!.time === time) {
      if (sorted[next]!.event) events += 1;
      next += 1;
    }
    if (events > 0) {
      survival *= 1 - events / atRisk;
      greenwood += atRisk > events ? events / (atRisk * (atRisk - events)) : Infinity;
      steps.push({ time, survival, greenwood });
    }
    index = next;
  }
  return times.map((time) => {
    let value = 1;
    let sum = 0;
    for (const step of steps) {
      if (step.time > time) break;
      value = step.survival;
      sum = step.greenwood;
    }
    // First index with subject.time >= time: those still followed.
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (sorted[middle]!.time < time) low = middle + 1;
      else high = middle;
    }
    const atRisk = sorted.length - low;
    if (value <= 0 || value >= 1 || !Number.isFinite(sum)) {
      return { time, survival: value, atRisk, lower: value >= 1 ? null : value <= 0 ? 0 : null, upper: value >= 1 ? 1 : null };
    }
    const logMinusLog = Math.log(-Math.log(value));
    const spread = (z * Math.sqrt(sum)) / Math.abs(Math.log(value));
    return {
      time,
      survival: value,
      atRisk,
      lower: Math.exp(-Math.exp(logMinusLog + spread)),
      upper: Math.exp(-Math.exp(logMinusLog - spread)),
    };
  });
}
