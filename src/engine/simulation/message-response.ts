/**
 * How a patient responds to a message: whether it arrives and is read, how much it helps given its
 * content, timing and what came before (habituation), and whether it draws a reply or a STOP (burden).
 * The simulation loop applies these; they are separate so that each can be tested on its own.
 */
import type { MessageCategory, MessageChannel } from '@/engine/policy/message-arms';
import { nextUniform, type RandomStream } from './random';
import type { ReplyIntent } from './records';

/**
 * Habituation (HeartSteps 2019: the effect of a prompt starts high, about +66% early, and shrinks over
 * weeks). Exposure to past messages decays by `dailyRetention` a day; the same arm habituates most, the
 * same category less, any message a little. A daily identical reminder settles near 0.3 of its first
 * effect after 4–6 weeks; a weekly one near 0.7.
 */
export const habituation = {
  dailyRetention: 0.95,
  sameArmWeight: 0.12,
  sameCategoryWeight: 0.04,
  anyMessageWeight: 0.01,
} as const;

/** Share of a message's first-time effect that is left after the exposure so far (1 = fresh). */
export function habituationFactor(sameArmExposure: number, sameCategoryExposure: number, anyMessageExposure: number): number {
  const otherArmsOfCategory = Math.max(0, sameCategoryExposure - sameArmExposure);
  return (
    1 /
    (1 +
      habituation.sameArmWeight * sameArmExposure +
      habituation.sameCategoryWeight * otherArmsOfCategory +
      habituation.anyMessageWeight * anyMessageExposure)
  );
}

/** Modelling assumption: typical undelivered rates (carrier failures, app push tokens gone stale). */
export const deliveryFailureProbability: Readonly<Record<MessageChannel, number>> = { sms: 0.02, whatsapp: 0.01, app: 0.03 };

/** Modelling assumption: messaging apps are read almost always, push notifications are often swiped away. */
const baseReadProbability: Readonly<Record<MessageChannel, number>> = { sms: 0.9, whatsapp: 0.92, app: 0.7 };

/** Repeated content gets skimmed or ignored: up to half of reads are lost to habituation (HeartSteps 2019). */
export function readProbability(channel: MessageChannel, habituationLeft: number): number {
  return baseReadProbability[channel] * (0.5 + 0.5 * habituationLeft);
}

/** SMS has no read receipts; WhatsApp and in-app messages report reads. */
export function channelReportsReads(channel: MessageChannel): boolean {
  return channel !== 'sms';
}

/**
 * Minute a delivered message is read (may exceed 1440: read the next day). Asleep: on waking. Busy
 * professionals read late during working hours. Otherwise an exponential delay of about 20 minutes.
 */
export function drawReadMinute(
  stream: RandomStream,
  options: { deliveredMinute: number; wakeMinute: number; busyAtWork: boolean },
): number {
  const { deliveredMinute, wakeMinute } = options;
  const uniform = nextUniform(stream);
  if (deliveredMinute < wakeMinute) return wakeMinute + Math.floor(uniform * 30);
  if (deliveredMinute >= 23 * 60) return 1440 + wakeMinute + Math.floor(uniform * 30);
  const atWork = options.busyAtWork && deliveredMinute >= 9 * 60 && deliveredMinute < 17 * 60;
  const meanDelay = atWork ? 90 : 20;
  return deliveredMinute + Math.floor(-Math.log(1 - uniform) * meanDelay);
}

/**
 * How much of a reminder's effect reaches a dose, by minutes from reading to the dose time. Best within
 * two hours before (or just after) the dose; read hours earlier it is half forgotten again. Modelling
 * assumption in line with just-in-time prompting (HeartSteps 2019: prompts act in the next hours).
 */
export function reminderTimingFactor(minutesBeforeDose: number): number {
  if (minutesBeforeDose < -30) return 0;
  if (minutesBeforeDose <= 120) return 1;
  if (minutesBeforeDose <= 360) return 0.6;
  return 0.3;
}

/** A read message that arrives after a forgotten dose time prompts a late dose this often (× its strength; part of the Thakkar 2016 tuning). */
export const lateDosePromptShare = 0.8;

/*
 * Prompts to refill and to restart. Relative weights by category are modelling assumptions; the
 * strengths are tuned, together with `persistenceSupport`, so that a year of fixed daily reminders
 * raises the odds of 12-month PDC ≥ 0.8 within Thakkar 2016's range (OR 1.68 after bias correction, 2.11
 * before; the band asserted is 1.3–2.2): measured 1.43–1.47 for seeds 1 and 2, below the published
 * estimates rather than above them. Recalibrated with the no-message world (issue 11): with a bimodal
 * world a reminder moves fewer patients just across 0.8, so the protection against stopping and the
 * restart prompt are stronger than before (0.65 and 0.06, were 0.5 and 0.03); both are judgements.
 */
/** How strongly each category prompts a due refill, relative to a refill reminder. */
export const refillPromptWeight: Readonly<Record<MessageCategory, number>> = {
  reminder: 0.4,
  refill: 1,
  education: 0.15,
  encouragement: 0.15,
  'check-in': 0.6,
};
/** A fully fresh refill reminder turns this share of "not today" into collecting today. */
export const refillPromptStrength = 0.5;

