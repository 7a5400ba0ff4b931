/**
 * The cohort's headline figures. Refill-based adherence is the PQA proportion of days covered, computed
 * per product from its dispensings (`computePdc`) and averaged over the patient's products; a patient is
 * adherent at PDC ≥ 0.8 (PQA threshold). Persistence is per patient and defined as the compliance journey
 * defines it (`journeyPersistence`): the patient's fills of all products pooled, supply carried over, the
 * first treatment episode ended by a gap of more than 60 days without supply.
 */
import { computePdc } from '@/engine/adherence/pdc';
import type { MedicationEvent } from '@/engine/adherence/medication-event';
import { journeyPersistence } from '@/engine/aggregation/compliance-journey';
import { endLapse, longLapseDays } from './lapses';
import type { PatientState } from './patient-state';
import { personas, type Persona } from './personas';

export const adherentThreshold = 0.8;

export type GroupSummary = {
  patients: number;
  meanPdc: number;
  shareAdherent: number;
  messagesPerPatient: number;
  optOutRate: number;
  /** Share of patients persisting through the run (see `CohortSummary.persistence`). */
  persistence: number;
  /** Share of patients with a lapse of `longLapseDays` or more (no dose taken on any day of it). */
  longLapseShare: number;
  /** The same, counting only lapses no life event explains (lapses.ts). */
  unexplainedLongLapseShare: number;
};

export type CohortSummary = {
  policy: string;
  policyVersion: string;
  seed: number;
  patients: number;
  days: number;
  startDay: number;
  /** Mean over patients of the PDC over the whole run. */
  meanPdc: number;
  /** Share of patients with PDC ≥ 0.8 over the whole run. */
  shareAdherent: number;
  /** Per full month of the run (12 for 365 days): mean PDC and share at PDC ≥ 0.8 within the month. */
  meanPdcByMonth: number[];
  shareAdherentByMonth: number[];
  /** Share of scheduled doses taken (simulation truth), per month. */
  doseTakenShareByMonth: number[];
  /** The same among doses due while on therapy with supply at hand: what reminders can change. */
  availableDoseTakenShareByMonth: number[];
  /** The same per week of the run (the last week may be partial). */
  availableDoseTakenShareByWeek: number[];
  /**
   * Share of patients still persisting at the end of the run: their first treatment episode, counted from
   * their first fill (a fill before the run when they were already on treatment), has not ended with a gap
   * of more than 60 days without supply. A gap still shorter than that at the end counts as persisting,
   * as on the compliance journey.
   */
  persistence: number;
  /** Outbound messages per patient. */
  messagesPerPatient: number;
  repliesPerPatient: number;
  /** Share of patients who replied STOP. */
  optOutRate: number;
  byPersona: Record<Persona, GroupSummary>;
};

type PatientFigures = { pdc: number; monthlyPdc: number[]; persists: boolean };

/** Whether the patient's first treatment episode lasts to `end` (the compliance journey's definition). */
function persistsTo(state: PatientState, end: number): boolean {
  const events: MedicationEvent[] = [];
  for (const product of state.products)
    for (const fill of product.fills)
      events.push({ day: fill.day, duration: fill.daysSupply, dose: product.dosesPerDay, medicationClass: product.product.id });
  if (events.length === 0) return false;
  events.sort((left, right) => left.day - right.day);
  return !journeyPersistence(events, events[0]!.day, end).event;
}

function meanPdcOfProducts(state: PatientState, periodStart: number, periodEnd: number): number {
  let total = 0;
  for (const product of state.products) total += computePdc({ fills: product.fills, periodStart, periodEnd }).pdc;
  return state.products.length === 0 ? 0 : total / state.products.length;
}

function patientFigures(state: PatientState, startDay: number, days: number, monthBoundaries: readonly number[]): PatientFigures {
  const monthlyPdc: number[] = [];
  for (let month = 0; month + 1 < monthBoundaries.length; month += 1) {
    monthlyPdc.push(meanPdcOfProducts(state, startDay + (monthBoundaries[month] ?? 0), startDay + (monthBoundaries[month + 1] ?? 0)));
  }
  return { pdc: meanPdcOfProducts(state, startDay, startDay + days), monthlyPdc, persists: persistsTo(state, startDay + days) };
}

type GroupTotals = {
  patients: number;
  pdc: number;
  adherent: number;
  messages: number;
  optedOut: number;
  persisting: number;
  longLapses: number;
  unexplainedLongLapses: number;
};

function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}

