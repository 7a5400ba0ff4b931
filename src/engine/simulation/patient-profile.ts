/**
 * Draws one synthetic patient: the record the product would store (persona, demographics, channel and
 * consent, conditions and products, usual dose times) and the hidden traits that drive behaviour.
 * Everything comes from the patient's own profile stream, so the same seed gives the same cohort
 * whatever the messaging policy.
 */
import { conditions, type Condition } from './conditions';
import { demoProducts, type DemoProduct } from './demo-catalogue';
import { dailyFromMonthly, drawLifeEvents, type LifeEvent } from './life-events';
import { messageChannels, type MessageChannel } from '@/engine/policy/message-arms';
import { ageBands, personaParameters, personas, type Persona } from './personas';
import { nextNormal, nextProportion, nextUniform, nextWeightedIndex, type RandomStream } from './random';
import type { DoseObserver, SimulatedPatient } from './records';
import { regions } from './regions';

/** Behavioural traits the product never sees directly. Probabilities are per dose occasion or per day. */
export type PatientTraits = {
  forgetProbability: number;
  skipProbability: number;
  concerns: number;
  costBarrier: number;
  /** Chance per day of stopping all medicines for the persona's own reasons (0: only life events stop them). */
  dailyStopProbability: number;
  dailyRestartProbability: number;
  refillAheadDays: number;
  /** Sets out to refill when the last fill's days have passed, whatever is left at home. */
  refillsByCalendar: boolean;
  /** Chance per day of collecting a refill once the patient has set out to. */
  dailyRefillProbability: number;
  daysSupply: 30 | 90;
  reminderResponsiveness: number;
  replyProbability: number;
  optOutPropensity: number;
  appLoggingProbability: number;
  /** Newly diagnosed: starts on the first day and stops more often in the first months. */
  isNewUser: boolean;
  /**
   * Patients already on therapy collected each product some days before the run starts (one entry per
   * product, in [0, daysSupply)); new users have none. Spreads refill cycles over the calendar as in a
   * real prevalent cohort.
   */
  priorFillDaysAgo: number[];
  lifeEvents: LifeEvent[];
};

export type PatientProfile = { patient: SimulatedPatient; traits: PatientTraits; products: readonly DemoProduct[] };

const personaWeights = personas.map((persona) => personaParameters[persona].share);

/** Pseudonymous id: seed and position, never anything about the person. */
export function simulatedPatientId(seed: number, patientIndex: number): string {
  return `sim-${seed.toString(36)}-${String(patientIndex + 1).padStart(6, '0')}`;
}

/**
 * Weights of the preferred channel (in `messageChannels` order) for a persona at an age band (its index in
 * `ageBands`). Older patients lean towards SMS (modelling assumption: messaging-app use falls with age). Also read
 * by the survey's persona-accuracy measurement, which draws each simulated patient's record the same way.
 */
export function preferredChannelWeights(persona: Persona, ageBandIndex: number): number[] {
  return messageChannels.map(
    (channel) => personaParameters[persona].channelWeights[channel] * (channel === 'sms' ? 1 + 0.3 * ageBandIndex : 1),
  );
}

/** The days' supply a patient gets at a time, from a uniform draw: 90 for the persona's `ninetyDayShare`, else 30. */
export function daysSupplyFromDraw(persona: Persona, draw: number): 30 | 90 {
  return draw < personaParameters[persona].ninetyDayShare ? 90 : 30;
}

export function drawPatientProfile(stream: RandomStream, options: { seed: number; patientIndex: number; days: number }): PatientProfile {
  const persona: Persona = personas[nextWeightedIndex(stream, personaWeights)] ?? 'busy-professional';
  const parameters = personaParameters[persona];
  const ageBandIndex = nextWeightedIndex(stream, parameters.ageBandWeights);
  const ageBand = ageBands[ageBandIndex] ?? '55-64';
  const sex = nextUniform(stream) < 0.51 ? 'female' : 'male';

  const region =
    regions[
      nextWeightedIndex(
        stream,
        regions.map((candidate) => candidate.weight),
      )
    ] ?? regions[0]!;
  const languageTags = Object.keys(region.languages);
  const language = languageTags[nextWeightedIndex(stream, Object.values(region.languages))] ?? 'en';

  const preferredChannel: MessageChannel =
    messageChannels[nextWeightedIndex(stream, preferredChannelWeights(persona, ageBandIndex))] ?? 'sms';
  const consent: Record<MessageChannel, boolean> = { sms: false, whatsapp: false, app: false };
  for (const channel of messageChannels) consent[channel] = channel === preferredChannel || nextUniform(stream) < 0.4;

  const patientConditions = drawConditions(stream, ageBandIndex);
  const products = patientConditions.map((condition) => drawProduct(stream, condition));
  const doseObserver = drawDoseObserver(stream, preferredChannel, ageBandIndex);
  const routine = drawRoutine(stream, parameters.weekendShiftMinutes);

  const concerns = nextProportion(stream, parameters.concerns, 0.8);
  const traits: PatientTraits = {
    forgetProbability: nextProportion(stream, parameters.forgetProbability, 0.6),
    // Deliberate skipping grows with concerns about the medicine (Horne's necessity–concerns framework).
    skipProbability: Math.min(0.6, parameters.skipProbability * (concerns / parameters.concerns) ** 0.7),
    concerns,
    costBarrier: nextProportion(stream, parameters.costBarrier, 0.6),
    // Drawn even where the persona never stops of its own accord, so every persona takes the same draws.
    dailyStopProbability: dailyStopOf(
      parameters.monthlyStopProbability,
      nextProportion(stream, parameters.monthlyStopProbability, stopSpread),
    ),
    dailyRestartProbability: dailyFromMonthly(parameters.monthlyRestartProbability),
    refillAheadDays: parameters.refillAheadDays + Math.round(nextNormal(stream) * 1.5),
    refillsByCalendar: nextUniform(stream) < parameters.calendarRefillShare,
    dailyRefillProbability: 1 / (1 + parameters.refillLagDays * Math.exp(nextNormal(stream))),
    daysSupply: daysSupplyFromDraw(persona, nextUniform(stream)),
    reminderResponsiveness: nextProportion(stream, parameters.reminderResponsiveness, 0.5),
    replyProbability: nextProportion(stream, parameters.replyProbability, 0.6),
    optOutPropensity: parameters.optOutPropensity * Math.exp(0.4 * nextNormal(stream)),
    appLoggingProbability: nextProportion(stream, parameters.appLoggingProbability, 0.6),
    isNewUser: persona === 'newly-diagnosed',
    priorFillDaysAgo: [],
    lifeEvents: [],
  };
  if (!traits.isNewUser) traits.priorFillDaysAgo = products.map(() => Math.floor(nextUniform(stream) * traits.daysSupply));
  // Last, because how many there are depends on the length of the run: everything else does not.
  traits.lifeEvents = drawLifeEvents(stream, parameters.lifeEventsPerYear, options.days);

  const patient: SimulatedPatient = {
    id: simulatedPatientId(options.seed, options.patientIndex),
    persona,
    ageBand,
    sex,
    region: region.id,
    language,
    timezone: region.timezone,
    preferredChannel,
    consent,
    conditions: patientConditions,
    productIds: products.map((product) => product.id),
    doseObserver,
    routine,
  };
  return { patient, traits, products };
}

