/**
 * One simulated day of one patient, in the order things happen: life events, the policy's decision and
 * the message it sends, stopping or restarting therapy, refills, each dose occasion, replies, what the
 * monitoring saw, and the policy's feedback.
 *
 * Common random numbers: the draws for behaviour that happens with or without messages (stopping,
 * refilling, forgetting, skipping, dose timing) come from the behaviour stream in a fixed number per day,
 * and everything a message sets off comes from the messaging stream. The same patient under two policies
 * therefore lives the same days except where a message changes them, which keeps policy comparisons
 * sharp on modest cohorts.
 *
 * This is the simulator's inner loop (3.65 million calls for 10,000 patients over a year), so it avoids
 * allocating anything that is not output.
 */
import { isWeekend, minutesPerDay } from './calendar';
import { dispensedQuantity } from './demo-catalogue';
import { recordDoseDay } from './lapses';
import type { LifeEventEffect } from './life-events';
import { armIndex, messageCategories, templateId, templateVariantsPerArm, type MessageArm } from '@/engine/policy/message-arms';
import {
  channelReportsReads,
  deliveryFailureProbability,
  drawReadMinute,
  drawReplyText,
  educationConcernRelief,
  habituationFactor,
  lateDosePromptShare,
  optOutProbability,
  persistenceSupport,
  readProbability,
  refillPromptStrength,
  refillPromptWeight,
  reminderTimingFactor,
  replyProbability,
  restartPromptStrength,
  restartPromptWeight,
  stopProtection,
} from './message-response';
import type { PatientState, ProductState } from './patient-state';
import { newUserStopMultiplier, newUserStopWindowDays } from './personas';
import type { DecisionContext, MessagingPolicy, PolicyChoice } from '@/engine/policy/contract';
import { observedReward } from '@/engine/policy/personalised/observed-reward';
import { nextUniform } from './random';
import type { DoseStatus, Message, MessageStatusChange, ReplyIntent, SimulationSink } from './records';
import { addOnDay, totalUpTo } from './rolling-count';

/** Shared by every patient on a given day. */
export type SimulationDay = {
  day: number;
  dayIndex: number;
  weekday: number;
  /** Month of the run this day falls in, or -1 after the last full month. */
  monthIndex: number;
  /** Week of the run (days 0–6 are week 0). */
  weekIndex: number;
};

export type SimulationRun = {
  policy: MessagingPolicy;
  sink: SimulationSink;
  /** `retentionPowers[k]` = habituation.dailyRetention ** k. */
  retentionPowers: Float64Array;
};

/*
 * Adherence fatigue: forgetting creeps up over the year (×1.25 after 12 months). A judgement, not a
 * literature figure; the decline of refill adherence over the year (Naderi 2012; Chowdhury 2013) comes
 * mostly from patients discontinuing, not from this. Discontinuation itself does not grow over time: its
 * hazard is highest just after starting (newly diagnosed, see `newUserStopMultiplier`) and otherwise
 * constant, as in persistence curves of prevalent users (Vrijens 2008).
 */
const yearlyForgetDrift = 0.25;

/** Decision time: the start of the patient's day, before any dose. */
const decisionMinute = 5 * 60;

/** Days of supply below which cost-constrained patients stretch their pills (modelling assumption). */
const lowSupplyDays = 5;

const noLifeEvent: LifeEventEffect = {
  weight: 0,
  minimumDays: 0,
  maximumDays: 0,
  forgetMultiplier: 1,
  skipMultiplier: 1,
  monthlyStopProbability: 0,
  dailyStopProbability: 0,
  refillMultiplier: 1,
};

// What happened to a dose (simulation truth).
const taken = 0;
const forgotten = 1;
const skipped = 2;
const stopped = 3;
const withoutSupply = 4;

const morning = 0;
const evening = 1;

/*
 * Scratch space for one patient-day, reused (the simulator is single-threaded and finishes a patient's
 * day before starting the next).
 */
const occasionMinutes = new Int32Array(2);
const occasionOutcomes = new Uint8Array(2);
const occasionTakenMinutes = new Int32Array(2);
/** Outcome per (occasion, product) in the order doses are emitted. */
const doseOutcomes = new Uint8Array(64);
let doseOutcomeCount = 0;

