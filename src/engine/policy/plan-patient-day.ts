/**
 * One patient's live decision for one local day (the daily loop, docs/decisions/018-daily-loop.md): asks the
 * policy with a random stream seeded by (patient, local date, policy version), picks the template variant the
 * way the simulator rotates them, and times the message in the patient's zone — never in quiet hours and
 * within the frequency cap. Pure: the caller reads the history and writes the decision.
 */
import { fnv1a32 } from '@/engine/hash/fnv1a';
import { isoFromDayNumber } from '@/engine/adherence/day-number';
import { checkFrequencyCap, type FrequencyCap } from '@/engine/messaging/frequency-cap';
import { localClockAt, type LocalClock } from '@/engine/messaging/local-clock';
import { defaultQuietHours, planSendTime, type QuietHours } from '@/engine/messaging/quiet-hours';
import { createRandomStream, nextUniform } from '@/engine/simulation/random';
import type { Persona } from '@/engine/simulation/personas';
import type { DecisionContext, MessageCounts, MessagingPolicy, PatientFeatures, RecentHistory, SurveyPersona } from './contract';
import { templateId, templateVariantsPerArm, type MessageArm } from './message-arms';

export type PatientDayInput = {
  patientId: string;
  persona: Persona;
  /** The patient's stored survey posterior, when they have one. */
  surveyPersona?: SurveyPersona | null;
  features: PatientFeatures;
  /** IANA zone of the patient (their local day and quiet hours are in it). */
  timeZone: string;
  /** Epoch ms when the plan is made. */
  now: number;
  /** Day number (days since 1970-01-01) of the patient's first live decision; null: this is the first. */
  programmeStartDay: number | null;
  /** The patient's usual time of the day's first dose (local minutes after midnight). */
  firstDoseMinute: number;
  recentHistory: RecentHistory;
  messageCounts: MessageCounts;
  /** When recent proactive messages went or are due to go (epoch ms), for the frequency cap. */
  recentSendTimes: readonly number[];
  policy: MessagingPolicy;
  quietHours?: QuietHours;
  frequencyCaps?: readonly FrequencyCap[];
  /** Development only (/dev/phone): send at `now`, ignoring the chosen minute and quiet hours. */
  devSendNow?: boolean;
  /** Features the record lacked and the caller filled with a default, so the log says which were not observed. */
  missingFeatures?: readonly string[];
};

/** What the loop stores in policy_decisions (context as the policy saw it, plus what planning added). */
export type PlannedPatientDay = {
  localDate: string;
  context: DecisionContext & {
    timeZone: string;
    devSendNow?: true;
    missingFeatures?: readonly string[];
    /** Why the planned send time is not the chosen minute: quiet hours, or the minute had passed. */
    sendTimeMoved?: 'quiet-hours' | 'not-before';
  };
  policyName: string;
  policyVersion: string;
  randomSeed: string;
  action: 'no-message' | 'message';
  arm: MessageArm | null;
  templateId: string | null;
  /** The local minute the policy chose (null for no message). */
  minuteOfDay: number | null;
  propensity: number;
  /** Every action's probability as the policy reported it (PolicyChoice.armProbabilities); null when it reports none. */
  armProbabilities: readonly number[] | null;
  /** Epoch ms the message is due; null when nothing will be sent. */
  scheduledFor: number | null;
  status: 'planned' | 'no-message' | 'not-sent';
  /** Why nothing is scheduled ('policy', 'quiet-hours', 'frequency-cap'); null for a planned message. */
  statusReason: string | null;
};

/** The recorded seed of a decision: replaying it gives the same draws. */
export function decisionSeed(patientId: string, localDate: string, policy: Pick<MessagingPolicy, 'name' | 'version'>): string {
  return `${patientId}|${localDate}|${policy.name}@${policy.version}`;
}

/** FNV-1a over the seed text, to a 32-bit integer the simulator's stream constructor takes. */
const hashSeed = (text: string): number => fnv1a32(text) | 0;

/** The policy's random source for a seed text (the simulator's 'policy' stream, keyed by the text's hash). */
export function randomSourceForSeed(seed: string): () => number {
  const stream = createRandomStream(hashSeed(seed), 0, 'policy');
  return () => nextUniform(stream);
}

