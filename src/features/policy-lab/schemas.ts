/**
 * The policy lab: what a lab run is asked (cohort, seed, the personalised policy's settings), what it answers
 * (the lab summary, stored as the background job's result) and how a page sees a run. Shared by the browser
 * and the server, so it imports no server code (the engine imports are pure, and types only where possible).
 */
import { z } from '@/lib/zod';
import { armCount, armIndex, messageCategories, messageFramings } from '@/engine/policy/message-arms';
import { defaultPersonalisedSettings, type PersonalisedSettings } from '@/engine/policy/personalised';
import type { Persona } from '@/engine/simulation/personas';
import { formatCount, formatDate } from '@/lib/format';

export const labRunJobKind = 'policy-lab-run';

/**
 * Bumped when the summary's shape or the way it is computed changes: it is part of a run's cache key, so a
 * stored result of an older lab is never shown as this lab's.
 */
export const labResultVersion = 1;

/** 52 whole weeks: every weekly figure covers seven days. */
export const labDays = 364;
export const labWeeks = labDays / 7;
/** The first simulated day, as the comparison page's runs. */
export const labStartDate = '2025-01-01';

export const labLimits = {
  minimumPatients: 60,
  maximumPatients: 5000,
  maximumSeed: 0xffffffff,
  maximumMessagesPerWeek: 14,
  /** The floor is the least chance of sending on a day (exploration); at most half, so the policy can still hold back. */
  maximumSendProbabilityFloor: 0.5,
  maximumBurdenWeight: 0.5,
} as const;

/**
 * The default run every lab page shows first: the policy's default settings on a cohort that takes about a
 * minute to simulate under the three policies on the server (measured: see decision 024).
 */
export const labDefaults = { patients: 3000, seed: 1 } as const;

const minutesPerDay = 24 * 60;

const settingsSchema = z
  .object({
    sendProbabilityFloor: z.number().min(0).max(labLimits.maximumSendProbabilityFloor),
    sendProbabilityCeiling: z.number().min(0).max(1),
    burdenWeight: z.number().min(0).max(labLimits.maximumBurdenWeight),
    messagesPerWeekCap: z.number().int().min(0).max(labLimits.maximumMessagesPerWeek),
    quietHours: z
      .object({
        startMinute: z
          .number()
          .int()
          .min(0)
          .max(minutesPerDay - 1),
        endMinute: z
          .number()
          .int()
          .min(0)
          .max(minutesPerDay - 1),
      })
      .strict()
      .nullable(),
  })
  .strict()
  .refine((settings) => settings.sendProbabilityCeiling >= settings.sendProbabilityFloor, {
    message: 'sendProbabilityCeiling must not be below sendProbabilityFloor.',
    path: ['sendProbabilityCeiling'],
  });

/** A lab run's payload: bounded, so a request cannot ask the shared simulation queue for hours of work. */
export const labRunInputSchema = z
  .object({
    patients: z.number().int().min(labLimits.minimumPatients).max(labLimits.maximumPatients),
    seed: z.number().int().min(0).max(labLimits.maximumSeed),
    settings: settingsSchema,
  })
  .strict();

export type LabRunInput = { patients: number; seed: number; settings: PersonalisedSettings };

export const defaultLabRunInput: LabRunInput = { ...labDefaults, settings: defaultPersonalisedSettings };

/** One key per distinct run: the same settings (in any key order) share one stored run. */
export function labRunKey(input: LabRunInput): string {
  const { settings } = input;
  const quiet = settings.quietHours === null ? 'none' : `${settings.quietHours.startMinute}-${settings.quietHours.endMinute}`;
  return [
    `v${labResultVersion}`,
    input.patients,
    input.seed,
    settings.sendProbabilityFloor,
    settings.sendProbabilityCeiling,
    settings.burdenWeight,
    settings.messagesPerWeekCap,
    quiet,
  ].join(':');
}

export function sameLabSettings(left: PersonalisedSettings, right: PersonalisedSettings): boolean {
  return labRunKey({ patients: 1, seed: 0, settings: left }) === labRunKey({ patients: 1, seed: 0, settings: right });
}

// --- The what-if form (adherence-optimization) -------------------------------------------------------------

