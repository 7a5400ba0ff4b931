import 'server-only';
/**
 * Off-policy estimates over the live decision log: what each policy — no messages, the fixed reminders, and
 * the personalised policy as it now stands — would have earned per decision on the patient-days the
 * personalised policy actually decided, with patient-level bootstrap intervals (IPS, SNIPS, direct method,
 * doubly robust; engine/statistics/off-policy). Reads the newest rewarded decisions of the period, in
 * pages, up to a bound; keeps only each decision's compact sample per target.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { createPersonalisedPolicy, personalisedPolicyName } from '@/engine/policy/personalised';
import { createPolicy } from '@/engine/simulation/policies/policy-registry';
import {
  decisionContextFromJson,
  evaluateTargetPolicy,
  loggedActionIndex,
  offPolicySamples,
  targetFromPolicy,
  type DecisionLogRow,
  type TargetPolicy,
} from '@/engine/statistics/off-policy';
import { AppError } from '@/lib/errors';
import { liveEstimateLimits, type LivePolicyValuesDto } from '../schemas';
import { readLatestPolicyState } from './policy-state-rows';

const dayMs = 86_400_000;
const pageSize = 5000;

type Row = {
  id: string;
  decided_at: string | Date;
  patient_id: string;
  context: Record<string, unknown>;
  action: 'no-message' | 'message';
  category: string | null;
  framing: string | null;
  propensity: number;
  arm_probabilities: number[] | null;
  reward: number;
};

const rowsOf = <Value>(result: unknown) => (result as { rows: Value[] }).rows;

export async function estimateLivePolicyValues(options: {
  database: Database;
  now: Date;
  /** The period: decisions decided in the last `days` days up to `now`. */
  days?: number;
  /** At most this many decisions, the newest of the period. */
  maximumDecisions?: number;
  /** Seeds the bootstrap: the same log and seed give the same intervals. */
  seed?: number;
  replicates?: number;
}): Promise<LivePolicyValuesDto | null> {
  const { database, now } = options;
  const days = options.days ?? liveEstimateLimits.defaultDays;
  const maximumDecisions = options.maximumDecisions ?? liveEstimateLimits.defaultDecisions;
  if (!Number.isInteger(days) || days < 1 || days > liveEstimateLimits.maximumDays)
    throw new AppError('validation', `days must be a whole number from 1 to ${liveEstimateLimits.maximumDays}.`);
  if (!Number.isInteger(maximumDecisions) || maximumDecisions < 1 || maximumDecisions > liveEstimateLimits.maximumDecisions)
    throw new AppError('validation', `maximumDecisions must be a whole number from 1 to ${liveEstimateLimits.maximumDecisions}.`);
  const from = new Date(now.getTime() - days * dayMs);

  const seed = options.seed ?? 1;
  const latest = await readLatestPolicyState({ database });
  const targets: { policy: string; version: string; target: TargetPolicy }[] = (['none', 'fixed-daily', 'fixed-weekly'] as const).map(
    (name) => {
      const policy = createPolicy(name);
      return { policy: name, version: policy.version, target: targetFromPolicy(policy) };
    },
  );
  if (latest !== null)
    targets.push({
      policy: personalisedPolicyName,
      version: String(latest.version),
      // Thompson sampling's probabilities depend on its posterior draw: averaged over seeded draws.
      target: targetFromPolicy(
        createPersonalisedPolicy({ state: { ...latest.state, version: latest.version }, settings: latest.settings }),
        { seed },
      ),
    });

  const samples = targets.map(() => [] as ReturnType<typeof offPolicySamples>);
  let rewardSum = 0;
  let decisions = 0;
  let skipped = 0;
  const patients = new Set<string>();
  let cursor: { decidedAt: string; id: string } | null = null;
  while (decisions + skipped < maximumDecisions) {
    const page: Row[] = rowsOf<Row>(
      await database.execute(sql`
        select id, decided_at, patient_id, context, action, category, framing, propensity, arm_probabilities, reward
        from policy_decisions
        where policy_name = ${personalisedPolicyName} and source = 'live'
          and decided_at >= ${from.toISOString()}::timestamptz and decided_at < ${now.toISOString()}::timestamptz
          ${cursor === null ? sql`` : sql`and (decided_at, id) < (${cursor.decidedAt}::timestamptz, ${cursor.id}::uuid)`}
          and reward is not null and status in ('sent', 'no-message')
        order by decided_at desc, id desc
        limit ${Math.min(pageSize, maximumDecisions - decisions - skipped)}`),
    );
    if (page.length === 0) break;
    const last: Row = page[page.length - 1]!;
    cursor = { decidedAt: new Date(last.decided_at).toISOString(), id: last.id };
    const logged: DecisionLogRow[] = [];
    for (const row of page) {
      try {
        logged.push({
          patientId: row.patient_id,
          context: decisionContextFromJson(row.context),
          action: loggedActionIndex(row),
          propensity: row.propensity,
          reward: row.reward,
          // Lets the estimators report the target's mass on actions the logging policy could not take.
          armProbabilities: row.arm_probabilities,
        });
      } catch {
        // A row the estimators cannot read (an unknown persona or arm): counted, not guessed.
        skipped += 1;
      }
    }
    for (const [index, { target }] of targets.entries()) samples[index]!.push(...offPolicySamples(logged, target));
    for (const row of logged) {
      rewardSum += row.reward;
      patients.add(row.patientId);
    }
    decisions += logged.length;
  }
  if (decisions === 0) return null;
  return {
    period: { from: from.toISOString(), until: now.toISOString() },
    decisions,
    decisionsSkipped: skipped,
    patients: patients.size,
    loggedMeanReward: rewardSum / decisions,
    targets: targets.map(({ policy, version }, index) => ({
      policy,
      version,
      ...evaluateTargetPolicy({ samples: samples[index]!, seed, replicates: options.replicates }),
    })),
  };
}