/** What today's message does once read; reset at the start of each patient-day. */
type MessageEffect = {
  /** Minute it was read today, or -1 (not read, or only tomorrow). */
  readMinute: number;
  arm: MessageArm | null;
  /** Fit × freshness: how much of the persona's full response this message earns. */
  strength: number;
};
const todayEffect: MessageEffect = { readMinute: -1, arm: null, strength: 0 };

function resetTodayEffect(): void {
  todayEffect.readMinute = -1;
  todayEffect.arm = null;
  todayEffect.strength = 0;
}

type SentMessage = {
  record: Message;
  statusHistory: MessageStatusChange[];
  read: boolean;
  /** Minute read, counted from today's midnight (may pass 1440). */
  readMinute: number;
  /** Reading it made the patient reply STOP. */
  optedOut: boolean;
};

type Reply = { intent: ReplyIntent; minute: number; targetOccasion: number };

export function simulatePatientDay(state: PatientState, today: SimulationDay, run: SimulationRun): void {
  const { traits, patient } = state;
  const { dayIndex, weekday, day } = today;
  const sink = run.sink;

  const lifeEvent = currentLifeEvent(state, dayIndex);
  const routine = patient.routine;
  const morningMinute = Math.max(
    0,
    Math.min(minutesPerDay - 60, (routine.morning[weekday] ?? 480) + (isWeekend(weekday) ? 0 : state.routineShiftMinutes)),
  );
  const eveningMinute = routine.evening[weekday] ?? 1200;
  occasionMinutes[morning] = state.hasMorning ? morningMinute : -1;
  occasionMinutes[evening] = state.hasEvening ? eveningMinute : -1;
  resetTodayEffect();

  // 1. The policy decides and the message goes out.
  let context: DecisionContext | null = null;
  let choice: PolicyChoice | null = null;
  let sent: SentMessage | null = null;
  if (!state.optedOut && state.channel !== null) {
    context = buildDecisionContext(state, today, state.hasMorning ? morningMinute : eveningMinute);
    choice = run.policy.decide(context, state.policyRandom);
    if (choice.kind === 'message')
      sent = sendMessage(state, today, choice.arm, choice.minuteOfDay, state.hasMorning ? morningMinute : eveningMinute, run);
  }

  // 2. Stopping and restarting therapy: all the patient's medicines together (one behaviour draw), so a
  // patient either persists or discontinues, as refill records show (Vrijens 2008): the persona's own
  // reasons, or a life event.
  const newUserMultiplier = traits.isNewUser && dayIndex < newUserStopWindowDays ? newUserStopMultiplier : 1;
  const protection = state.support > 0 ? stopProtection(state.support) : 0;
  // Eased concerns (education) halve the stop chance at most (modelling assumption).
  const stopProbability =
    (traits.dailyStopProbability * newUserMultiplier + lifeEvent.dailyStopProbability) *
    (0.5 + 0.5 * state.concernsScale) *
    (1 - protection);
  let restartProbability = traits.dailyRestartProbability;
  if (todayEffect.arm !== null)
    restartProbability += restartPromptStrength * restartPromptWeight[todayEffect.arm.category] * todayEffect.strength;
  const therapyDraw = nextUniform(state.behaviour);
  if (state.onTherapy ? therapyDraw < stopProbability : therapyDraw < restartProbability) {
    state.onTherapy = !state.onTherapy;
    for (const product of state.products) {
      product.onTherapy = state.onTherapy;
      product.refillDue = false;
    }
  }

  // 3. Refills (one behaviour draw per product). New users collect their first fill on day 0.
  const refillPrompt =
    todayEffect.arm === null ? 0 : refillPromptStrength * refillPromptWeight[todayEffect.arm.category] * todayEffect.strength;
  const refillAhead = Math.max(0, traits.refillAheadDays);
  let lowSupply = false;
  for (const product of state.products) {
    const uniform = nextUniform(state.behaviour);
    if (!product.onTherapy) continue;
    const daysLeft = product.supplyDoses / product.dosesPerDay;
    const calendarDue = traits.refillsByCalendar && product.expectedSupplyDays <= refillAhead && daysLeft < traits.daysSupply;
    if (!product.refillDue && (daysLeft <= refillAhead || calendarDue)) product.refillDue = true;
    if (product.refillDue) {
      let probability = product.fills.length === 0 ? 1 : traits.dailyRefillProbability * lifeEvent.refillMultiplier;
      if (refillPrompt > 0) probability = 1 - (1 - probability) * (1 - refillPrompt);
      if (uniform < probability) dispense(state, product, day, sink);
    }
    if (product.supplyDoses / product.dosesPerDay <= lowSupplyDays) lowSupply = true;
  }

  // 4. Dose occasions: morning, then evening (four behaviour draws each).
  const forgetProbability = traits.forgetProbability * (1 + (yearlyForgetDrift * dayIndex) / 365) * lifeEvent.forgetMultiplier;
  // Running low, cost-constrained patients stretch their pills: up to 5× the skipping (modelling assumption).
  const skipProbability =
    traits.skipProbability * state.concernsScale * lifeEvent.skipMultiplier * (lowSupply ? 1 + 4 * traits.costBarrier : 1);
  const responsiveness = traits.reminderResponsiveness * todayEffect.strength;
  for (let occasion = morning; occasion <= evening; occasion += 1) {
    const scheduled = occasionMinutes[occasion] ?? -1;
    if (scheduled < 0) continue;
    const forgetDraw = nextUniform(state.behaviour);
    const skipDraw = nextUniform(state.behaviour);
    const jitter = nextUniform(state.behaviour) + nextUniform(state.behaviour) - 1;
    const prevented =
      todayEffect.readMinute >= 0 ? Math.min(0.95, responsiveness * reminderTimingFactor(scheduled - todayEffect.readMinute)) : 0;
    let outcome = taken;
    // Doses are taken within about ±45 minutes of the usual time (triangular; modelling assumption).
    let takenMinute = Math.max(0, scheduled + Math.round(jitter * 45));
    if (forgetDraw < forgetProbability * (1 - prevented)) {
      outcome = forgotten;
      // A message read after the dose time may still prompt a late dose.
      const lateAndAwake = todayEffect.readMinute > scheduled + 30 && todayEffect.readMinute < 23 * 60;
      if (lateAndAwake && nextUniform(state.messaging) < responsiveness * lateDosePromptShare) {
        outcome = taken;
        takenMinute = todayEffect.readMinute + 5 + Math.floor(nextUniform(state.messaging) * 15);
      }
    } else if (skipDraw < skipProbability) {
      outcome = skipped;
    }
    occasionOutcomes[occasion] = outcome;
    occasionTakenMinutes[occasion] = takenMinute;
  }

  // Per product and occasion: what happened, and the monthly tallies.
  doseOutcomeCount = 0;
  let dosesScheduled = 0;
  let dosesTaken = 0;
  let anyStopped = false;
  let anyWithoutSupply = false;
  const month = today.monthIndex;
  const week = today.weekIndex;
  const tally = state.tally;
  for (let occasion = morning; occasion <= evening; occasion += 1) {
    if ((occasionMinutes[occasion] ?? -1) < 0) continue;
    for (const product of state.products) {
      if (!(occasion === morning ? product.takesMorning : product.takesEvening)) continue;
      let outcome = occasionOutcomes[occasion] ?? forgotten;
      const available = product.onTherapy && product.supplyDoses >= 1;
      if (!product.onTherapy) {
        outcome = stopped;
        anyStopped = true;
      } else if (!available) {
        outcome = withoutSupply;
        anyWithoutSupply = true;
      } else if (outcome === taken) {
        product.supplyDoses -= 1;
      }
      doseOutcomes[doseOutcomeCount] = outcome;
      doseOutcomeCount += 1;
      dosesScheduled += 1;
      if (outcome === taken) dosesTaken += 1;
      if (available) {
        tally.weeklyScheduledAvailable[week]! += 1;
        if (outcome === taken) tally.weeklyTakenAvailable[week]! += 1;
      }
      if (month >= 0) {
        tally.scheduled[month]! += 1;
        if (available) tally.scheduledAvailable[month]! += 1;
        if (outcome === taken) {
          tally.taken[month]! += 1;
          tally.takenAvailable[month]! += 1;
        }
      }
    }
  }

  if (dosesScheduled > 0) recordDoseDay(state.lapses, traits.lifeEvents, dayIndex, dosesTaken > 0);

  // 5. A reply to today's message.
  let reply: Reply | null = null;
  if (sent !== null && sent.read && !sent.optedOut && choice !== null && choice.kind === 'message') {
    reply = drawReply(state, dayIndex, choice.arm, sent, anyStopped, anyWithoutSupply);
  }

  // 6. What the monitoring saw, as dose events.
  const dosesConfirmed = emitDoseEvents(state, today, reply, sink);

  // 7. The day's messages, then the policy's feedback.
  if (sent !== null) {
    if (sent.optedOut)
      emitReply(
        state,
        today,
        sent,
        { intent: 'stop', minute: sent.readMinute + 1 + Math.floor(nextUniform(state.messaging) * 10), targetOccasion: 0 },
        sink,
      );
    else if (reply !== null) emitReply(state, today, sent, reply, sink);
    else sink.message?.(sent.record);
  }
  if (context !== null && choice !== null && run.policy.learn !== undefined) {
    const replied = reply !== null;
    run.policy.learn({
      context,
      choice,
      reward: dosesScheduled === 0 ? 0 : dosesTaken / dosesScheduled,
      // Only what the product sees: the same function scores live decisions.
      observedReward: observedReward({
        dosesScheduled,
        dosesConfirmed,
        replied,
        optedOut: state.optedOut,
        doseObserver: patient.doseObserver,
      }),
      outcome: {
        dosesScheduled,
        dosesTaken,
        dosesConfirmed,
        delivered: sent === null ? null : !sent.statusHistory.some((change) => change.status === 'failed'),
        replied,
        optedOut: state.optedOut,
      },
    });
  }

  // 8. The night: support fades, the product's view of supply moves on a day.
  state.support *= persistenceSupport.dailyRetention;
  for (const product of state.products) if (product.expectedSupplyDays > 0) product.expectedSupplyDays -= 1;
}