/**
 * Spread of the chance of stopping between patients of a persona (logit scale). Wide: some patients stop
 * within weeks, most hardly ever, which makes refill adherence bimodal as observed — persistent patients
 * mostly adherent, discontinuers dropping out early (Vrijens 2008). The width is a judgement, tuned to
 * the 12-month targets (mean PDC, share at PDC ≥ 0.8, persistence; calibration.ts).
 */
const stopSpread = 3;

function dailyStopOf(personaMonthly: number, patientMonthly: number): number {
  return personaMonthly === 0 ? 0 : dailyFromMonthly(patientMonthly);
}

/**
 * Conditions become more common with age (modelling assumption: hypertension most common, then
 * hyperlipidaemia and type 2 diabetes, atrial fibrillation and COPD in older bands); at least one.
 */
function drawConditions(stream: RandomStream, ageBandIndex: number): Condition[] {
  const prevalence: Record<Condition, number> = {
    hypertension: 0.45 + 0.07 * ageBandIndex,
    'type-2-diabetes': 0.25 + 0.03 * ageBandIndex,
    hyperlipidaemia: 0.25 + 0.06 * ageBandIndex,
    'atrial-fibrillation': Math.max(0, 0.03 * (ageBandIndex - 2)),
    copd: 0.03 + 0.02 * ageBandIndex,
  };
  const chosen = conditions.filter((condition) => nextUniform(stream) < prevalence[condition]);
  return chosen.length > 0 ? chosen : ['hypertension'];
}

const productsByCondition = new Map<Condition, DemoProduct[]>(
  conditions.map((condition) => [condition, demoProducts.filter((product) => product.condition === condition)]),
);

function drawProduct(stream: RandomStream, condition: Condition): DemoProduct {
  const candidates = productsByCondition.get(condition) ?? [];
  const product =
    candidates[
      nextWeightedIndex(
        stream,
        candidates.map((candidate) => candidate.prescribingWeight),
      )
    ];
  if (product === undefined) throw new Error(`The demo catalogue has no product for ${condition}`);
  return product;
}

/** Smart bottles go mostly to older patients; otherwise doses are confirmed where the patient chats. */
function drawDoseObserver(stream: RandomStream, preferredChannel: MessageChannel, ageBandIndex: number): DoseObserver {
  if (nextUniform(stream) < 0.08 + 0.03 * ageBandIndex) return 'smart-bottle';
  if (preferredChannel === 'whatsapp') return nextUniform(stream) < 0.7 ? 'whatsapp' : 'app';
  if (preferredChannel === 'app') return 'app';
  return nextUniform(stream) < 0.6 ? 'app' : 'smart-bottle';
}

const minutesPerDay = 1440;

function roundToFive(minutes: number): number {
  return Math.round(minutes / 5) * 5;
}

/** Usual dose times by weekday: a personal morning and evening time, later at weekends. */
function drawRoutine(stream: RandomStream, weekendShiftMinutes: number): SimulatedPatient['routine'] {
  const morningBase = Math.min(630, Math.max(330, 435 + 50 * nextNormal(stream)));
  const eveningBase = Math.min(1380, Math.max(1050, 1230 + 60 * nextNormal(stream)));
  const weekendShift = weekendShiftMinutes * (0.5 + nextUniform(stream));
  const morning: number[] = [];
  const evening: number[] = [];
  for (let weekday = 0; weekday < 7; weekday += 1) {
    const isWeekend = weekday === 0 || weekday === 6;
    morning.push(roundToFive(Math.min(minutesPerDay - 60, morningBase + (isWeekend ? weekendShift : 10 * nextNormal(stream)))));
    evening.push(roundToFive(Math.min(minutesPerDay - 30, eveningBase + (isWeekend ? weekendShift / 3 : 10 * nextNormal(stream)))));
  }
  return { morning, evening };
}
