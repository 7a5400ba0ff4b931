/**
 * Personas and what distinguishes them. The numbers are modelling assumptions chosen so that the cohort
 * as a whole reproduces the published figures in DESIGN.md §9; which target each group of numbers is
 * tuned to is said beside it, and `calibration.test.ts` checks the result.
 */
import type { MessageCategory, MessageChannel, MessageFraming } from '@/engine/policy/message-arms';

export const personas = [
  'busy-professional',
  'forgetful-older-adult',
  'medication-sceptic',
  'cost-constrained',
  'engaged-self-manager',
  'newly-diagnosed',
] as const;

export type Persona = (typeof personas)[number];

export const ageBands = ['18-34', '35-44', '45-54', '55-64', '65-74', '75+'] as const;
export type AgeBand = (typeof ageBands)[number];

export type PersonaParameters = {
  /** Share of the cohort. */
  share: number;
  /** Relative weights over `ageBands`. */
  ageBandWeights: readonly number[];
  /** Relative weights of the preferred channel. */
  channelWeights: Readonly<Record<MessageChannel, number>>;
  /** Median chance of forgetting a dose occasion (varies between patients). */
  forgetProbability: number;
  /** Median chance of deliberately skipping a dose occasion, scaled by the patient's concerns. */
  skipProbability: number;
  /** Median necessity–concerns balance: 0 no concerns about the medicine, 1 strong concerns. */
  concerns: number;
  /** 0 no cost barrier, 1 every refill is a struggle. */
  costBarrier: number;
  /** Minutes later the morning dose falls at weekends. */
  weekendShiftMinutes: number;
  /**
   * Chance per month of stopping all medicines for a reason the persona's own description gives: concerns
   * about the medicine (sceptic), cost (cost-constrained), early doubts (newly diagnosed), a busy life that
   * lets refills lapse (busy professional). 0 where the description gives none (engaged self-manager,
   * forgetful older adult): they stop only with a life event (illness, a stressful period; life-events.ts).
   * Varies between patients around this median.
   */
  monthlyStopProbability: number;
  /** Chance per month that a patient who stopped starts again (judgement). */
  monthlyRestartProbability: number;
  /** Days of supply still left when the patient sets out to refill (negative: only after running out). */
  refillAheadDays: number;
  /**
   * Share of patients who refill by the calendar (repeat-prescription habit, pharmacy reminders) rather
   * than when their pills run low; their refill record stays regular while missed doses pile up at home.
   */
  calendarRefillShare: number;
  /** Mean days between setting out to refill and collecting it. */
  refillLagDays: number;
  /** Share of patients on 90-day rather than 30-day supplies. */
  ninetyDayShare: number;
  /** Share of forgetting a timely, fresh reminder prevents. */
  reminderResponsiveness: number;
  /** How much each category of message moves this persona, relative to a reminder. */
  categoryFit: Readonly<Record<MessageCategory, number>>;
  /** How much each framing helps (1 neutral; below 1 it backfires partly). */
  framingFit: Readonly<Record<MessageFraming, number>>;
  /** Chance of replying to a read message that asks for a reply. */
  replyProbability: number;
  /** Multiplier on the chance of replying STOP. */
  optOutPropensity: number;
  /** Chance of logging a taken dose in the app, at the start. */
  appLoggingProbability: number;
  /** Life events (travel, illness, stress, routine change) per year. */
  lifeEventsPerYear: number;
};

/*
 * Tuning targets for the no-message world (forgetting, skipping, stopping, restarting, refilling), the
 * bands of issue 11: mean 12-month refill PDC 0.50–0.62 (Naderi 2012: 57% adherent to cardiovascular
 * drugs; WHO 2003), 40–60% of patients at 12-month PDC ≥ 0.8 (Chowdhury 2013: 60%, 52–68; Taiwanese statin
 * users: 54% at one year), 50–70% persisting for 12 months per patient (Vrijens 2008: about half stop
 * within a year), and a decline month by month. Those figures together need a bimodal distribution —
 * persistent patients mostly adherent, discontinuers dropping out early (Vrijens 2008: once stopped, doses
 * are missed for good; while persisting, most are taken) — so the personas differ most in why and how
 * often they stop: the sceptic (concerns), the cost-constrained (cost) and the newly diagnosed (early
 * doubts) often, the busy professional sometimes (lapsed refills, then back), the engaged self-manager
 * and the forgetful older adult never without a life event. Which persona stops how often, the shares
 * of the personas, refill habits (calendar refills, days ahead, lag) and restart chances are judgements,
 * not literature figures: they are tuned so the cohort as a whole meets the bands.
 * Response numbers (responsiveness, fit, replies, opt-out) are tuned to Thakkar 2016 (OR 1.68–2.11 for
 * reminders), HeartSteps 2019 (effect wanes over weeks) and Klimis 2021 (~5.5% STOP, ~12% stay engaged),
 * never to make one policy look better than another.
 */
