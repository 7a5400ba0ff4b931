/**
 * The risk model feature: what a training run is asked and what a page sees of a stored model version.
 * Shared by the browser and the server (no server imports; engine types only).
 */
import { z } from '@/lib/zod';
import type { RiskEvaluation, TargetingEffect } from '@/engine/risk';

export const riskTrainJobKind = 'risk-train';

export const riskTrainingLimits = { minimumPatients: 100, maximumPatients: 5000, minimumWeeks: 12, maximumWeeks: 52 } as const;

/** What the page starts: a cohort that trains in well under a minute on the server. */
export const riskTrainingDefaults = { source: 'simulation', patients: 1000, weeks: 26, seed: 1 } as const;

export const riskTrainingInputSchema = z.object({
  source: z.enum(['simulation', 'database']).default(riskTrainingDefaults.source),
  patients: z
    .number()
    .int()
    .min(riskTrainingLimits.minimumPatients)
    .max(riskTrainingLimits.maximumPatients)
    .default(riskTrainingDefaults.patients),
  weeks: z.number().int().min(riskTrainingLimits.minimumWeeks).max(riskTrainingLimits.maximumWeeks).default(riskTrainingDefaults.weeks),
  seed: z.number().int().min(0).max(0xffffffff).default(riskTrainingDefaults.seed),
});
export type RiskTrainingInput = z.infer<typeof riskTrainingInputSchema>;

export type RiskModelDto = {
  id: string;
  version: number;
  status: 'running' | 'ready' | 'failed';
  source: 'simulation' | 'database';
  seed: number;
  patients: number;
  weeks: number;
  jobId: string | null;
  createdAt: string;
  completedAt: string | null;
  evaluation: RiskEvaluation | null;
  targeting: TargetingEffect | null;
};

export const riskModelLabels: Record<string, string> = {
  network: 'Neural network',
  logistic: 'Logistic regression',
  'last-30-day': 'Last-30-day adherence rule',
};

export type RiskWorklistRow = {
  patientId: string;
  pseudonym: string;
  synthetic: boolean;
  risk: number;
  /** The top contributing features, in words. */
  reasons: string[];
  lastContactedAt: string | null;
};

export type RiskWorklistDto = { modelVersion: number | null; scoredOn: string | null; rows: RiskWorklistRow[] };

export type PatientRiskDto = { risk: number; reasons: string[]; scoredOn: string; modelVersion: number };
