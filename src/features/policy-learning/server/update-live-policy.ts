import 'server-only';
/**
 * The nightly update of the live personalised policy (docs/decisions/023-live-learning-policy.md): the
 * rewarded live decisions of the policy decided after the latest version's trained_through, read in pages
 * (bounded memory), given to the engine's batch update, and stored as the next version. Nothing is stored
 * until the last page is learned, so a failure leaves the previous version in use; a version number is
 * stored once (unique per policy), so two runs at once store one.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { policyStates } from '@/db/schema';
import type { DecisionContext } from '@/engine/policy/contract';
import { armIndex, messageCategories, messageFramings, type MessageCategory, type MessageFraming } from '@/engine/policy/message-arms';
import { personalisedPolicyName, updatePolicyState, type LoggedDecision } from '@/engine/policy/personalised';
import { personas, type Persona } from '@/engine/simulation/personas';
import { readLatestPolicyState } from './policy-state-rows';
import { decisionRewardWindowDays } from '@/lib/domain/messaging-programmes';

const defaultPageSize = 5000;
/**
 * Decisions given to the engine at once. Each call converts the whole state (every patient's posterior) to its
 * model and back — about 2 s of one core for 100,000 patients — so pages are gathered into large batches;
 * the bound keeps memory at a batch of decisions (with their contexts) whatever the night's volume.
 */
const defaultDecisionsPerUpdate = 100_000;
const dayMs = 86_400_000;

export type UpdateLivePolicyResult = {
  /** The version stored by this run; null when nothing new was learned or another run stored it first. */
  version: number | null;
  /** The version learned from; null when none is stored (the loop stores the prior before its first decision). */
  previousVersion: number | null;
  decisionsLearned: number;
  /**
   * Rewarded decisions read but not learned from: their context or action could not be read, or the engine
   * left them out (doses confirmed only by replies, engine/policy/personalised/observed-reward.ts).
   */
  decisionsSkipped: number;
  trainedThrough: string | null;
};

type DecisionRow = {
  id: string;
  decided_at: string | Date;
  patient_id: string;
  context: unknown;
  action: string;
  category: string | null;
  framing: string | null;
  propensity: number;
  arm_probabilities: number[] | null;
  reward: number;
};

const rowsOf = <Row>(result: unknown) => (result as { rows: Row[] }).rows;

/** A logged row as the engine learns from it; null when its context or arm is not one the engine knows. */
export function toLoggedDecision(row: Omit<DecisionRow, 'id' | 'decided_at'>): LoggedDecision | null {
  const context = row.context as DecisionContext | null;
  if (context === null || typeof context !== 'object' || !(personas as readonly string[]).includes(context.persona)) return null;
  let action = 0;
  if (row.action === 'message') {
    if (
      !(messageCategories as readonly (string | null)[]).includes(row.category) ||
      !(messageFramings as readonly (string | null)[]).includes(row.framing)
    )
      return null;
    action = 1 + armIndex(row.category as MessageCategory, row.framing as MessageFraming);
  }
  return {
    patientId: row.patient_id,
    persona: context.persona as Persona,
    context,
    action,
    propensity: row.propensity,
    observedReward: row.reward,
    armProbabilities: row.arm_probabilities,
  };
}