export const labFormFieldLabels = {
  messagesPerWeekCap: 'Messages per week cap',
  quietStart: 'Quiet hours start',
  quietEnd: 'Quiet hours end',
  explorationFloor: 'Exploration floor',
  burdenWeight: 'Burden weight',
} as const;

export type LabFormValues = Record<keyof typeof labFormFieldLabels, string>;

const timePattern = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/** "21:30" → 1290; anything else → NaN (refused with the field's message). */
function minuteOf(text: string): number {
  const match = timePattern.exec(text.trim());
  return match === null ? Number.NaN : Number(match[1]) * 60 + Number(match[2]);
}

export function timeOfMinute(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

const plainNumber = /^(\d+(\.\d*)?|\.\d+)$/;
const numberOf = (text: string) => (plainNumber.test(text.trim()) ? Number(text.trim()) : Number.NaN);

/**
 * The form as typed → the policy's settings. Quiet hours are both empty (none) or both times; the exploration
 * floor is a percentage. Every message names its field. The ceiling is not on the form: it stays the default.
 */
export const labFormSchema = z
  .object({
    messagesPerWeekCap: z.string(),
    quietStart: z.string(),
    quietEnd: z.string(),
    explorationFloor: z.string(),
    burdenWeight: z.string(),
  })
  .strict()
  .transform((form, context): PersonalisedSettings => {
    const cap = numberOf(form.messagesPerWeekCap);
    if (!Number.isInteger(cap) || cap > labLimits.maximumMessagesPerWeek)
      context.addIssue({
        code: 'custom',
        path: ['messagesPerWeekCap'],
        message: `${labFormFieldLabels.messagesPerWeekCap} must be a whole number from 0 to ${labLimits.maximumMessagesPerWeek}.`,
      });
    const floorPercent = numberOf(form.explorationFloor);
    const maximumFloorPercent = labLimits.maximumSendProbabilityFloor * 100;
    if (Number.isNaN(floorPercent) || floorPercent > maximumFloorPercent)
      context.addIssue({
        code: 'custom',
        path: ['explorationFloor'],
        message: `${labFormFieldLabels.explorationFloor} must be a percentage from 0 to ${maximumFloorPercent}, such as 20.`,
      });
    else if (floorPercent / 100 > defaultPersonalisedSettings.sendProbabilityCeiling)
      context.addIssue({
        code: 'custom',
        path: ['explorationFloor'],
        message: `${labFormFieldLabels.explorationFloor} must not exceed the ${formatCount(defaultPersonalisedSettings.sendProbabilityCeiling * 100)}% ceiling.`,
      });
    const burden = numberOf(form.burdenWeight);
    if (Number.isNaN(burden) || burden > labLimits.maximumBurdenWeight)
      context.addIssue({
        code: 'custom',
        path: ['burdenWeight'],
        message: `${labFormFieldLabels.burdenWeight} must be a number from 0 to ${labLimits.maximumBurdenWeight}, such as 0.02.`,
      });
    const startText = form.quietStart.trim();
    const endText = form.quietEnd.trim();
    let quietHours: PersonalisedSettings['quietHours'] = null;
    if (startText !== '' || endText !== '') {
      const startMinute = minuteOf(startText);
      const endMinute = minuteOf(endText);
      for (const [field, minute] of [
        ['quietStart', startMinute],
        ['quietEnd', endMinute],
      ] as const)
        if (Number.isNaN(minute))
          context.addIssue({
            code: 'custom',
            path: [field],
            message: `${labFormFieldLabels[field]} must be a time such as 21:00 (leave both quiet-hours fields empty for none).`,
          });
      if (!Number.isNaN(startMinute) && !Number.isNaN(endMinute) && startMinute === endMinute)
        context.addIssue({ code: 'custom', path: ['quietEnd'], message: `${labFormFieldLabels.quietEnd} must differ from the start.` });
      quietHours = { startMinute, endMinute };
    }
    return {
      sendProbabilityFloor: floorPercent / 100,
      sendProbabilityCeiling: defaultPersonalisedSettings.sendProbabilityCeiling,
      burdenWeight: burden,
      messagesPerWeekCap: cap,
      quietHours,
    };
  });

export function labFormValuesOf(settings: PersonalisedSettings): LabFormValues {
  return {
    messagesPerWeekCap: String(settings.messagesPerWeekCap),
    quietStart: settings.quietHours === null ? '' : timeOfMinute(settings.quietHours.startMinute),
    quietEnd: settings.quietHours === null ? '' : timeOfMinute(settings.quietHours.endMinute),
    explorationFloor: String(Math.round(settings.sendProbabilityFloor * 1000) / 10),
    burdenWeight: String(settings.burdenWeight),
  };
}

// --- The summary (the job's result) --------------------------------------------------------------------------

/** Action 0 is no message; action 1 + armIndex(category, framing) is that arm (the policy's numbering). */
export const labActionCount = armCount + 1;

export function actionLabel(action: number): string {
  if (action === 0) return 'No message';
  const index = action - 1;
  const category = messageCategories[Math.floor(index / messageFramings.length)];
  const framing = messageFramings[index % messageFramings.length];
  return `${category ?? '?'} · ${framing ?? '?'}`;
}

export function actionOf(category: (typeof messageCategories)[number], framing: (typeof messageFramings)[number]): number {
  return 1 + armIndex(category, framing);
}

export type LabPolicyName = 'personalised' | 'uniform-random' | 'fixed-daily';

export const labPolicyLabels: Record<LabPolicyName, string> = {
  personalised: 'Personalised (learning)',
  'uniform-random': 'Uniform random',
  'fixed-daily': 'Fixed daily reminder',
};

export type LabPolicyOutcome = {
  policy: LabPolicyName;
  /** Mean PDC over the run, share of patients at PDC ≥ 0.8, messages per patient per week. */
  meanPdc: number;
  shareAdherent: number;
  messagesPerPatientPerWeek: number;
  /** Share of doses taken among those due with supply at hand, per week (simulation truth). */
  doseTakenShareByWeek: number[];
};

export type LabPersonaArmShares = {
  persona: Persona;
  patients: number;
  /** [week][action]: the share of that week's decisions for this persona's patients that chose the action. */
  sharesByWeek: number[][];
  /** The simulator's best action(s) for the persona (its truth, for evaluation only); empty when not reported. */
  truthBestActions: number[];
};

/** One arm's posterior advantage over no message for a persona, week by week (index 0 = the prior). */
export type LabPosteriorSeries = {
  persona: Persona;
  action: number;
  mean: number[];
  lower: number[];
  upper: number[];
  observations: number[];
};

export type LabSummary = {
  labVersion: number;
  patients: number;
  seed: number;
  days: number;
  weeks: number;
  startDate: string;
  settings: PersonalisedSettings;
  /** The personalised policy's state version at the end of the run. */
  finalPolicyVersion: string;
  outcomes: LabPolicyOutcome[];
  armShares: LabPersonaArmShares[];
  /**
   * Cumulative regret of the personalised policy against each baseline, at the end of each week: the running
   * sum of (baseline's weekly share of doses taken − the personalised policy's), in percentage points ×
   * weeks. Simulation truth; below zero the personalised policy is ahead.
   */
  cumulativeRegret: { vsUniformRandom: number[]; vsFixedDaily: number[] };
  /** Policy versions of the weekly posterior snapshots (index 0 = the prior, then the end of each week). */
  posteriorVersions: string[];
  posterior: LabPosteriorSeries[];
};

/** A lab run as a page sees it: the stored background job, its settings and, once finished, its summary. */
export type LabRun = {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  input: LabRunInput | null;
  progressDone: number;
  progressTotal: number | null;
  /** Patient-days simulated per second so far. */
  rate: number | null;
  summary: LabSummary | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
};

/** What the page polls while a run is under way: the run without its (large) summary. */
export type LabRunProgress = Omit<LabRun, 'summary'>;

/** The adherence-optimization page's address names a what-if run as `?run=<id>`. */
export const labRunParameter = 'run';

/** The last simulated day of a run, YYYY-MM-DD. */
export function labEndDateOf(run: { startDate: string; days: number }): string {
  const end = new Date(`${run.startDate}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + run.days - 1);
  return end.toISOString().slice(0, 10);
}

/**
 * "1 January 2025 – 30 December 2025": both dates in full. Not Intl's formatRange, whose spacing differs between
 * the server's ICU and the browser's, so a page rendered on the server would not hydrate.
 */
export function labPeriodText(run: { startDate: string; days: number }): string {
  return `${formatDate(run.startDate)} – ${formatDate(labEndDateOf(run))}`;
}