/**
 * Before the first day: patients already on therapy hold what is left of a fill collected before the
 * run (they are assumed to have taken it as prescribed so far). The fill is output too, dated then.
 */
export function startTherapy(state: PatientState, startDay: number, sink: SimulationSink): void {
  state.products.forEach((product, index) => {
    const daysAgo = state.traits.priorFillDaysAgo[index];
    if (daysAgo === undefined) return;
    dispense(state, product, startDay - daysAgo, sink);
    product.supplyDoses -= daysAgo * product.dosesPerDay;
    product.expectedSupplyDays -= daysAgo;
  });
}

function currentLifeEvent(state: PatientState, dayIndex: number): LifeEventEffect {
  const events = state.traits.lifeEvents;
  let event = events[state.lifeEventPointer];
  while (event !== undefined && event.endIndex <= dayIndex) {
    state.lifeEventPointer += 1;
    event = events[state.lifeEventPointer];
  }
  if (event === undefined || event.startIndex > dayIndex) return noLifeEvent;
  if (event.startIndex === dayIndex) state.routineShiftMinutes += event.routineShiftMinutes;
  return event.effect;
}

function buildDecisionContext(state: PatientState, today: SimulationDay, firstDoseMinute: number): DecisionContext {
  const { dayIndex } = today;
  let estimatedDaysOfSupplyLeft = Infinity;
  for (const product of state.products) estimatedDaysOfSupplyLeft = Math.min(estimatedDaysOfSupplyLeft, product.expectedSupplyDays);
  return {
    patientId: state.patient.id,
    persona: state.patient.persona,
    features: state.features,
    day: today.day,
    dayIndex,
    weekday: today.weekday,
    minuteOfDay: decisionMinute,
    firstDoseMinute,
    recentHistory: {
      dosesScheduledLast7Days: totalUpTo(state.dosesScheduledLastWeek, dayIndex),
      dosesConfirmedLast7Days: totalUpTo(state.dosesConfirmedLastWeek, dayIndex),
      daysSinceLastReply: state.lastReplyDayIndex < 0 ? null : dayIndex - state.lastReplyDayIndex,
      estimatedDaysOfSupplyLeft: Number.isFinite(estimatedDaysOfSupplyLeft) ? estimatedDaysOfSupplyLeft : 0,
    },
    messageCounts: {
      last7Days: totalUpTo(state.messagesLastWeek, dayIndex),
      last28Days: totalUpTo(state.messagesLastFourWeeks, dayIndex),
      total: state.messagesSent,
      repliesLast28Days: totalUpTo(state.repliesLastFourWeeks, dayIndex),
    },
  };
}

