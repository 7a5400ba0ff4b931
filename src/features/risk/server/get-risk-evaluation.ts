import 'server-only';
/**
 * What the neural-network-effect page shows: the latest version whose evaluation is stored, and the latest
 * version of all (a training run under way or failed). Read from the table, never trained on a page view.
 * An evaluation of stored records with fewer than 11 test patients is withheld from roles that see
 * suppressed aggregates.
 */
import { desc, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { riskModels } from '@/db/schema';
import { MINIMUM_GROUP_SIZE, seesSuppressedAggregates } from '@/db/queries/suppression';
import type { RiskEvaluation, TargetingEffect } from '@/engine/risk';
import { requireActor } from '@/lib/server/authorization';
import type { SessionUser } from '@/lib/server/session';
import type { RiskModelDto } from '../schemas';

const columns = {
  id: riskModels.id,
  version: riskModels.version,
  status: riskModels.status,
  source: riskModels.source,
  seed: riskModels.seed,
  patients: riskModels.patients,
  weeks: riskModels.weeks,
  jobId: riskModels.jobId,
  createdAt: riskModels.createdAt,
  completedAt: riskModels.completedAt,
  evaluation: riskModels.evaluation,
  targeting: riskModels.targeting,
};

type Row = Pick<typeof riskModels.$inferSelect, keyof typeof columns>;

function toDto(row: Row, suppress: boolean): RiskModelDto {
  const evaluation = row.evaluation as RiskEvaluation | null;
  const hidden = suppress && row.source === 'database' && evaluation !== null && evaluation.testPatients < MINIMUM_GROUP_SIZE;
  return {
    id: row.id,
    version: row.version,
    status: row.status,
    source: row.source,
    seed: row.seed,
    patients: row.patients,
    weeks: row.weeks,
    jobId: row.jobId,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    evaluation: hidden ? null : evaluation,
    targeting: row.targeting as TargetingEffect | null,
  };
}

export async function getRiskEvaluation(options: {
  database: Database;
  actor: SessionUser | null;
}): Promise<{ latest: RiskModelDto | null; ready: RiskModelDto | null }> {
  const actor = requireActor(options.actor);
  const suppress = seesSuppressedAggregates(actor.role);
  const [latest] = await options.database.select(columns).from(riskModels).orderBy(desc(riskModels.version)).limit(1);
  const [ready] = await options.database
    .select(columns)
    .from(riskModels)
    .where(eq(riskModels.status, 'ready'))
    .orderBy(desc(riskModels.version))
    .limit(1);
  return { latest: latest === undefined ? null : toDto(latest, suppress), ready: ready === undefined ? null : toDto(ready, suppress) };
}
