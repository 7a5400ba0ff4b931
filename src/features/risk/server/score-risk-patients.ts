import 'server-only';
/**
 * Scores every active patient with the latest ready risk model version (the nightly `risk-score` job): the
 * features as of the day after the latest stored dose (data before it only), the network's risk and the
 * logistic model's top three reasons in words, upserted into `risk_scores`. Active: at least one dose due in
 * the last 30 days.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { riskModels, riskScores } from '@/db/schema';
import { isoFromDayNumber } from '@/engine/adherence/day-number';
import { computeFeatures, explainRisk, predictNetwork, type TrainedRiskModels } from '@/engine/risk';
import { findLatestDoseDay, loadRiskHistories } from './load-risk-histories';

/** Weeks of history loaded: the features look back 30 days at most. */
const scoringWeeks = 5;
const insertBatch = 500;

export async function scoreRiskPatients(options: {
  database: Database;
}): Promise<{ scored: number; modelVersion: number | null; scoredOn: string | null }> {
  const { database } = options;
  const [model] = await database
    .select({ id: riskModels.id, version: riskModels.version, parameters: riskModels.parameters })
    .from(riskModels)
    .where(eq(riskModels.status, 'ready'))
    .orderBy(desc(riskModels.version))
    .limit(1);
  const endDay = await findLatestDoseDay(database);
  if (model === undefined || model.parameters === null || endDay === null)
    return { scored: 0, modelVersion: model?.version ?? null, scoredOn: null };
  const trained = model.parameters as unknown as TrainedRiskModels;
  const histories = await loadRiskHistories({ database, endDay, weeks: scoringWeeks });
  const boundary = scoringWeeks * 7;
  const scoredOn = isoFromDayNumber(endDay);
  const rows: (typeof riskScores.$inferInsert)[] = [];
  for (const history of histories) {
    const features = computeFeatures(history, boundary);
    // Column 4 flags "no doses due in the last 30 days": not an active patient.
    if (features[4] === 1) continue;
    rows.push({
      patientId: history.patient.id,
      modelId: model.id,
      scoredOn,
      risk: predictNetwork(trained.network, features)[0]!,
      reasons: explainRisk(trained.logistic, features),
    });
  }
  for (let start = 0; start < rows.length; start += insertBatch) {
    await database
      .insert(riskScores)
      .values(rows.slice(start, start + insertBatch))
      .onConflictDoUpdate({
        target: [riskScores.patientId, riskScores.modelId],
        set: { scoredOn: sql`excluded.scored_on`, risk: sql`excluded.risk`, reasons: sql`excluded.reasons`, createdAt: sql`now()` },
      });
  }
  return { scored: rows.length, modelVersion: model.version, scoredOn };
}
