/**
 * Runs a synthetic cohort under a messaging policy, streaming every record to the sink as it is
 * produced. Memory holds only the patients' state: linear in patients, not in records.
 */
import { monthBoundaries, weekdayOfDay } from './calendar';
import { summariseCohort, type CohortSummary } from './cohort-summary';
import { habituation } from './message-response';
import { drawPatientProfile } from './patient-profile';
import { createPatientState, type PatientState } from './patient-state';
import type { MessagingPolicy } from '@/engine/policy/contract';
import { createRandomStream } from './random';
import type { SimulationSink } from './records';
import { simulatePatientDay, startTherapy, type SimulationDay } from './simulate-patient-day';

export type SimulationOptions = {
  patientCount: number;
  days: number;
  /** Non-negative 32-bit integer. */
  seed: number;
  /** First simulated day (day number). New users' first fill is on this day; others hold earlier supply. */
  startDay: number;
  policy: MessagingPolicy;
  sink?: SimulationSink;
  /**
   * For a learning policy that learns nothing before this day index (one that takes over from another
   * policy then, as the demo trial does): the days before it run patient by patient, as a non-learning
   * policy's do (several times faster), then `endDay` is called once with the last of them, and the cohort
   * advances a day at a time from here on. `learn` is still called for those days, in patient order. Records
   * are the same as with 0, the default (every day in step).
   */
  stepDailyFrom?: number;
  /** Progress in patient-days, called after each patient or each day. */
  onProgress?: (patientDaysDone: number, totalPatientDays: number) => void;
};

export const simulationLimits = { maximumPatients: 1_000_000, maximumDays: 3650 } as const;

export function validateSimulationOptions(options: Pick<SimulationOptions, 'patientCount' | 'days' | 'seed' | 'startDay'>): void {
  const { patientCount, days, seed, startDay } = options;
  if (!Number.isInteger(patientCount) || patientCount < 1 || patientCount > simulationLimits.maximumPatients) {
    throw new RangeError(`patientCount must be an integer from 1 to ${simulationLimits.maximumPatients}, got ${patientCount}`);
  }
  if (!Number.isInteger(days) || days < 1 || days > simulationLimits.maximumDays) {
    throw new RangeError(`days must be an integer from 1 to ${simulationLimits.maximumDays}, got ${days}`);
  }
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new RangeError(`seed must be an integer from 0 to 4294967295, got ${seed}`);
  if (!Number.isInteger(startDay)) throw new RangeError(`startDay must be an integer day number, got ${startDay}`);
}

/** [start, end) of each stretch of days the cohort runs through before the next stretch starts. */
function dayBlocks(days: number, learns: boolean, stepDailyFrom: number): [number, number][] {
  if (!learns) return [[0, days]];
  const blocks: [number, number][] = [];
  const firstDaily = Math.min(days, Math.max(0, stepDailyFrom));
  if (firstDaily > 0) blocks.push([0, firstDaily]);
  for (let day = firstDaily; day < days; day += 1) blocks.push([day, day + 1]);
  return blocks;
}

export function simulateCohort(options: SimulationOptions): CohortSummary {
  validateSimulationOptions(options);
  const { patientCount, days, seed, startDay, policy } = options;
  const sink = options.sink ?? {};
  const boundaries = monthBoundaries(days);
  const monthCount = boundaries.length - 1;
  const weekCount = Math.ceil(days / 7);

  const states: PatientState[] = [];
  for (let index = 0; index < patientCount; index += 1) {
    const profile = drawPatientProfile(createRandomStream(seed, index, 'profile'), { seed, patientIndex: index, days });
    states.push(
      createPatientState({
        seed,
        index,
        patient: profile.patient,
        traits: profile.traits,
        products: profile.products,
        monthCount,
        weekCount,
      }),
    );
    sink.patient?.(profile.patient);
  }
  for (const state of states) startTherapy(state, startDay, sink);

  const retentionPowers = new Float64Array(days + 1);
  for (let gap = 0; gap <= days; gap += 1) retentionPowers[gap] = habituation.dailyRetention ** gap;
  const run = { policy, sink, retentionPowers };

  const calendar: SimulationDay[] = [];
  let month = 0;
  for (let dayIndex = 0; dayIndex < days; dayIndex += 1) {
    while (month < monthCount && dayIndex >= (boundaries[month + 1] ?? Infinity)) month += 1;
    const day = startDay + dayIndex;
    calendar.push({
      day,
      dayIndex,
      weekday: weekdayOfDay(day),
      monthIndex: month < monthCount ? month : -1,
      weekIndex: Math.floor(dayIndex / 7),
    });
  }

  // A learning policy must see the cohort's days in order, so the whole cohort advances a day at a time
  // (from `stepDailyFrom` on). A policy that does not learn decides from the context and its random source
  // alone, so each patient can run through all days in turn: identical records, and several times faster
  // because the patient's state stays in the processor's cache.
  const stepDailyFrom = options.stepDailyFrom ?? 0;
  if (!Number.isInteger(stepDailyFrom)) throw new RangeError(`stepDailyFrom must be an integer day index, got ${stepDailyFrom}`);
  const learns = policy.learn !== undefined || policy.endDay !== undefined;
  const totalPatientDays = patientCount * days;
  for (const [blockStart, blockEnd] of dayBlocks(days, learns, stepDailyFrom)) {
    const blockDays = blockEnd - blockStart;
    states.forEach((state, index) => {
      for (let dayIndex = blockStart; dayIndex < blockEnd; dayIndex += 1) simulatePatientDay(state, calendar[dayIndex]!, run);
      if (blockDays > 1) options.onProgress?.(blockStart * patientCount + (index + 1) * blockDays, totalPatientDays);
    });
    // The block's days are over for every patient: a learning policy's batch update (daily here, nightly live).
    if (learns) policy.endDay?.(blockEnd - 1);
    if (blockDays === 1) options.onProgress?.(blockEnd * patientCount, totalPatientDays);
  }

  return summariseCohort({ states, policy, seed, startDay, days, monthBoundaries: boundaries });
}