export async function updateLivePolicy(options: {
  database: Database;
  now: Date;
  pageSize?: number;
  decisionsPerUpdate?: number;
  /** Called after each page (the job reports progress, which is also its heartbeat). */
  onPage?: (decisionsRead: number) => Promise<void>;
}): Promise<UpdateLivePolicyResult> {
  const { database, now } = options;
  const pageSize = options.pageSize ?? defaultPageSize;
  const decisionsPerUpdate = options.decisionsPerUpdate ?? defaultDecisionsPerUpdate;
  const latest = await readLatestPolicyState({ database });
  // No version yet: the loop has made no personalised decision, so there is nothing to learn from.
  if (latest === null) return { version: null, previousVersion: null, decisionsLearned: 0, decisionsSkipped: 0, trainedThrough: null };
  // Learn only up to the earliest decision still waiting for its reward: every decision before it is settled
  // (rewarded, or left without one), so the next run's "after trained_through" misses none.
  const [pending] = rowsOf<{ decided_at: string | Date | null }>(
    await database.execute(sql`
      select min(decided_at) as decided_at from policy_decisions
      where policy_name = ${personalisedPolicyName} and source = 'live' and rewarded_at is null
        and decided_at >= ${new Date(now.getTime() - decisionRewardWindowDays * dayMs).toISOString()}::timestamptz`),
  );
  const cutoff = pending?.decided_at == null ? now : new Date(pending.decided_at);
  const after = latest.trainedThrough;

  let state = latest.state;
  let given = 0;
  let unreadable = 0;
  let batch: LoggedDecision[] = [];
  // Batch by batch: the posterior after one batch is the prior of the next (a conjugate update).
  const learnBatch = () => {
    if (batch.length > 0) state = updatePolicyState(state, batch, latest.settings);
    given += batch.length;
    batch = [];
  };
  let cursor: { decidedAt: string; id: string } | null = null;
  let trainedThrough: string | null = null;
  for (;;) {
    const page: DecisionRow[] = rowsOf<DecisionRow>(
      await database.execute(sql`
        select id, decided_at, patient_id, context, action, category, framing, propensity, arm_probabilities, reward
        from policy_decisions
        where policy_name = ${personalisedPolicyName} and source = 'live'
          and decided_at < ${cutoff.toISOString()}::timestamptz
          ${after === null ? sql`` : sql`and decided_at > ${after.toISOString()}::timestamptz`}
          ${cursor === null ? sql`` : sql`and (decided_at, id) > (${cursor.decidedAt}::timestamptz, ${cursor.id}::uuid)`}
          and rewarded_at is not null and reward is not null
          -- What the patient actually got: a message sent, or none by the policy's choice. A message refused at
          -- planning or send time (quiet hours, cap, consent) was neither the arm nor the policy's "none".
          and status in ('sent', 'no-message')
        order by decided_at, id
        limit ${pageSize}`),
    );
    if (page.length === 0) break;
    const last: DecisionRow = page[page.length - 1]!;
    cursor = { decidedAt: new Date(last.decided_at).toISOString(), id: last.id };
    trainedThrough = cursor.decidedAt;
    for (const row of page) {
      const decision = toLoggedDecision(row);
      if (decision === null) unreadable += 1;
      else batch.push(decision);
    }
    if (batch.length >= decisionsPerUpdate) learnBatch();
    await options.onPage?.(given + batch.length + unreadable);
    if (page.length < pageSize) break;
  }
  learnBatch();
  // The engine counts what it learned from (cumulative); the rest of what it was given it left out.
  const learned = state.decisionsUsed - latest.state.decisionsUsed;
  const result: UpdateLivePolicyResult = {
    version: null,
    previousVersion: latest.version,
    decisionsLearned: learned,
    decisionsSkipped: unreadable + given - learned,
    trainedThrough,
  };
  // Nothing given to the engine: nothing to store. Decisions it left out still move trained_through on.
  if (given === 0) return result;
  const version = latest.version + 1;
  const inserted = await database
    .insert(policyStates)
    .values({
      policyName: personalisedPolicyName,
      version: String(version),
      source: 'live',
      state: { ...state, version } as unknown as Record<string, unknown>,
      settings: latest.settings as unknown as Record<string, unknown>,
      decisionsUsed: state.decisionsUsed,
      trainedThrough: new Date(trainedThrough!),
      createdAt: now,
    })
    .onConflictDoNothing({ target: [policyStates.policyName, policyStates.version] })
    .returning({ id: policyStates.id });
  return { ...result, version: inserted.length === 1 ? version : null };
}