function sendMessage(
  state: PatientState,
  today: SimulationDay,
  arm: MessageArm,
  requestedMinute: number,
  firstDoseMinute: number,
  run: SimulationRun,
): SentMessage {
  const { dayIndex, day } = today;
  const channel = state.channel ?? state.patient.preferredChannel;
  const parameters = state.parameters;

  // Freshness of this arm before it is sent (habituation); then the exposures take it in.
  const armSlot = armIndex(arm.category, arm.framing);
  const categorySlot = messageCategories.indexOf(arm.category);
  const armExposure = (state.armExposure[armSlot] ?? 0) * (run.retentionPowers[dayIndex - (state.armExposureDay[armSlot] ?? 0)] ?? 0);
  const categoryExposure =
    (state.categoryExposure[categorySlot] ?? 0) * (run.retentionPowers[dayIndex - (state.categoryExposureDay[categorySlot] ?? 0)] ?? 0);
  const anyExposure = state.anyExposure * (run.retentionPowers[dayIndex - state.anyExposureDay] ?? 0);
  const freshness = habituationFactor(armExposure, categoryExposure, anyExposure);
  state.armExposure[armSlot] = armExposure + 1;
  state.armExposureDay[armSlot] = dayIndex;
  state.categoryExposure[categorySlot] = categoryExposure + 1;
  state.categoryExposureDay[categorySlot] = dayIndex;
  state.anyExposure = anyExposure + 1;
  state.anyExposureDay = dayIndex;

  const sentMinute = Math.max(0, Math.min(minutesPerDay - 1, Math.round(requestedMinute)));
  state.messagesSent += 1;
  addOnDay(state.messagesLastWeek, dayIndex, 1);
  addOnDay(state.messagesLastFourWeeks, dayIndex, 1);
  addOnDay(state.messagesThisWeek, dayIndex, 1);
  const sequence = state.messagesSent;
  const statusHistory: MessageStatusChange[] = [{ status: 'sent', day, minute: sentMinute }];
  const record: Message = {
    id: `${state.patient.id}-m${sequence}`,
    patientId: state.patient.id,
    day,
    minute: sentMinute,
    channel,
    direction: 'outbound',
    category: arm.category,
    framing: arm.framing,
    templateId: templateId(arm, ((sequence - 1) % templateVariantsPerArm) + 1),
    statusHistory,
    replyText: null,
    replyIntent: null,
    inReplyToId: null,
  };
  const message: SentMessage = { record, statusHistory, read: false, readMinute: -1, optedOut: false };

  const stream = state.messaging;
  if (nextUniform(stream) < deliveryFailureProbability[channel]) {
    statusHistory.push({ status: 'failed', day, minute: Math.min(minutesPerDay - 1, sentMinute + 1) });
    return message;
  }
  const deliveredMinute = Math.min(
    minutesPerDay - 1,
    sentMinute + (nextUniform(stream) < 0.9 ? 0 : 1 + Math.floor(nextUniform(stream) * 5)),
  );
  statusHistory.push({ status: 'delivered', day, minute: deliveredMinute });
  if (nextUniform(stream) >= readProbability(channel, freshness)) return message;

  const busyAtWork = state.patient.persona === 'busy-professional' && !isWeekend(today.weekday);
  // Patients wake about half an hour before their first dose.
  const wakeMinute = Math.max(300, firstDoseMinute - 30);
  const readMinute = Math.max(deliveredMinute, drawReadMinute(stream, { deliveredMinute, wakeMinute, busyAtWork }));
  message.read = true;
  message.readMinute = readMinute;
  if (channelReportsReads(channel)) statusHistory.push(statusAt('read', day, readMinute));

  // What reading it does.
  const strength = parameters.categoryFit[arm.category] * parameters.framingFit[arm.framing] * freshness;
  state.support += persistenceSupport.categoryWeight[arm.category] * strength;
  if (arm.category === 'education') state.concernsScale *= 1 - educationConcernRelief * strength;
  if (readMinute < minutesPerDay) {
    todayEffect.readMinute = readMinute;
    todayEffect.arm = arm;
    todayEffect.strength = strength;
  }

  // Burden: a STOP ends all messaging (Klimis 2021).
  const stopProbability = optOutProbability({
    propensity: state.traits.optOutPropensity,
    messagesLast7Days: totalUpTo(state.messagesThisWeek, dayIndex),
    messagesReceived: state.messagesSent,
    sentMinute,
    framingFit: parameters.framingFit[arm.framing],
  });
  if (nextUniform(stream) < stopProbability) {
    state.optedOut = true;
    state.optOutDay = day;
    message.optedOut = true;
  }
  return message;
}

