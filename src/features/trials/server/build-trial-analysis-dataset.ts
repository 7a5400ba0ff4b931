import 'server-only';
/**
 * The trial's analysis dataset (issue 14 item 4): one row per randomised participant (intention to treat),
 * the input of the results page and of the CSV export (docs/decisions/029-trial-endpoints.md). Five queries
 * bounded to the participants and their 12 weeks either side of enrolment, then one pass in memory: dose
 * confirmations are mapped to the patient's local day (src/engine/time/local-day.ts), refill PDC goes
 * through the shared read layer and the engine's periodPdc, as on the patient profile.
 */
import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { type DispensingRow, medicationEventsFrom } from '@/db/queries/medication-events';
import { dispensings, doseEvents, messages, patients, regimens, trialEnrolments, trials } from '@/db/schema';
import { dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import { periodPdc } from '@/engine/aggregation/patient-summary';
import { computeFollowUpOutcomes, type ActiveRegimen } from '@/engine/trial/follow-up-outcomes';
import { createLocalDayResolver, utcDayNumber } from '@/engine/time/local-day';
import { AppError } from '@/lib/errors';
import { ADHERENT_THRESHOLD, type TrialAnalysisRow } from '../analysis-dataset';
import type { TrialStatus } from '../contracts';
import { trialStatus } from '../trial-status';

/** Fills this long before enrolment may still carry supply into the follow-up (PDC carry-in). */
const DISPENSING_LOOKBACK_DAYS = 180;

export type TrialAnalysisDataset = {
  trial: {
    id: string;
    name: string;
    synthetic: boolean;
    startDate: string;
    weeks: number;
    status: TrialStatus;
  };
  /** The trial's calendar day the dataset was built on (UTC). */
  asOf: string;
  rows: TrialAnalysisRow[];
};

/**
 * Maps instants to local days like createLocalDayResolver, remembering each zone's answer per UTC quarter
 * hour: every zone's offset is a multiple of 15 minutes, so a local midnight never falls inside one, and
 * doses at the same times each day make the ~100,000 lookups of a trial mostly hits.
 */
function createCachedLocalDay(): (instant: Date, timeZone: string | null) => number {
  const resolve = createLocalDayResolver();
  const cache = new Map<string, Map<number, number>>();
  return (instant, timeZone) => {
    const zone = timeZone ?? '';
    let zoneCache = cache.get(zone);
    if (zoneCache === undefined) {
      zoneCache = new Map();
      cache.set(zone, zoneCache);
    }
    const quarter = Math.floor(instant.getTime() / 900_000);
    let day = zoneCache.get(quarter);
    if (day === undefined) {
      day = resolve(instant, timeZone);
      zoneCache.set(quarter, day);
    }
    return day;
  };
}

export async function buildTrialAnalysisDataset(options: {
  database: Database;
  trialId: string;
  now: Date;
}): Promise<TrialAnalysisDataset> {
  const { database, trialId, now } = options;
  const [trial] = await database
    .select({
      id: trials.id,
      name: trials.name,
      synthetic: trials.synthetic,
      startDate: trials.startDate,
      weeks: trials.weeks,
      targetEnrolment: trials.targetEnrolment,
      recruitmentClosedOn: trials.recruitmentClosedOn,
    })
    .from(trials)
    .where(eq(trials.id, trialId));
  if (trial === undefined) throw new AppError('not_found', `There is no trial "${trialId}".`);
  const windowDays = 7 * trial.weeks;

  const participants = await database
    .select({
      patientId: trialEnrolments.patientId,
      arm: trialEnrolments.arm,
      stratum: trialEnrolments.stratum,
      enrolledOn: trialEnrolments.enrolledOn,
      withdrawnOn: trialEnrolments.withdrawnOn,
      lostToFollowUpOn: trialEnrolments.lostToFollowUpOn,
      pseudonym: patients.pseudonym,
      timezone: patients.timezone,
      ageBand: patients.ageBand,
      sex: patients.sex,
      conditions: patients.conditions,
    })
    .from(trialEnrolments)
    .innerJoin(patients, eq(patients.id, trialEnrolments.patientId))
    .where(eq(trialEnrolments.trialId, trialId))
    .orderBy(asc(patients.pseudonym));

  const today = utcDayNumber(now);
  const exitedOn = (row: { withdrawnOn: string | null; lostToFollowUpOn: string | null }) => {
    const days = [row.withdrawnOn, row.lostToFollowUpOn].filter((day) => day !== null).map(dayNumberFromIso);
    return days.length === 0 ? null : Math.min(...days);
  };
  const status = trialStatus({
    participants: participants.map((row) => ({ enrolledOn: dayNumberFromIso(row.enrolledOn), exitedOn: exitedOn(row) })),
    weeks: trial.weeks,
    targetEnrolment: trial.targetEnrolment,
    recruitmentClosedOn: trial.recruitmentClosedOn === null ? null : dayNumberFromIso(trial.recruitmentClosedOn),
    today,
  });
  const dataset = (rows: TrialAnalysisRow[]): TrialAnalysisDataset => ({
    trial: { id: trial.id, name: trial.name, synthetic: trial.synthetic, startDate: trial.startDate, weeks: trial.weeks, status },
    asOf: isoFromDayNumber(today),
    rows,
  });
  if (participants.length === 0) return dataset([]);

  // Each participant's window: 12 weeks before enrolment to 12 weeks after, a day wider either side in UTC
  // because local days may start before or after UTC midnight.
  const ofTrial = eq(trialEnrolments.trialId, trialId);
  const windowStart = sql`((${trialEnrolments.enrolledOn} - ${windowDays + 1})::timestamp at time zone 'UTC')`;
  const windowEnd = sql`((${trialEnrolments.enrolledOn} + ${windowDays + 1})::timestamp at time zone 'UTC')`;
  const [regimenRows, takenRows, fillRows, messageRows] = await Promise.all([
    database
      .select({ patientId: regimens.patientId, start: regimens.startDate, end: regimens.endDate, dosesPerDay: regimens.dosesPerDay })
      .from(regimens)
      .innerJoin(trialEnrolments, and(ofTrial, eq(trialEnrolments.patientId, regimens.patientId))),
    // Only confirmed-taken doses are read: a scheduled dose without one counts as not taken.
    database
      .select({ patientId: doseEvents.patientId, scheduledAt: doseEvents.scheduledAt })
      .from(doseEvents)
      .innerJoin(trialEnrolments, and(ofTrial, eq(trialEnrolments.patientId, doseEvents.patientId)))
      .where(and(eq(doseEvents.status, 'taken'), gte(doseEvents.scheduledAt, windowStart), lt(doseEvents.scheduledAt, windowEnd))),
    database
      .select({
        patientId: dispensings.patientId,
        productId: dispensings.productId,
        medicationCode: dispensings.medicationCode,
        dispensedOn: dispensings.dispensedOn,
        daysSupply: dispensings.daysSupply,
        dosesPerDay: dispensings.dosesPerDay,
      })
      .from(dispensings)
      .innerJoin(trialEnrolments, and(ofTrial, eq(trialEnrolments.patientId, dispensings.patientId)))
      .where(
        and(
          gte(dispensings.dispensedOn, sql`${trialEnrolments.enrolledOn} - ${DISPENSING_LOOKBACK_DAYS}`),
          lt(dispensings.dispensedOn, sql`${trialEnrolments.enrolledOn} + ${windowDays}`),
        ),
      )
      .orderBy(asc(dispensings.dispensedOn)),
    database
      .select({
        patientId: messages.patientId,
        sentAt: messages.sentAt,
        direction: messages.direction,
        id: messages.id,
        policyDecisionId: messages.policyDecisionId,
      })
      .from(messages)
      .innerJoin(trialEnrolments, and(ofTrial, eq(trialEnrolments.patientId, messages.patientId)))
      .where(
        and(gte(messages.sentAt, sql`((${trialEnrolments.enrolledOn} - 1)::timestamp at time zone 'UTC')`), lt(messages.sentAt, windowEnd)),
      ),
  ]);

  type Gathered = {
    regimens: ActiveRegimen[];
    takenByDay: Map<number, number>;
    fills: Omit<DispensingRow, 'productName' | 'patientId'>[];
    outbound: Set<string>;
    replies: number;
  };
  const localDay = createCachedLocalDay();
  const byPatient = new Map<string, Gathered & { timezone: string | null; enrolledOn: number }>();
  for (const participant of participants) {
    byPatient.set(participant.patientId, {
      timezone: participant.timezone,
      enrolledOn: dayNumberFromIso(participant.enrolledOn),
      regimens: [],
      takenByDay: new Map(),
      fills: [],
      outbound: new Set(),
      replies: 0,
    });
  }
  for (const row of regimenRows) {
    byPatient.get(row.patientId)?.regimens.push({
      start: dayNumberFromIso(row.start),
      end: row.end === null ? null : dayNumberFromIso(row.end),
      dosesPerDay: row.dosesPerDay,
    });
  }
  for (const row of takenRows) {
    const own = byPatient.get(row.patientId);
    if (own === undefined) continue;
    const day = localDay(row.scheduledAt, own.timezone);
    own.takenByDay.set(day, (own.takenByDay.get(day) ?? 0) + 1);
  }
  for (const row of fillRows) byPatient.get(row.patientId)?.fills.push(row);
  // Messages count in the weeks reached only, known once each participant's weeks are (below).
  const messagesByPatient = new Map<string, { day: number; inbound: boolean; key: string }[]>();
  for (const row of messageRows) {
    const own = byPatient.get(row.patientId);
    if (own === undefined) continue;
    const list = messagesByPatient.get(row.patientId) ?? [];
    list.push({ day: localDay(row.sentAt, own.timezone), inbound: row.direction === 'inbound', key: row.policyDecisionId ?? row.id });
    messagesByPatient.set(row.patientId, list);
  }

  const rows = participants.map((participant): TrialAnalysisRow => {
    const own = byPatient.get(participant.patientId)!;
    const followUp = computeFollowUpOutcomes({
      enrolledOn: own.enrolledOn,
      weeks: trial.weeks,
      today: localDay(now, own.timezone),
      regimens: own.regimens,
      takenByDay: own.takenByDay,
    });
    const reachedEnd = own.enrolledOn + 7 * followUp.weeksReached;
    const pdc =
      followUp.weeksReached === 0
        ? null
        : periodPdc(medicationEventsFrom(own.fills, reachedEnd), { start: own.enrolledOn, end: reachedEnd });
    const outbound = new Set<string>();
    let replies = 0;
    for (const message of messagesByPatient.get(participant.patientId) ?? []) {
      if (message.day < own.enrolledOn || message.day >= reachedEnd) continue;
      if (message.inbound) replies += 1;
      else outbound.add(message.key);
    }
    const outcome = followUp.outcome.adherence;
    return {
      pseudonym: participant.pseudonym,
      arm: participant.arm,
      stratum: participant.stratum,
      enrolledOn: participant.enrolledOn,
      ageBand: participant.ageBand,
      sex: participant.sex,
      conditionsCount: participant.conditions.length,
      baseline: followUp.baseline.adherence,
      outcome,
      takenDoses: followUp.outcome.taken,
      scheduledDoses: followUp.outcome.scheduled,
      weeksReached: followUp.weeksReached,
      adherent: outcome === null ? null : outcome >= ADHERENT_THRESHOLD ? 1 : 0,
      refillPdc: pdc?.value ?? null,
      daysToFirstGap: followUp.daysToFirstGap,
      messages: outbound.size,
      replies,
      weekly: followUp.weekly,
    };
  });
  return dataset(rows);
}
