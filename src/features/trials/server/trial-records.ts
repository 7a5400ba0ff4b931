import 'server-only';
/**
 * What the trial use cases share: reading a trial row (with its concealed allocation parameters, which
 * never leave the server), its status, who may be assessed (the cohort scope) and the system's eligibility
 * checks. Not exported from the feature: the use cases are.
 */
import { createHash } from 'node:crypto';
import { and, asc, eq, gte, inArray, lte, ne, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dispensings, doseEvents, patients, trialEnrolments, trials } from '@/db/schema';
import { cohortConditions, findCohortScope } from '@/db/queries/cohort-scope';
import { keywordConsentSources, readConsentStates } from '@/features/consent';
import type { MessagingProgramme } from '@/lib/domain/messaging-programmes';
import type { z } from 'zod';
import { AppError, isAppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { recordAuditEvent } from '@/lib/server/audit';
import type { SessionUser } from '@/lib/server/session';
import type { TrialStatus } from '../contracts';
import {
  addDaysIso,
  isRecruitmentClosed,
  mergeProtocolFacts,
  onTreatmentWindowDays,
  type SystemCriterionId,
  systemCriterionIds,
  trialStatusOf,
} from '../protocol';

export type TrialActor = Pick<SessionUser, 'id' | 'role'>;
export type AuditContext = { clientAddress: string | null; requestId: string | null };

export const unknownTrialMessage = 'trialId: there is no trial with this id.';
export const unknownPatientMessage = 'patientId: no patient with this id is in your care.';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Takes the trial's transaction-scoped advisory lock: enrolments take turns under it (decision 028), and a
 * change of the analysis plan waits for an enrolment in progress.
 */
export async function lockTrialEnrolment(transaction: Database, trialId: string): Promise<void> {
  await transaction.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`trial-enrolment:${trialId}`}, 0))`);
}

export type TrialRow = {
  id: string;
  name: string;
  startDate: string;
  weeks: number;
  protocol: Record<string, unknown>;
  analysisPlan: string;
  analysisPlanSha256: string | null;
  targetEnrolment: number | null;
  recruitmentClosedOn: string | null;
  /** Concealed: used to allocate, never copied into a DTO. */
  randomisationSeed: number;
  blockSizes: number[];
  synthetic: boolean;
};

export async function findTrial(database: Database, trialId: string): Promise<TrialRow | null> {
  const [row] = await database
    .select({
      id: trials.id,
      name: trials.name,
      startDate: trials.startDate,
      weeks: trials.weeks,
      protocol: trials.protocol,
      analysisPlan: trials.analysisPlan,
      analysisPlanSha256: trials.analysisPlanSha256,
      targetEnrolment: trials.targetEnrolment,
      recruitmentClosedOn: trials.recruitmentClosedOn,
      randomisationSeed: trials.randomisationSeed,
      blockSizes: trials.blockSizes,
      synthetic: trials.synthetic,
    })
    .from(trials)
    .where(eq(trials.id, trialId));
  return row ?? null;
}

/** The target from the column, else from the protocol jsonb (where the demo seed writes it). */
export function targetEnrolmentOf(trial: Pick<TrialRow, 'targetEnrolment' | 'protocol'>): number | null {
  return trial.targetEnrolment ?? mergeProtocolFacts(trial.protocol).targetEnrolment;
}

export type TrialState = {
  status: TrialStatus;
  /** Enrolment and assessment are possible (recruitment not closed). */
  recruitmentOpen: boolean;
  enrolments: number;
  /** The last follow-up day of the last participant; null before anyone is enrolled. */
  lastFollowUpDay: string | null;
};

/** The trial's status on `today` from its enrolments (one aggregate query). */
export async function readTrialState(database: Database, trial: TrialRow, today: string): Promise<TrialState> {
  const lastDay = sql`${trialEnrolments.enrolledOn} + ${7 * trial.weeks - 1}::integer`;
  const [row] = await database
    .select({
      enrolments: sql<number>`count(*)::int`,
      stillFollowed: sql<number>`(count(*) filter (where ${trialEnrolments.withdrawnOn} is null and ${trialEnrolments.lostToFollowUpOn} is null and ${lastDay} >= ${today}::date))::int`,
      lastFollowUpDay: sql<string | null>`(max(${lastDay}))::text`,
    })
    .from(trialEnrolments)
    .where(eq(trialEnrolments.trialId, trial.id));
  const counts = {
    enrolments: row?.enrolments ?? 0,
    targetEnrolment: targetEnrolmentOf(trial),
    recruitmentClosedOn: trial.recruitmentClosedOn,
    today,
  };
  return {
    enrolments: counts.enrolments,
    lastFollowUpDay: row?.lastFollowUpDay ?? null,
    recruitmentOpen: !isRecruitmentClosed(counts),
    status: trialStatusOf({ ...counts, stillFollowed: row?.stillFollowed ?? 0 }),
  };
}

/**
 * The patient's id, persona and programme if the actor may assess them (admins: anyone; clinicians: their
 * organisations' patients); null otherwise, the same for a patient outside their care as for none at all.
 */
export async function findPatientInScope(options: {
  database: Database;
  actor: TrialActor;
  patientId: string;
  lock?: boolean;
}): Promise<{ id: string; persona: string | null; programme: MessagingProgramme | null } | null> {
  const { database, actor } = options;
  const conditions = cohortConditions(database, await findCohortScope({ database, actor }));
  if (conditions === null) return null;
  const query = database
    .select({ id: patients.id, persona: patients.persona, programme: patients.messagingProgramme })
    .from(patients)
    .where(and(eq(patients.id, options.patientId), conditions.patients));
  const [row] = options.lock === true ? await query.for('update') : await query;
  return row ?? null;
}

export type SystemChecks = Record<SystemCriterionId, boolean>;

/**
 * The system's eligibility checks for each patient, on `today` at `now`, in four queries whatever the
 * number of patients. Consent is read as the ledger reads it (decision 016): the latest event in effect
 * per channel and purpose, ties broken by the order written.
 */
export async function checkSystemCriteria(options: {
  database: Database;
  trialId: string;
  patientIds: readonly string[];
  now: Date;
  today: string;
}): Promise<Map<string, SystemChecks>> {
  const { database, patientIds, today } = options;
  const result = new Map<string, SystemChecks>();
  if (patientIds.length === 0) return result;
  const ids = [...patientIds];
  const windowStart = addDaysIso(today, -(onTreatmentWindowDays - 1));

  const [dispensed, takenRecently, consent, otherEnrolments] = await Promise.all([
    database
      .selectDistinct({ patientId: dispensings.patientId })
      .from(dispensings)
      .where(
        and(
          inArray(dispensings.patientId, ids),
          lte(dispensings.dispensedOn, today),
          sql`${dispensings.dispensedOn} + ${dispensings.daysSupply} - 1 >= ${windowStart}::date`,
        ),
      ),
    // A dose confirmed taken in the window also shows treatment (a patient whose pharmacy is not connected).
    database
      .selectDistinct({ patientId: doseEvents.patientId })
      .from(doseEvents)
      .where(
        and(
          inArray(doseEvents.patientId, ids),
          eq(doseEvents.status, 'taken'),
          gte(doseEvents.scheduledAt, new Date(`${windowStart}T00:00:00Z`)),
          lte(doseEvents.scheduledAt, options.now),
        ),
      ),
    readConsentStates({ database, patientIds: ids, at: options.now }),
    database
      .select({ patientId: trialEnrolments.patientId, trialId: trialEnrolments.trialId })
      .from(trialEnrolments)
      .where(and(inArray(trialEnrolments.patientId, ids), ne(trialEnrolments.trialId, options.trialId))),
  ]);

  // Another trial blocks while it is not complete (its status, not the participant's own weeks, as the criterion says).
  const otherTrialIds = [...new Set(otherEnrolments.map((row) => row.trialId))];
  const openTrials = new Set<string>();
  for (const otherId of otherTrialIds) {
    const other = await findTrial(database, otherId);
    if (other !== null && (await readTrialState(database, other, today)).status !== 'complete') openTrials.add(otherId);
  }

  const onTreatment = new Set([...dispensed, ...takenRecently].map((row) => row.patientId));
  const consenting = new Set<string>();
  const optedOut = new Set<string>();
  for (const [patientId, state] of consent) {
    if (state.get('sms/reminders')?.granted === true || state.get('whatsapp/reminders')?.granted === true) consenting.add(patientId);
    for (const [key, entry] of state)
      if (!entry.granted && (key.endsWith('/reminders') || keywordConsentSources.has(entry.source))) optedOut.add(patientId);
  }
  const inOpenTrial = new Set(otherEnrolments.filter((row) => openTrials.has(row.trialId)).map((row) => row.patientId));
  for (const id of ids)
    result.set(id, {
      'on-treatment': onTreatment.has(id),
      'reminder-consent': consenting.has(id),
      'no-opt-out': !optedOut.has(id),
      'not-in-another-trial': !inOpenTrial.has(id),
    });
  return result;
}

export function unmetCriteria(checks: SystemChecks): SystemCriterionId[] {
  return systemCriterionIds.filter((id) => !checks[id]);
}

/** Records a refusal ('denied') and throws it: every refusal is audited, with no more than the patient's id. */
export async function refuse(options: {
  database: Database;
  action: string;
  actor: TrialActor;
  context: AuditContext;
  details: Record<string, unknown>;
  error: AppError;
}): Promise<never> {
  await recordAuditEvent(options.database, {
    action: options.action,
    outcome: 'denied',
    actorUserId: options.actor.id,
    ...options.context,
    details: { ...options.details, reason: options.error.message },
  });
  throw options.error;
}

const idPatterns: Record<string, RegExp> = {
  trialId: /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
  patientId: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};

/**
 * parseInput, with a refused input audited too ('denied', naming the fields at fault, never their values:
 * a reason or detail is the clinician's free text).
 */
export async function parseAudited<Schema extends z.ZodType>(options: {
  schema: Schema;
  input: unknown;
  label: string;
  database: Database;
  action: string;
  actor: TrialActor;
  context: AuditContext;
}): Promise<z.output<Schema>> {
  try {
    return parseInput(options.schema, options.input, { label: options.label });
  } catch (error) {
    if (!isAppError(error)) throw error;
    const input = typeof options.input === 'object' && options.input !== null ? (options.input as Record<string, unknown>) : {};
    // Only well-formed ids are kept: anything else the caller sent could be text about the patient.
    const ids = Object.fromEntries(
      Object.entries(idPatterns)
        .filter(([key, pattern]) => typeof input[key] === 'string' && pattern.test(input[key]))
        .map(([key]) => [key, input[key]]),
    );
    return refuse({ ...options, details: { ...ids, fields: Object.keys(error.fieldErrors ?? {}) }, error });
  }
}

export function auditContextOf(options: { clientAddress?: string | null; requestId?: string | null }): AuditContext {
  return { clientAddress: options.clientAddress ?? null, requestId: options.requestId ?? null };
}

/** The participants in a scope query's order (pseudonym), for lists. */
export const byPseudonym = asc(patients.pseudonym);