// The daily loop plans thousands of patients of one zone at one instant: the clock arithmetic (Intl, a few
// microseconds a call, several calls a patient) is the same for all of them, so it is remembered. Results are
// pure functions of the key; the bound only keeps a long-lived process from growing.
const clockCache = new Map<string, LocalClock>();
const sendCache = new Map<string, { sendAt: number; moved: 'quiet-hours' | 'not-before' | null; sameDay: boolean }>();
const cacheBound = 10_000;

function remember<Value>(cache: Map<string, Value>, key: string, compute: () => Value): Value {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= cacheBound) cache.clear();
    value = compute();
    cache.set(key, value);
  }
  return value;
}

export function planPatientDay(input: PatientDayInput): PlannedPatientDay {
  const { policy, timeZone, now } = input;
  const clock = remember(clockCache, `${timeZone}|${now}`, () => localClockAt(now, timeZone));
  const localDate = isoFromDayNumber(clock.day);
  const randomSeed = decisionSeed(input.patientId, localDate, policy);
  const context: PlannedPatientDay['context'] = {
    patientId: input.patientId,
    persona: input.persona,
    ...(input.surveyPersona === undefined || input.surveyPersona === null ? {} : { surveyPersona: input.surveyPersona }),
    features: input.features,
    day: clock.day,
    dayIndex: input.programmeStartDay === null ? 0 : Math.max(0, clock.day - input.programmeStartDay),
    // 1970-01-01 (day 0) was a Thursday.
    weekday: (((clock.day + 4) % 7) + 7) % 7,
    minuteOfDay: clock.minute,
    firstDoseMinute: input.firstDoseMinute,
    recentHistory: input.recentHistory,
    messageCounts: input.messageCounts,
    timeZone,
    ...(input.devSendNow === true ? { devSendNow: true as const } : {}),
    ...(input.missingFeatures !== undefined && input.missingFeatures.length > 0 ? { missingFeatures: input.missingFeatures } : {}),
  };
  const choice = policy.decide(context, randomSourceForSeed(randomSeed));
  const base = {
    localDate,
    context,
    policyName: policy.name,
    policyVersion: policy.version,
    randomSeed,
    propensity: choice.propensity,
    armProbabilities: choice.armProbabilities ?? null,
  };
  if (choice.kind === 'no-message') {
    return {
      ...base,
      action: 'no-message',
      arm: null,
      templateId: null,
      minuteOfDay: null,
      scheduledFor: null,
      status: 'no-message',
      statusReason: 'policy',
    };
  }
  // As the simulator: the variant follows the patient's running count of messages, so they rotate.
  const variant = (input.messageCounts.total % templateVariantsPerArm) + 1;
  const message = {
    ...base,
    action: 'message' as const,
    arm: choice.arm,
    templateId: templateId(choice.arm, variant),
    minuteOfDay: choice.minuteOfDay,
  };
  let sendAt: number;
  let moved: 'quiet-hours' | 'not-before' | null = null;
  if (input.devSendNow === true) sendAt = now;
  else {
    const quietHours = input.quietHours ?? defaultQuietHours;
    const minute = Math.max(0, Math.min(1439, Math.round(choice.minuteOfDay)));
    const planned = remember(
      sendCache,
      `${timeZone}|${clock.day}|${minute}|${now}|${quietHours.startMinute}|${quietHours.endMinute}`,
      () => {
        const send = planSendTime({ timeZone, day: clock.day, minute, notBefore: now, quietHours });
        return { sendAt: send.sendAt, moved: send.moved, sameDay: localClockAt(send.sendAt, timeZone).day === clock.day };
      },
    );
    // Quiet hours that last until tomorrow would carry today's message into tomorrow's decision: give it up.
    if (!planned.sameDay) return { ...message, scheduledFor: null, status: 'not-sent', statusReason: 'quiet-hours' };
    sendAt = planned.sendAt;
    moved = planned.moved;
  }
  const cap = checkFrequencyCap({ now: sendAt, sentAt: input.recentSendTimes, caps: input.frequencyCaps });
  if (!cap.allowed) return { ...message, scheduledFor: null, status: 'not-sent', statusReason: 'frequency-cap' };
  return {
    ...message,
    context: moved === null ? context : { ...context, sendTimeMoved: moved },
    scheduledFor: sendAt,
    status: 'planned',
    statusReason: null,
  };
}
