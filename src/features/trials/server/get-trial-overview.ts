import 'server-only';
/**
 * The trial's protocol (with its status) and the CONSORT flow counted from the records: every role may see
 * both (aggregates of allocation and follow-up, no outcome by arm). Never carries the seed or block sizes.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { trialEnrolments, trialScreenings } from '@/db/schema';
import { requireActor } from '@/lib/server/authorization';
import type { ConsortArmCounts, ConsortCounts, TrialArm, TrialOverview } from '../contracts';
import { trialArms } from '../contracts';
import { defaultAnalysisPlan, eligibilityCriteria, interventionProgramme, isoDayOf, mergeProtocolFacts } from '../protocol';
import { findTrial, readTrialState, sha256Hex, targetEnrolmentOf, type TrialActor } from './trial-records';

export async function getTrialOverview(options: {
  database: Database;
  trialId: string;
  viewer: TrialActor | null;
  now: Date;
}): Promise<TrialOverview | null> {
  const { database, now } = options;
  requireActor(options.viewer);
  const trial = await findTrial(database, options.trialId);
  if (trial === null) return null;
  const today = isoDayOf(now);
  const [state, consort] = await Promise.all([readTrialState(database, trial, today), countConsort(database, trial.id)]);
  const facts = mergeProtocolFacts(trial.protocol);
  // A trial created before its plan was written shows the default plan, unhashed: only a stored plan is frozen.
  const storedPlan = trial.analysisPlan.trim() !== '';
  return {
    protocol: {
      id: trial.id,
      name: trial.name,
      synthetic: trial.synthetic,
      status: state.status,
      objective: facts.objective,
      population: facts.population,
      eligibility: eligibilityCriteria.map(({ id, text, checkedBy }) => ({ id, text, checkedBy })),
      arms: facts.arms,
      interventionProgramme,
      weeks: trial.weeks,
      startDate: trial.startDate,
      primaryEndpoint: facts.primaryEndpoint,
      secondaryEndpoints: facts.secondaryEndpoints,
      allocation: facts.allocation,
      analysisPlan: storedPlan
        ? { text: trial.analysisPlan, sha256: trial.analysisPlanSha256 ?? sha256Hex(trial.analysisPlan), frozen: state.enrolments > 0 }
        : { text: defaultAnalysisPlan, sha256: null, frozen: state.enrolments > 0 },
      targetEnrolment: targetEnrolmentOf(trial),
      recruitmentClosedOn: trial.recruitmentClosedOn,
      followUpEndsOn: state.lastFollowUpDay,
    },
    consort,
    asOf: now.toISOString(),
  };
}

/**
 * CONSORT counts: assessed = screened, plus anyone enrolled without a screening row (the demo seed's
 * enrolments); analysed = allocated (intention to treat: a missing confirmation is a dose not taken, so no
 * one is left out of the analysis).
 */
async function countConsort(database: Database, trialId: string): Promise<ConsortCounts> {
  const [screened] = await database
    .select({
      assessed: sql<number>`count(*)::int`,
      notEligible: sql<number>`(count(*) filter (where ${trialScreenings.outcome} = 'excluded' and ${trialScreenings.exclusionReason} = 'not-eligible'))::int`,
      declined: sql<number>`(count(*) filter (where ${trialScreenings.outcome} = 'excluded' and ${trialScreenings.exclusionReason} = 'declined'))::int`,
      other: sql<number>`(count(*) filter (where ${trialScreenings.outcome} = 'excluded' and (${trialScreenings.exclusionReason} = 'other' or ${trialScreenings.exclusionReason} is null)))::int`,
    })
    .from(trialScreenings)
    .where(eq(trialScreenings.trialId, trialId));
  const armRows = await database
    .select({
      arm: trialEnrolments.arm,
      allocated: sql<number>`count(*)::int`,
      received: sql<number>`(count(*) filter (where ${trialEnrolments.receivedAllocation}))::int`,
      lost: sql<number>`(count(*) filter (where ${trialEnrolments.lostToFollowUpOn} is not null))::int`,
      discontinued: sql<number>`(count(*) filter (where ${trialEnrolments.discontinuedOn} is not null))::int`,
      withdrawn: sql<number>`(count(*) filter (where ${trialEnrolments.withdrawnOn} is not null))::int`,
      unscreened: sql<number>`(count(*) filter (where not exists (select 1 from ${trialScreenings} where ${and(
        eq(trialScreenings.trialId, trialEnrolments.trialId),
        eq(trialScreenings.patientId, trialEnrolments.patientId),
      )})))::int`,
    })
    .from(trialEnrolments)
    .where(eq(trialEnrolments.trialId, trialId))
    .groupBy(trialEnrolments.arm);
  const arms = Object.fromEntries(
    trialArms.map((arm): [TrialArm, ConsortArmCounts] => {
      const row = armRows.find((candidate) => candidate.arm === arm);
      const allocated = row?.allocated ?? 0;
      const received = row?.received ?? 0;
      return [
        arm,
        {
          allocated,
          received,
          notReceived: allocated - received,
          lostToFollowUp: row?.lost ?? 0,
          discontinued: row?.discontinued ?? 0,
          withdrawn: row?.withdrawn ?? 0,
          analysed: allocated,
          excludedFromAnalysis: 0,
        },
      ];
    }),
  ) as Record<TrialArm, ConsortArmCounts>;
  const unscreened = armRows.reduce((total, row) => total + row.unscreened, 0);
  const notEligible = screened?.notEligible ?? 0;
  const declined = screened?.declined ?? 0;
  const other = screened?.other ?? 0;
  return {
    assessed: (screened?.assessed ?? 0) + unscreened,
    excluded: { total: notEligible + declined + other, notEligible, declined, other },
    randomised: arms.control.allocated + arms.intervention.allocated,
    arms,
  };
}
