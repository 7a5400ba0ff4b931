/**
 * What the comparison page sends and receives. Shared by the browser and the server, so it imports no
 * server code.
 */
import { z } from '@/lib/zod';
import { formatCount } from '@/lib/format';

export const comparisonLimits = {
  minimumPatients: 100,
  /**
   * Up to this many patients the comparison runs within the request (about 6 s for 1,000 patients and four
   * policies, the personalised one learning day by day); larger runs go to a background job with progress.
   */
  maximumPatientsInRequest: 1000,
  maximumPatients: 50_000,
  maximumSeed: 0xffffffff,
  maximumPrice: 10,
} as const;

/**
 * Defaults for the form. Prices are in pounds per outbound message, roughly what UK providers charged in
 * 2024–25 (an SMS through an aggregator about 4p; a WhatsApp utility-template message about 2p): change
 * them to your own contract.
 */
export const comparisonDefaults = { patients: 1000, seed: 1, smsPrice: 0.04, whatsappPrice: 0.02 } as const;

export const comparisonFieldLabels = {
  patients: 'Cohort size',
  seed: 'Seed',
  smsPrice: 'SMS price per message',
  whatsappPrice: 'WhatsApp price per message',
} as const;

/** Form fields arrive as text, calls from code as numbers; text that is not a plain number becomes NaN (refused). */
function numberFrom(pattern: RegExp) {
  return (value: unknown) => {
    if (typeof value !== 'string') return value;
    const text = value.trim();
    return pattern.test(text) ? Number(text) : Number.NaN;
  };
}

function wholeNumber(field: keyof typeof comparisonFieldLabels, minimum: number, maximum: number, unit = '') {
  const message = `${comparisonFieldLabels[field]} must be a whole number from ${formatCount(minimum)} to ${formatCount(maximum)}${unit}.`;
  return z.preprocess(numberFrom(/^\d+$/), z.number({ error: message }).int(message).min(minimum, message).max(maximum, message));
}

function price(field: 'smsPrice' | 'whatsappPrice') {
  const message = `${comparisonFieldLabels[field]} must be an amount in pounds from 0 to ${comparisonLimits.maximumPrice}, such as 0.04.`;
  return z.preprocess(
    numberFrom(/^(\d+(\.\d*)?|\.\d+)$/),
    z.number({ error: message }).min(0, message).max(comparisonLimits.maximumPrice, message),
  );
}

export const comparisonSettingsSchema = z.object({
  patients: wholeNumber('patients', comparisonLimits.minimumPatients, comparisonLimits.maximumPatients, ' patients'),
  seed: wholeNumber('seed', 0, comparisonLimits.maximumSeed),
  smsPrice: price('smsPrice'),
  whatsappPrice: price('whatsappPrice'),
});

export type ComparisonSettings = z.infer<typeof comparisonSettingsSchema>;

export type ComparedPolicy = {
  /** The simulator's policy name. */
  policy: string;
  label: string;
  meanPdc: number;
  shareAdherent: number;
  /** Share of patients persisting for the 12 months, as the compliance journey defines it (no gap over 60 days). */
  persistence: number;
  messagesPerPatient: number;
  /** Patients who replied STOP, and their share of the cohort. */
  optOuts: number;
  optOutRate: number;
  /** Outbound messages by channel (in-app messages cost nothing). */
  messagesByChannel: { sms: number; whatsapp: number; app: number };
  messageCost: number;
  /** Days with medicine at hand (the days PDC counts as covered), summed over patients. */
  adherentPatientDays: number;
  /** Message cost ÷ adherent patient-days; 0 when nothing is sent. */
  costPerAdherentPatientDay: number;
  /** (Cost − cost without messages) ÷ (adherent days − those without messages); null when no days were gained. */
  costPerExtraAdherentDay: number | null;
  /** Mean PDC within each month of the year. */
  meanPdcByMonth: number[];
};

export type PolicyComparison = {
  settings: ComparisonSettings;
  patients: number;
  days: number;
  /** First simulated day, YYYY-MM-DD. */
  startDate: string;
  policies: ComparedPolicy[];
};

/** What a run answers: the comparison, or the background job that is computing it. */
export type ComparisonOutcome = { kind: 'result'; comparison: PolicyComparison } | { kind: 'job'; jobId: string };

/** The page's address names a stored run as `?run=<id>` (the background job's id). */
export const comparisonRunParameter = 'run';

/**
 * A comparison run as the page shows it, read from the stored background job: its settings, progress and,
 * once finished, its result or why it failed. Only its creator (or a role that may view any job) reads it.
 */
export type ComparisonRun = {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  /** The settings it was started with; null if the stored payload is not a valid set of settings. */
  settings: ComparisonSettings | null;
  progressDone: number;
  progressTotal: number | null;
  /** Patient-days simulated per second so far. */
  rate: number | null;
  comparison: PolicyComparison | null;
  error: string | null;
  /** ISO 8601 instants. */
  createdAt: string;
  finishedAt: string | null;
};