export function summariseCohort(options: {
  states: readonly PatientState[];
  policy: { name: string; version: string };
  seed: number;
  startDay: number;
  days: number;
  monthBoundaries: readonly number[];
}): CohortSummary {
  const { states, startDay, days, monthBoundaries } = options;
  const monthCount = monthBoundaries.length - 1;
  const monthlyPdcTotals = new Array<number>(monthCount).fill(0);
  const monthlyAdherent = new Array<number>(monthCount).fill(0);
  const scheduled = new Array<number>(monthCount).fill(0);
  const taken = new Array<number>(monthCount).fill(0);
  const scheduledAvailable = new Array<number>(monthCount).fill(0);
  const takenAvailable = new Array<number>(monthCount).fill(0);
  const groups = new Map<Persona, GroupTotals>(
    personas.map((persona) => [
      persona,
      { patients: 0, pdc: 0, adherent: 0, messages: 0, optedOut: 0, persisting: 0, longLapses: 0, unexplainedLongLapses: 0 },
    ]),
  );
  const weekCount = Math.ceil(days / 7);
  const weeklyScheduledAvailable = new Array<number>(weekCount).fill(0);
  const weeklyTakenAvailable = new Array<number>(weekCount).fill(0);
  let pdcTotal = 0;
  let adherentCount = 0;
  let messages = 0;
  let replies = 0;
  let optedOut = 0;
  let persisting = 0;

  for (const state of states) {
    const figures = patientFigures(state, startDay, days, monthBoundaries);
    const adherent = figures.pdc >= adherentThreshold;
    pdcTotal += figures.pdc;
    if (adherent) adherentCount += 1;
    for (let month = 0; month < monthCount; month += 1) {
      const monthPdc = figures.monthlyPdc[month] ?? 0;
      monthlyPdcTotals[month]! += monthPdc;
      if (monthPdc >= adherentThreshold) monthlyAdherent[month]! += 1;
      scheduled[month]! += state.tally.scheduled[month] ?? 0;
      taken[month]! += state.tally.taken[month] ?? 0;
      scheduledAvailable[month]! += state.tally.scheduledAvailable[month] ?? 0;
      takenAvailable[month]! += state.tally.takenAvailable[month] ?? 0;
    }
    for (let week = 0; week < weekCount; week += 1) {
      weeklyScheduledAvailable[week]! += state.tally.weeklyScheduledAvailable[week] ?? 0;
      weeklyTakenAvailable[week]! += state.tally.weeklyTakenAvailable[week] ?? 0;
    }
    messages += state.messagesSent;
    replies += state.replies;
    if (state.optedOut) optedOut += 1;
    if (figures.persists) persisting += 1;
    endLapse(state.lapses, state.traits.lifeEvents, days);
    const group = groups.get(state.patient.persona);
    if (group !== undefined) {
      group.patients += 1;
      group.pdc += figures.pdc;
      if (adherent) group.adherent += 1;
      group.messages += state.messagesSent;
      if (state.optedOut) group.optedOut += 1;
      if (figures.persists) group.persisting += 1;
      if (state.lapses.longestDays >= longLapseDays) group.longLapses += 1;
      if (state.lapses.longestUnexplainedDays >= longLapseDays) group.unexplainedLongLapses += 1;
    }
  }

  const patients = states.length;
  const byPersona = {} as Record<Persona, GroupSummary>;
  for (const [persona, group] of groups) {
    byPersona[persona] = {
      patients: group.patients,
      meanPdc: ratio(group.pdc, group.patients),
      shareAdherent: ratio(group.adherent, group.patients),
      messagesPerPatient: ratio(group.messages, group.patients),
      optOutRate: ratio(group.optedOut, group.patients),
      persistence: ratio(group.persisting, group.patients),
      longLapseShare: ratio(group.longLapses, group.patients),
      unexplainedLongLapseShare: ratio(group.unexplainedLongLapses, group.patients),
    };
  }
  return {
    policy: options.policy.name,
    policyVersion: options.policy.version,
    seed: options.seed,
    patients,
    days,
    startDay,
    meanPdc: ratio(pdcTotal, patients),
    shareAdherent: ratio(adherentCount, patients),
    meanPdcByMonth: monthlyPdcTotals.map((total) => ratio(total, patients)),
    shareAdherentByMonth: monthlyAdherent.map((count) => ratio(count, patients)),
    doseTakenShareByMonth: taken.map((count, month) => ratio(count, scheduled[month] ?? 0)),
    availableDoseTakenShareByMonth: takenAvailable.map((count, month) => ratio(count, scheduledAvailable[month] ?? 0)),
    availableDoseTakenShareByWeek: weeklyTakenAvailable.map((count, week) => ratio(count, weeklyScheduledAvailable[week] ?? 0)),
    persistence: ratio(persisting, patients),
    messagesPerPatient: ratio(messages, patients),
    repliesPerPatient: ratio(replies, patients),
    optOutRate: ratio(optedOut, patients),
    byPersona,
  };
}