/** Chance a fresh, well-fitting message gets a patient who stopped to start again that day. */
export const restartPromptStrength = 0.06;
export const restartPromptWeight: Readonly<Record<MessageCategory, number>> = {
  reminder: 1,
  refill: 0.8,
  education: 1.2,
  encouragement: 0.8,
  'check-in': 1,
};

/**
 * Support that keeps patients on therapy. Each read message adds to it (scaled by fit and habituation),
 * a reply adds more: two-way messaging helps more than one-way (Wald 2015: RR 1.23 vs 1.04). It fades
 * by `dailyRetention` a day and lowers the daily chance of stopping by up to `maximumProtection`.
 */
export const persistenceSupport = {
  dailyRetention: 0.97,
  replyBonus: 0.8,
  saturation: 5,
  maximumProtection: 0.65,
  categoryWeight: { reminder: 1, refill: 0.6, education: 1.2, encouragement: 1, 'check-in': 1.3 } as Readonly<
    Record<MessageCategory, number>
  >,
} as const;

export function stopProtection(support: number): number {
  return persistenceSupport.maximumProtection * (1 - Math.exp(-support / persistenceSupport.saturation));
}

/** Education read and found convincing eases concerns a little each time (modelling assumption). */
export const educationConcernRelief = 0.03;

/**
 * Chance that reading a message makes the patient reply STOP. Burden drives it: messages in the last
 * 7 days beyond two add 40% each; the first messages of a programme and night-time messages provoke it
 * most; an ill-fitting framing annoys. `base` is tuned so a year of daily reminders ends with about
 * 5.5% opted out (Klimis 2021), inside the 4–8% band the calibration asserts.
 */
export const optOut = {
  base: 0.000062,
  burdenPerMessageOverTwo: 0.4,
  noveltyBoost: 3,
  noveltyMessages: 10,
  nightMultiplier: 3,
  poorFitMultiplier: 2,
} as const;

export function optOutProbability(options: {
  propensity: number;
  messagesLast7Days: number;
  messagesReceived: number;
  sentMinute: number;
  framingFit: number;
}): number {
  const burden = 1 + optOut.burdenPerMessageOverTwo * Math.max(0, options.messagesLast7Days - 2);
  const novelty = 1 + optOut.noveltyBoost * Math.exp(-options.messagesReceived / optOut.noveltyMessages);
  const night = options.sentMinute < 7 * 60 || options.sentMinute >= 22 * 60 ? optOut.nightMultiplier : 1;
  const poorFit = 1 + optOut.poorFitMultiplier * Math.max(0, 1 - options.framingFit);
  return optOut.base * options.propensity * burden * novelty * night * poorFit;
}

// Modelling assumption: WhatsApp invites replies more than SMS; check-ins ask for one, education does not.
const replyChannelFactor: Readonly<Record<MessageChannel, number>> = { sms: 0.8, whatsapp: 1.2, app: 1 };
const replyCategoryFactor: Readonly<Record<MessageCategory, number>> = {
  reminder: 1,
  refill: 0.8,
  education: 0.3,
  encouragement: 0.3,
  'check-in': 1.6,
};

/**
 * Chance of replying to a read message. Engagement fades with the number of messages received towards
 * a floor of 12% of the first weeks' level (Klimis 2021: only ~12% stay engaged long term).
 */
export function replyProbability(options: {
  propensity: number;
  channel: MessageChannel;
  category: MessageCategory;
  messagesReceived: number;
}): number {
  const engagement = 0.12 + 0.88 * Math.exp(-options.messagesReceived / 40);
  return Math.min(0.95, options.propensity * replyChannelFactor[options.channel] * replyCategoryFactor[options.category] * engagement);
}

/** Reply texts by intent, as patients type them; the simulator picks one at random. */
export const replyTexts: Readonly<Record<ReplyIntent, readonly string[]>> = {
  taken: ['Taken', 'Done ✅', 'Yes taken', 'Took it', '👍'],
  later: ['Later', 'Will do', 'Not yet', 'In a bit'],
  skipped: ['Skipping today', 'Not today', 'Skip'],
  'need-refill': ['Run out', 'Need a refill', 'None left'],
  'side-effects': ['Side effects again', 'Feeling dizzy on them', 'They upset my stomach'],
  thanks: ['Thanks', 'Thank you', 'Ok thanks', '🙏'],
  question: ['Can I take it with food?', 'What if I miss one?', 'Is it ok with alcohol?'],
  'all-good': ['All good', 'Fine this week', 'Yes all taken'],
  struggling: ['Struggling to remember', 'Missed a few', 'Not great'],
  stop: ['STOP'],
};

export function drawReplyText(stream: RandomStream, intent: ReplyIntent): string {
  const texts = replyTexts[intent];
  return texts[Math.floor(nextUniform(stream) * texts.length)] ?? texts[0] ?? '';
}