/** A minute counted from `day`'s midnight, possibly past 1440, as a day and a minute of that day. */
function statusAt(status: MessageStatusChange['status'], day: number, minute: number): MessageStatusChange {
  return { status, day: day + Math.floor(minute / minutesPerDay), minute: minute % minutesPerDay };
}

function dispense(state: PatientState, product: ProductState, day: number, sink: SimulationSink): void {
  const daysSupply = state.traits.daysSupply;
  product.supplyDoses += daysSupply * product.dosesPerDay;
  product.expectedSupplyDays += daysSupply;
  product.refillDue = false;
  product.fills.push({ day, daysSupply, drug: product.product.id });
  sink.dispensing?.({
    patientId: state.patient.id,
    productId: product.product.id,
    day,
    daysSupply,
    quantity: dispensedQuantity(product.product, daysSupply),
    source: 'simulation',
  });
}

/** Which dose occasion a reply is about: the first one still within three hours of reading. */
function targetOccasion(readMinute: number): number {
  for (let occasion = morning; occasion <= evening; occasion += 1) {
    const minute = occasionMinutes[occasion] ?? -1;
    if (minute >= 0 && minute + 180 >= readMinute) return occasion;
  }
  return (occasionMinutes[evening] ?? -1) >= 0 ? evening : morning;
}

