/**
 * Everything the simulator tracks for one patient between days. Kept small and flat (numbers and typed
 * arrays), because a cohort of 10,000 lives in memory for the whole run.
 */
import type { PdcFill } from '@/engine/adherence/pdc';
import type { DemoProduct } from './demo-catalogue';
import { armCount, messageCategories, type MessageChannel } from '@/engine/policy/message-arms';
import { createLapseTracker, type LapseTracker } from './lapses';
import type { PatientTraits } from './patient-profile';
import { personaParameters, type PersonaParameters } from './personas';
import type { PatientFeatures, RandomSource } from '@/engine/policy/contract';
import { createRandomStream, nextUniform, type RandomStream } from './random';
import type { SimulatedPatient } from './records';
import { createRollingCount, type RollingCount } from './rolling-count';

export type ProductState = {
  product: DemoProduct;
  takesMorning: boolean;
  takesEvening: boolean;
  dosesPerDay: number;
  /** Doses on hand. */
  supplyDoses: number;
  onTherapy: boolean;
  /** The patient has set out to refill and will collect it on some coming day. */
  refillDue: boolean;
  /** Days of supply left as the product sees it: dispensed days minus days elapsed (no knowledge of doses). */
  expectedSupplyDays: number;
  fills: PdcFill[];
};

/** Per-month tallies of scheduled and taken doses (simulation truth). */
export type DoseTally = {
  scheduled: Int32Array;
  taken: Int32Array;
  /** Doses scheduled while on therapy with supply at hand: where reminders can act. */
  scheduledAvailable: Int32Array;
  takenAvailable: Int32Array;
  /** The same two per week (at most 5 products × 2 occasions × 7 days, so a byte each). */
  weeklyScheduledAvailable: Uint8Array;
  weeklyTakenAvailable: Uint8Array;
};

export type PatientState = {
  index: number;
  patient: SimulatedPatient;
  traits: PatientTraits;
  parameters: PersonaParameters;
  features: PatientFeatures;
  products: ProductState[];
  hasMorning: boolean;
  hasEvening: boolean;
  behaviour: RandomStream;
  messaging: RandomStream;
  observation: RandomStream;
  policyRandom: RandomSource;
  channel: MessageChannel | null;
  lifeEventPointer: number;
  routineShiftMinutes: number;
  /** Taking the medicines (all of them: patients stop and restart as a whole). */
  onTherapy: boolean;
  /** Runs of days without a dose taken (persona-consistency check). */
  lapses: LapseTracker;
  /** 1 at the start; education eases it (scales deliberate skipping and stopping). */
  concernsScale: number;
  /** Persistence support from messages (see message-response.ts). */
  support: number;
  optedOut: boolean;
  optOutDay: number | null;
  messagesSent: number;
  replies: number;
  lastReplyDayIndex: number;
  /** Outbound messages in the previous 7 and 28 days (windows of 8 and 29 days ending today, read before today's message). */
  messagesLastWeek: RollingCount;
  messagesLastFourWeeks: RollingCount;
  /** Outbound messages in the 7 days ending today, today's included: the burden a new message adds to. */
  messagesThisWeek: RollingCount;
  repliesLastFourWeeks: RollingCount;
  /** Decaying exposure to each arm, each category and any message, with the day each was last brought up to date. */
  armExposure: Float64Array;
  armExposureDay: Int32Array;
  categoryExposure: Float64Array;
  categoryExposureDay: Int32Array;
  anyExposure: number;
  anyExposureDay: number;
  /** Dose events and confirmations in the previous 7 days (read before today's are added). */
  dosesScheduledLastWeek: RollingCount;
  dosesConfirmedLastWeek: RollingCount;
  tally: DoseTally;
};

export function createPatientState(options: {
  seed: number;
  index: number;
  patient: SimulatedPatient;
  traits: PatientTraits;
  products: readonly DemoProduct[];
  monthCount: number;
  weekCount: number;
}): PatientState {
  const { seed, index, patient, traits, monthCount, weekCount } = options;
  const products: ProductState[] = options.products.map((product) => ({
    product,
    takesMorning: product.doseOccasions.includes('morning'),
    takesEvening: product.doseOccasions.includes('evening'),
    dosesPerDay: product.doseOccasions.length,
    supplyDoses: 0,
    onTherapy: true,
    refillDue: true,
    expectedSupplyDays: 0,
    fills: [],
  }));
  const policyStream = createRandomStream(seed, index, 'policy');
  return {
    index,
    patient,
    traits,
    parameters: personaParameters[patient.persona],
    features: {
      ageBand: patient.ageBand,
      sex: patient.sex,
      conditions: patient.conditions,
      productCount: products.length,
      preferredChannel: patient.preferredChannel,
      doseObserver: patient.doseObserver,
    },
    products,
    hasMorning: products.some((product) => product.takesMorning),
    hasEvening: products.some((product) => product.takesEvening),
    behaviour: createRandomStream(seed, index, 'behaviour'),
    messaging: createRandomStream(seed, index, 'messaging'),
    observation: createRandomStream(seed, index, 'observation'),
    policyRandom: () => nextUniform(policyStream),
    channel: patient.consent[patient.preferredChannel] ? patient.preferredChannel : null,
    lifeEventPointer: 0,
    routineShiftMinutes: 0,
    onTherapy: true,
    lapses: createLapseTracker(),
    concernsScale: 1,
    support: 0,
    optedOut: false,
    optOutDay: null,
    messagesSent: 0,
    replies: 0,
    lastReplyDayIndex: -1,
    messagesLastWeek: createRollingCount(8),
    messagesLastFourWeeks: createRollingCount(29),
    messagesThisWeek: createRollingCount(7),
    repliesLastFourWeeks: createRollingCount(29),
    armExposure: new Float64Array(armCount),
    armExposureDay: new Int32Array(armCount),
    categoryExposure: new Float64Array(messageCategories.length),
    categoryExposureDay: new Int32Array(messageCategories.length),
    anyExposure: 0,
    anyExposureDay: 0,
    dosesScheduledLastWeek: createRollingCount(8),
    dosesConfirmedLastWeek: createRollingCount(8),
    tally: {
      scheduled: new Int32Array(monthCount),
      taken: new Int32Array(monthCount),
      scheduledAvailable: new Int32Array(monthCount),
      takenAvailable: new Int32Array(monthCount),
      weeklyScheduledAvailable: new Uint8Array(weekCount),
      weeklyTakenAvailable: new Uint8Array(weekCount),
    },
  };
}
