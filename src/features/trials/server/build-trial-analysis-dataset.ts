import 'server-only';
/**
 * The trial's analysis dataset (issue 14 item 4): one row per randomised participant (intention to treat),
 * the input of the results page and of the CSV export (docs/decisions/029-trial-endpoints.md). Five queries
 * bounded to the participants and their 12 weeks either side of enrolment, then one pass in memory: dose
 * confirmations are mapped to the patient's local day (src/engine/time/local-day.ts), refill PDC goes
 * through the shared read layer and the engine's periodPdc, as on the patient profile.
 */
import { type AnyColumn, and, asc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { type DispensingRow, medicationEventsFrom } from '@/db/queries/medication-events';
import { dispensings, doseEvents, messages, patients, regimens, trialEnrolments } from '@/db/schema';
import { dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import { periodPdc } from '@/engine/aggregation/patient-summary';
import { computeFollowUpOutcomes, type ActiveRegimen } from '@/engine/trial/follow-up-outcomes';
import { createLocalDayResolver, utcDayNumber } from '@/engine/time/local-day';
import { AppError } from '@/lib/errors';
import type { TrialAnalysisRow } from '../analysis-dataset';
import type { TrialStatus } from '../contracts';
import { adherentThreshold, gapDays, isoDayOf } from '../protocol';
import { findTrial, readTrialState, unknownTrialMessage } from './trial-records';

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

/** Counts per UTC quarter hour (epoch seconds ÷ 900) of one patient, in matching order. */
type BucketCounts = { patientId: string; buckets: number[]; counts: number[] };
const quarterMs = 900_000;
const quarterHour = (column: SQL | AnyColumn) => sql`floor(extract(epoch from ${column}) / 900)::int`;

export async function buildTrialAnalysisDataset(options: {
  database: Database;
  trialId: string;
  now: Date;
}): Promise<TrialAnalysisDataset> {
  const { database, trialId, now } = options;
  const trial = await findTrial(database, trialId);
  if (trial === null) throw new AppError('not_found', unknownTrialMessage);
  // The status as the overview and enrolment read it (the same rule, the same query).
  const { status } = await readTrialState(database, trial, isoDayOf(now));
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
  const dataset = (rows: TrialAnalysisRow[]): TrialAnalysisDataset => ({
    trial: { id: trial.id, name: trial.name, synthetic: trial.synthetic, startDate: trial.startDate, weeks: trial.weeks, status },
    asOf: isoFromDayNumber(today),
    rows,
  });
  if (participants.length === 0) return dataset([]);

  // Each participant's window: 12 weeks before enrolment to 12 weeks after, a day wider either side in UTC
  // because local days may start before or after UTC midnight.
  const ofTrial = eq(trialEnrolments.trialId, trialId);
  const rowsOf = async <Row>(query: SQL) => ((await database.execute(query)) as unknown as { rows: Row[] }).rows;
  const windowStart = sql`((${trialEnrolments.enrolledOn} - ${windowDays + 1}::integer)::timestamp at time zone 'UTC')`;
  const windowEnd = sql`((${trialEnrolments.enrolledOn} + ${windowDays + 1}::integer)::timestamp at time zone 'UTC')`;
  const [regimenRows, takenRows, fillRows, messageRows] = await Promise.all([
    database
      .select({ patientId: regimens.patientId, start: regimens.startDate, end: regimens.endDate, dosesPerDay: regimens.dosesPerDay })
      .from(regimens)
      .innerJoin(trialEnrolments, and(ofTrial, eq(trialEnrolments.patientId, regimens.patientId))),
    // Only confirmed-taken doses are read (a scheduled dose without one counts as not taken), counted per
    // UTC quarter hour and sent as one array per patient: a tenth of the rows to parse.
    rowsOf<BucketCounts>(sql`
      select counted.patient_id as "patientId", array_agg(counted.bucket) as "buckets", array_agg(counted.doses) as "counts"
      from (
        select ${doseEvents.patientId} as patient_id, ${quarterHour(doseEvents.scheduledAt)} as bucket, count(*)::int as doses
        from ${doseEvents}
        inner join ${trialEnrolments} on ${ofTrial} and ${trialEnrolments.patientId} = ${doseEvents.patientId}
        where ${doseEvents.status} = 'taken' and ${doseEvents.scheduledAt} >= ${windowStart} and ${doseEvents.scheduledAt} < ${windowEnd}
        group by 1, 2
      ) counted
      group by counted.patient_id`),
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
          gte(dispensings.dispensedOn, sql`${trialEnrolments.enrolledOn} - ${DISPENSING_LOOKBACK_DAYS}::integer`),
          lt(dispensings.dispensedOn, sql`${trialEnrolments.enrolledOn} + ${windowDays}::integer`),
        ),
      )
      .orderBy(asc(dispensings.dispensedOn)),
    // Outbound messages once per policy decision (a WhatsApp message and its SMS fallback are one), at the
    // first send; replies each. Counted per quarter hour like the doses.
    rowsOf<BucketCounts & { inbound: number[] }>(sql`
      select counted.patient_id as "patientId", array_agg(counted.bucket) as "buckets", array_agg(counted.outbound) as "counts",
        array_agg(counted.inbound) as "inbound"
      from (
        select sent.patient_id, sent.bucket as bucket,
          count(*) filter (where not sent.is_inbound)::int as outbound, count(*) filter (where sent.is_inbound)::int as inbound
        from (
          select ${messages.patientId} as patient_id, ${messages.direction} = 'inbound' as is_inbound,
            min(${quarterHour(messages.sentAt)}) as bucket
          from ${messages}
          inner join ${trialEnrolments} on ${ofTrial} and ${trialEnrolments.patientId} = ${messages.patientId}
          where ${messages.sentAt} >= ((${trialEnrolments.enrolledOn} - 1)::timestamp at time zone 'UTC') and ${messages.sentAt} < ${windowEnd}
          group by 1, 2, case when ${messages.direction} = 'outbound' then coalesce(${messages.policyDecisionId}, ${messages.id}) else ${messages.id} end
        ) sent
        group by 1, 2
      ) counted
      group by counted.patient_id`),
  ]);

  type Gathered = {
    regimens: ActiveRegimen[];
    takenByDay: Map<number, number>;
    fills: Omit<DispensingRow, 'productName' | 'patientId'>[];
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
    row.buckets.forEach((bucket, index) => {
      const day = localDay(new Date(bucket * quarterMs), own.timezone);
      own.takenByDay.set(day, (own.takenByDay.get(day) ?? 0) + row.counts[index]!);
    });
  }
  for (const row of fillRows) byPatient.get(row.patientId)?.fills.push(row);
  // Messages count in the weeks reached only, known once each participant's weeks are (below).
  const messagesByPatient = new Map<string, { day: number; outbound: number; inbound: number }[]>();
  for (const row of messageRows) {
    const own = byPatient.get(row.patientId);
    if (own === undefined) continue;
    messagesByPatient.set(
      row.patientId,
      row.buckets.map((bucket, index) => ({
        day: localDay(new Date(bucket * quarterMs), own.timezone),
        outbound: row.counts[index]!,
        inbound: row.inbound[index]!,
      })),
    );
  }

  const rows = participants.map((participant): TrialAnalysisRow => {
    const own = byPatient.get(participant.patientId)!;
    const followUp = computeFollowUpOutcomes({
      enrolledOn: own.enrolledOn,
      weeks: trial.weeks,
      today: localDay(now, own.timezone),
      regimens: own.regimens,
      takenByDay: own.takenByDay,
      gapDays,
    });
    const reachedEnd = own.enrolledOn + 7 * followUp.weeksReached;
    const pdc =
      followUp.weeksReached === 0
        ? null
        : periodPdc(medicationEventsFrom(own.fills, reachedEnd), { start: own.enrolledOn, end: reachedEnd });
    let outbound = 0;
    let replies = 0;
    for (const counted of messagesByPatient.get(participant.patientId) ?? []) {
      if (counted.day < own.enrolledOn || counted.day >= reachedEnd) continue;
      outbound += counted.outbound;
      replies += counted.inbound;
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
      adherent: outcome === null ? null : outcome >= adherentThreshold ? 1 : 0,
      refillPdc: pdc?.value ?? null,
      daysToFirstGap: followUp.daysToFirstGap,
      messages: outbound,
      replies,
      weekly: followUp.weekly,
    };
  });
  return dataset(rows);
}
