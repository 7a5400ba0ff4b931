import 'server-only';
/**
 * Trains a new version of the risk model and stores it with its evaluation: histories from a freshly
 * simulated cohort or from the stored records, the three models trained on the earlier weeks and evaluated on
 * the later ones, and the simulated targeting effect of the trained network. The row is written first
 * (status running), so a page can show which version is on its way; a failure marks it failed.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { riskModels } from '@/db/schema';
import {
  predictNetwork,
  simulateHistories,
  simulateTargeting,
  trainAndEvaluate,
  type PatientHistory,
  type RiskEvaluation,
  type TargetingEffect,
  type TrainedRiskModels,
} from '@/engine/risk';
import { AppError } from '@/lib/errors';
import type { RiskTrainingInput } from '../schemas';
import { findLatestDoseDay, loadRiskHistories } from './load-risk-histories';

export type RiskTrainingProgress = (stage: string, done: number, total: number) => Promise<void> | void;

/** Progress in steps: simulation or loading (1), the network's epochs (10), targeting (1), storing (1). */
export const riskTrainingSteps = 13;

export async function trainRiskModel(options: {
  database: Database;
  input: RiskTrainingInput;
  createdBy: string | null;
  jobId?: string | null;
  onProgress?: RiskTrainingProgress;
  /** Skips the targeting simulation (the command line's `evaluate` does not need it). */
  withTargeting?: boolean;
}): Promise<{ id: string; version: number; evaluation: RiskEvaluation; targeting: TargetingEffect | null; models: TrainedRiskModels }> {
  const { database, input } = options;
  // A retried job's earlier attempt stopped part-way: its version will never be completed.
  if (options.jobId) {
    await database
      .update(riskModels)
      .set({ status: 'failed', completedAt: new Date() })
      .where(and(eq(riskModels.jobId, options.jobId), eq(riskModels.status, 'running')));
  }
  // Two runs at once (a queued job and the command line, or two instances) would read the same max(version):
  // the read and the insert take turns under a transaction-scoped advisory lock, so each gets its own number.
  const [row] = await database.transaction(async (transaction) => {
    await transaction.execute(sql`select pg_advisory_xact_lock(hashtextextended('risk-model-version', 0))`);
    const [{ next } = { next: 1 }] = await transaction
      .select({ next: sql<number>`coalesce(max(${riskModels.version}), 0)::int + 1` })
      .from(riskModels);
    return transaction
      .insert(riskModels)
      .values({
        version: Number(next),
        source: input.source,
        seed: input.seed,
        patients: input.patients,
        weeks: input.weeks,
        jobId: options.jobId ?? null,
        createdBy: options.createdBy,
      })
      .returning({ id: riskModels.id, version: riskModels.version });
  });
  if (row === undefined) throw new AppError('internal', 'The risk model version could not be stored.');
  try {
    const histories = await loadHistories(database, input);
    await options.onProgress?.('histories', 1, riskTrainingSteps);
    const { evaluation, models } = await trainAndEvaluate({
      histories,
      seed: input.seed,
      onProgress: async (_stage, done) => {
        await options.onProgress?.('network', 1 + done, riskTrainingSteps);
        // Lets timers (the job's heartbeat) and requests run between epochs.
        await new Promise((resolve) => setImmediate(resolve));
      },
    });
    const targeting =
      options.withTargeting === false
        ? null
        : simulateTargeting({
            patients: Math.min(input.patients, 2000),
            seed: input.seed,
            score: (features) => predictNetwork(models.network, features),
          });
    await options.onProgress?.('targeting', 12, riskTrainingSteps);
    await database
      .update(riskModels)
      .set({
        status: 'ready',
        parameters: models as unknown as Record<string, unknown>,
        evaluation: evaluation as unknown as Record<string, unknown>,
        targeting: targeting as unknown as Record<string, unknown> | null,
        patients: histories.length,
        completedAt: new Date(),
      })
      .where(eq(riskModels.id, row.id));
    await options.onProgress?.('stored', riskTrainingSteps, riskTrainingSteps);
    return { id: row.id, version: row.version, evaluation, targeting, models };
  } catch (error) {
    await database.update(riskModels).set({ status: 'failed', completedAt: new Date() }).where(eq(riskModels.id, row.id));
    throw error;
  }
}

export async function loadHistories(database: Database, input: RiskTrainingInput): Promise<PatientHistory[]> {
  if (input.source === 'simulation') return simulateHistories({ patients: input.patients, weeks: input.weeks, seed: input.seed });
  const endDay = await findLatestDoseDay(database);
  if (endDay === null) throw new AppError('validation', 'The database holds no dose events to train the risk model on.');
  return loadRiskHistories({ database, endDay, weeks: input.weeks });
}
