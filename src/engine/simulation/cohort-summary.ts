/**
 * The cohort's headline figures. Refill-based adherence is the PQA proportion of days covered, computed
 * per product from its dispensings (`computePdc`) and averaged over the patient's products; a patient is
 * adherent at PDC ≥ 0.8 (PQA threshold).
 */
import { computePdc } from '@/engine/adherence/pdc';
import type { PatientState } from './patient-state';
import { personas, type Persona } from './personas';

export const adherentThreshold = 0.8;

export type GroupSummary = {
  patients: number;
  meanPdc: number;
  shareAdherent: number;
  messagesPerPatient: number;
  optOutRate: number;
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
  /** Share of prescribed products the patient is still taking on the last day. */
  persistenceAtEnd: number;
  /** Outbound messages per patient. */
  messagesPerPatient: number;
  repliesPerPatient: number;
  /** Share of patients who replied STOP. */
  optOutRate: number;
  byPersona: Record<Persona, GroupSummary>;
};

type PatientFigures = { pdc: number; monthlyPdc: number[] };

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
  return { pdc: meanPdcOfProducts(state, startDay, startDay + days), monthlyPdc };
}

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
  const groups = new Map<Persona, { patients: number; pdc: number; adherent: number; messages: number; optedOut: number }>(
    personas.map((persona) => [persona, { patients: 0, pdc: 0, adherent: 0, messages: 0, optedOut: 0 }]),
  );
  const weekCount = Math.ceil(days / 7);
  const weeklyScheduledAvailable = new Array<number>(weekCount).fill(0);
  const weeklyTakenAvailable = new Array<number>(weekCount).fill(0);
  let pdcTotal = 0;
  let adherentCount = 0;
  let messages = 0;
  let replies = 0;
  let optedOut = 0;
  let products = 0;
  let productsOnTherapy = 0;

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
    products += state.products.length;
    for (const product of state.products) if (product.onTherapy) productsOnTherapy += 1;
    const group = groups.get(state.patient.persona);
    if (group !== undefined) {
      group.patients += 1;
      group.pdc += figures.pdc;
      if (adherent) group.adherent += 1;
      group.messages += state.messagesSent;
      if (state.optedOut) group.optedOut += 1;
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
    persistenceAtEnd: ratio(productsOnTherapy, products),
    messagesPerPatient: ratio(messages, patients),
    repliesPerPatient: ratio(replies, patients),
    optOutRate: ratio(optedOut, patients),
    byPersona,
  };
}