function drawReply(
  state: PatientState,
  dayIndex: number,
  arm: MessageArm,
  sent: SentMessage,
  anyStopped: boolean,
  anyWithoutSupply: boolean,
): Reply | null {
  const stream = state.messaging;
  const channel = sent.record.channel;
  if (
    nextUniform(stream) >=
    replyProbability({ propensity: state.traits.replyProbability, channel, category: arm.category, messagesReceived: state.messagesSent })
  )
    return null;
  const delay = 1 + Math.floor(nextUniform(stream) * 15);
  const occasion = targetOccasion(sent.readMinute);
  let intent: ReplyIntent;
  let minute = sent.readMinute + delay;
  switch (arm.category) {
    case 'reminder': {
      const outcome = occasionOutcomes[occasion] ?? forgotten;
      if (anyWithoutSupply) intent = 'need-refill';
      else if (anyStopped) intent = state.traits.concerns > 0.5 ? 'side-effects' : 'skipped';
      else if (outcome === taken) {
        intent = 'taken';
        minute = Math.max(sent.readMinute, occasionTakenMinutes[occasion] ?? sent.readMinute) + delay;
      } else intent = outcome === skipped ? 'skipped' : 'later';
      break;
    }
    case 'check-in': {
      if (anyWithoutSupply) intent = 'need-refill';
      else if (reportedWeekShare(state, dayIndex) >= 0.85) intent = 'all-good';
      else intent = state.traits.concerns > 0.5 ? 'side-effects' : 'struggling';
      break;
    }
    case 'refill':
      intent = state.products.some((product) => product.refillDue) ? 'later' : 'thanks';
      break;
    case 'education':
      intent = nextUniform(stream) < 0.3 ? 'question' : 'thanks';
      break;
    case 'encouragement':
      intent = 'thanks';
      break;
  }
  return { intent, minute, targetOccasion: occasion };
}

/** How well the patient says last week went: confirmations undercount doses, and self-reports are kind. */
function reportedWeekShare(state: PatientState, dayIndex: number): number {
  const scheduled = totalUpTo(state.dosesScheduledLastWeek, dayIndex);
  const confirmed = totalUpTo(state.dosesConfirmedLastWeek, dayIndex);
  return scheduled === 0 ? 1 : Math.min(1, (confirmed / scheduled) * 1.3 + 0.2);
}