export const personaParameters: Readonly<Record<Persona, PersonaParameters>> = {
  'busy-professional': {
    share: 0.2,
    ageBandWeights: [3, 4, 4, 2, 0.5, 0],
    channelWeights: { sms: 1, whatsapp: 4, app: 3 },
    forgetProbability: 0.08,
    skipProbability: 0.02,
    concerns: 0.3,
    costBarrier: 0.1,
    weekendShiftMinutes: 90,
    monthlyStopProbability: 0.04,
    monthlyRestartProbability: 0.1,
    refillAheadDays: 2,
    calendarRefillShare: 0.65,
    refillLagDays: 1.5,
    ninetyDayShare: 0.35,
    reminderResponsiveness: 0.55,
    categoryFit: { reminder: 1, refill: 1, education: 0.3, encouragement: 0.4, 'check-in': 0.5 },
    framingFit: { neutral: 1, gain: 1.1, loss: 0.8, social: 0.9 },
    replyProbability: 0.15,
    optOutPropensity: 1.5,
    appLoggingProbability: 0.55,
    lifeEventsPerYear: 4,
  },
  'forgetful-older-adult': {
    share: 0.2,
    ageBandWeights: [0, 0, 0.5, 2, 4, 4],
    channelWeights: { sms: 5, whatsapp: 2, app: 1 },
    forgetProbability: 0.12,
    skipProbability: 0.01,
    concerns: 0.2,
    costBarrier: 0.15,
    weekendShiftMinutes: 15,
    monthlyStopProbability: 0,
    monthlyRestartProbability: 0.08,
    refillAheadDays: 3,
    calendarRefillShare: 0.8,
    refillLagDays: 2,
    ninetyDayShare: 0.45,
    reminderResponsiveness: 0.65,
    categoryFit: { reminder: 1, refill: 1, education: 0.3, encouragement: 0.5, 'check-in': 0.7 },
    framingFit: { neutral: 1, gain: 1, loss: 0.9, social: 1.1 },
    replyProbability: 0.3,
    optOutPropensity: 0.6,
    appLoggingProbability: 0.45,
    lifeEventsPerYear: 2,
  },
  'medication-sceptic': {
    share: 0.15,
    ageBandWeights: [2, 3, 3, 3, 2, 1],
    channelWeights: { sms: 3, whatsapp: 3, app: 1 },
    forgetProbability: 0.06,
    skipProbability: 0.12,
    concerns: 0.75,
    costBarrier: 0.15,
    weekendShiftMinutes: 45,
    monthlyStopProbability: 0.5,
    monthlyRestartProbability: 0.015,
    refillAheadDays: -1,
    calendarRefillShare: 0.2,
    refillLagDays: 2.5,
    ninetyDayShare: 0.15,
    reminderResponsiveness: 0.2,
    categoryFit: { reminder: 0.5, refill: 0.5, education: 1.2, encouragement: 0.6, 'check-in': 0.8 },
    framingFit: { neutral: 1, gain: 1.3, loss: 0.5, social: 0.8 },
    replyProbability: 0.08,
    optOutPropensity: 2.5,
    appLoggingProbability: 0.35,
    lifeEventsPerYear: 3,
  },
  'cost-constrained': {
    share: 0.15,
    ageBandWeights: [2, 3, 3, 3, 2, 1],
    channelWeights: { sms: 4, whatsapp: 3, app: 1 },
    forgetProbability: 0.07,
    skipProbability: 0.04,
    concerns: 0.35,
    costBarrier: 0.7,
    weekendShiftMinutes: 45,
    monthlyStopProbability: 0.35,
    monthlyRestartProbability: 0.03,
    refillAheadDays: -1,
    calendarRefillShare: 0.2,
    refillLagDays: 3,
    ninetyDayShare: 0.15,
    reminderResponsiveness: 0.35,
    categoryFit: { reminder: 0.8, refill: 1.3, education: 0.6, encouragement: 0.6, 'check-in': 0.8 },
    framingFit: { neutral: 1, gain: 1.1, loss: 0.8, social: 1 },
    replyProbability: 0.2,
    optOutPropensity: 1,
    appLoggingProbability: 0.45,
    lifeEventsPerYear: 3,
  },
  'engaged-self-manager': {
    share: 0.15,
    ageBandWeights: [1, 2, 3, 4, 3, 1],
    channelWeights: { sms: 1, whatsapp: 3, app: 4 },
    forgetProbability: 0.03,
    skipProbability: 0.005,
    concerns: 0.1,
    costBarrier: 0.05,
    weekendShiftMinutes: 30,
    monthlyStopProbability: 0,
    monthlyRestartProbability: 0.2,
    refillAheadDays: 5,
    calendarRefillShare: 0.85,
    refillLagDays: 1,
    ninetyDayShare: 0.55,
    reminderResponsiveness: 0.4,
    categoryFit: { reminder: 0.7, refill: 0.8, education: 0.6, encouragement: 1, 'check-in': 0.9 },
    framingFit: { neutral: 1, gain: 1.1, loss: 0.9, social: 0.9 },
    replyProbability: 0.45,
    optOutPropensity: 1.4,
    appLoggingProbability: 0.9,
    lifeEventsPerYear: 2.5,
  },
  'newly-diagnosed': {
    share: 0.15,
    ageBandWeights: [2, 3, 4, 3, 2, 0.5],
    channelWeights: { sms: 2, whatsapp: 4, app: 3 },
    forgetProbability: 0.08,
    skipProbability: 0.04,
    concerns: 0.45,
    costBarrier: 0.2,
    weekendShiftMinutes: 60,
    // Early discontinuation is the main loss in new users (Naderi 2012); see `newUserStopMultiplier`.
    monthlyStopProbability: 0.2,
    monthlyRestartProbability: 0.025,
    refillAheadDays: 2,
    calendarRefillShare: 0.6,
    refillLagDays: 1.5,
    ninetyDayShare: 0.05,
    reminderResponsiveness: 0.55,
    categoryFit: { reminder: 1, refill: 1, education: 1.2, encouragement: 1, 'check-in': 1 },
    framingFit: { neutral: 1, gain: 1.2, loss: 0.9, social: 1 },
    replyProbability: 0.35,
    optOutPropensity: 1,
    appLoggingProbability: 0.7,
    lifeEventsPerYear: 2.5,
  },
};

/**
 * Newly diagnosed patients stop most often in their first three months (Naderi 2012 reports the steepest
 * loss of adherence early after initiation); modelling assumption: 2.5× the monthly stop chance then.
 */
export const newUserStopMultiplier = 2.5;
export const newUserStopWindowDays = 90;