/** Outputs the outbound message with the reply's text on it, then the reply itself. */
function emitReply(state: PatientState, today: SimulationDay, sent: SentMessage, reply: Reply, sink: SimulationSink): void {
  const text = drawReplyText(state.messaging, reply.intent);
  if (reply.intent !== 'stop') {
    state.replies += 1;
    state.lastReplyDayIndex = today.dayIndex;
    addOnDay(state.repliesLastFourWeeks, today.dayIndex, 1);
    // Two-way engagement supports persistence more than one-way messages (Wald 2015).
    state.support += persistenceSupport.replyBonus;
  }
  if (sink.message === undefined) return;
  sink.message({ ...sent.record, replyText: text });
  const replyAt = statusAt('delivered', today.day, reply.minute);
  sink.message({
    id: `${sent.record.id}-r`,
    patientId: state.patient.id,
    day: replyAt.day,
    minute: replyAt.minute,
    channel: sent.record.channel,
    direction: 'inbound',
    category: sent.record.category,
    framing: null,
    templateId: null,
    statusHistory: [replyAt],
    replyText: text,
    replyIntent: reply.intent,
    inReplyToId: sent.record.id,
  });
}

/** App engagement fades over months (Klimis 2021: few stay engaged); logging falls towards 35% of its start. */
function appLoggingProbability(state: PatientState, dayIndex: number): number {
  return state.traits.appLoggingProbability * (0.35 + 0.65 * Math.exp(-dayIndex / 150));
}

/** Emits the day's dose events as the monitoring saw them; returns how many were confirmed taken. */
function emitDoseEvents(state: PatientState, today: SimulationDay, reply: Reply | null, sink: SimulationSink): number {
  const observer = state.patient.doseObserver;
  const loggingProbability = observer === 'app' ? appLoggingProbability(state, today.dayIndex) : 0;
  let slot = 0;
  let confirmedCount = 0;
  for (let occasion = morning; occasion <= evening; occasion += 1) {
    const scheduledMinute = occasionMinutes[occasion] ?? -1;
    if (scheduledMinute < 0) continue;
    const occasionOutcome = occasionOutcomes[occasion] ?? forgotten;
    // One look per occasion: the patient logs (or the reply covers) all of that occasion's doses at once.
    let logged = false;
    let loggedMinute = -1;
    if (observer === 'app') {
      logged = nextUniform(state.observation) < (occasionOutcome === skipped ? loggingProbability * 0.5 : loggingProbability);
      loggedMinute = (occasionTakenMinutes[occasion] ?? scheduledMinute) + Math.floor(nextUniform(state.observation) * 20);
    } else if (
      observer === 'whatsapp' &&
      reply !== null &&
      reply.targetOccasion === occasion &&
      (reply.intent === 'taken' || reply.intent === 'skipped')
    ) {
      logged = true;
      loggedMinute = reply.minute;
    }
    for (const product of state.products) {
      if (!(occasion === morning ? product.takesMorning : product.takesEvening)) continue;
      const outcome = doseOutcomes[slot] ?? forgotten;
      slot += 1;
      let status: DoseStatus = 'unknown';
      let confirmedMinute = -1;
      if (observer === 'smart-bottle') {
        if (outcome === taken) {
          status = 'taken';
          confirmedMinute = occasionTakenMinutes[occasion] ?? scheduledMinute;
        } else status = 'missed';
      } else if (logged) {
        if (outcome === taken && (observer === 'app' || reply?.intent === 'taken')) {
          status = 'taken';
          confirmedMinute = loggedMinute;
        } else if (outcome === skipped) {
          status = 'skipped';
        }
      }
      if (status === 'taken') confirmedCount += 1;
      if (sink.doseEvent !== undefined) {
        const confirmedDay = confirmedMinute < 0 ? null : today.day + Math.floor(confirmedMinute / minutesPerDay);
        sink.doseEvent({
          patientId: state.patient.id,
          productId: product.product.id,
          scheduledDay: today.day,
          scheduledMinute,
          confirmedDay,
          confirmedMinute: confirmedMinute < 0 ? null : confirmedMinute % minutesPerDay,
          status,
          source: observer,
        });
      }
    }
  }
  addOnDay(state.dosesScheduledLastWeek, today.dayIndex, slot);
  addOnDay(state.dosesConfirmedLastWeek, today.dayIndex, confirmedCount);
  return confirmedCount;
}
