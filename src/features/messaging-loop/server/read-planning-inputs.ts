import 'server-only';
/**
 * The daily loop's set-based reads: for a batch of patients, everything their decision contexts need, in one
 * query per table (never one per patient), so 100,000 patients take a few hundred queries.
 */
import { and, eq, gt, gte, inArray, isNotNull, lt, or, param, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dispensings, doseEvents, messages, patientPersonaPosteriors, patients, regimens } from '@/db/schema';

const dayMs = 86_400_000;

export type EnrolledPatientRow = {
  id: string;
  timeZone: string | null;
  persona: string | null;
  ageBand: string | null;
  sex: string | null;
  conditions: string[];
  preferredChannel: string | null;
  programme: string;
  /** The latest survey persona posterior (issue 17), null without one. */
  surveyPosterior: Record<string, number> | null;
  surveyAnswers: number | null;
  surveyUpdatedAt: Date | null;
};

/** Enrolled patients after `afterId` (id order), at most `limit`, optionally only some. */
export async function readEnrolledPatients(options: {
  database: Database;
  afterId: string | null;
  limit: number;
  patientIds?: readonly string[];
}): Promise<EnrolledPatientRow[]> {
  const rows = await options.database
    .select({
      id: patients.id,
      timeZone: patients.timezone,
      persona: patients.persona,
      ageBand: patients.ageBand,
      sex: patients.sex,
      conditions: patients.conditions,
      preferredChannel: patients.preferredChannel,
      programme: patients.messagingProgramme,
      surveyPosterior: patientPersonaPosteriors.posterior,
      surveyAnswers: patientPersonaPosteriors.answers,
      surveyUpdatedAt: patientPersonaPosteriors.updatedAt,
    })
    .from(patients)
    .leftJoin(patientPersonaPosteriors, eq(patientPersonaPosteriors.patientId, patients.id))
    .where(
      and(
        isNotNull(patients.messagingProgramme),
        options.afterId === null ? undefined : gt(patients.id, options.afterId),
        options.patientIds === undefined ? undefined : inArray(patients.id, [...options.patientIds]),
      ),
    )
    .orderBy(patients.id)
    .limit(options.limit);
  return rows.map((row) => ({ ...row, programme: row.programme! }));
}

export type LiveDecisionSummary = {
  /** Local dates (YYYY-MM-DD) of the patient's recent live decisions. */
  recentDates: string[];
  /** The first live decision's local date (the programme's day 0). */
  firstDate: string;
  /** Due instants (epoch ms) of messages planned or sent in the last 7 days, for the frequency cap. */
  sendTimes: number[];
};

export async function readLiveDecisions(options: {
  database: Database;
  patientIds: string[];
  now: Date;
}): Promise<Map<string, LiveDecisionSummary>> {
  const { database, patientIds, now } = options;
  const weekAgo = new Date(now.getTime() - 7 * dayMs);
  // Any zone's today is within a day of UTC's: two days back covers it; a message due in the last 7 days was
  // decided on a local date at most 8 days back.
  const recentFrom = new Date(now.getTime() - 2 * dayMs).toISOString().slice(0, 10);
  const sendsFrom = new Date(now.getTime() - 8 * dayMs).toISOString().slice(0, 10);
  // Per patient, index lookups on (patient, source, local date) bounded to recent dates, and the first date as
  // the index's first entry: a year of daily decisions is never read in full.
  const result = await database.execute(sql`
    select ids.patient_id as "patientId",
      (select min(d.local_date)::text from policy_decisions d where d.patient_id = ids.patient_id and d.source = 'live') as "firstDate",
      coalesce((select json_agg(d.local_date::text) from policy_decisions d
        where d.patient_id = ids.patient_id and d.source = 'live' and d.local_date >= ${recentFrom}::date), '[]') as "recentDates",
      coalesce((select json_agg(extract(epoch from d.scheduled_for) * 1000) from policy_decisions d
        where d.patient_id = ids.patient_id and d.source = 'live' and d.local_date >= ${sendsFrom}::date
          and d.status in ('planned', 'sent') and d.scheduled_for > ${weekAgo.toISOString()}::timestamptz), '[]') as "sendTimes"
    from unnest(${param(patientIds)}::uuid[]) as ids (patient_id)`);
  type Row = { patientId: string; firstDate: string | null; recentDates: string[]; sendTimes: number[] };
  const rows = (result as unknown as { rows: Row[] }).rows.filter((row): row is Row & { firstDate: string } => row.firstDate !== null);
  return new Map(
    rows.map((row) => [row.patientId, { firstDate: row.firstDate, recentDates: row.recentDates, sendTimes: row.sendTimes.map(Number) }]),
  );
}

export type PatientHistory = {
  dosesScheduled7: number;
  dosesConfirmed7: number;
  observedBySmartBottle: boolean;
  observedByReply: boolean;
  outbound7: number;
  outbound28: number;
  outboundTotal: number;
  replies28: number;
  lastReplyAt: number | null;
  /** Sends not made by the live loop (simulated history) in the last 7 days, for the frequency cap. */
  otherSendTimes: number[];
  activeRegimens: number;
  /** Earliest dose time ('HH:MM') among active regimens. */
  firstDoseTime: string | null;
  /** Per medicine, the last day (YYYY-MM-DD) the latest fills last to. */
  supplyEnds: string[];
};

const emptyHistory = (): PatientHistory => ({
  dosesScheduled7: 0,
  dosesConfirmed7: 0,
  observedBySmartBottle: false,
  observedByReply: false,
  outbound7: 0,
  outbound28: 0,
  outboundTotal: 0,
  replies28: 0,
  lastReplyAt: null,
  otherSendTimes: [],
  activeRegimens: 0,
  firstDoseTime: null,
  supplyEnds: [],
});

export async function readPatientHistories(options: {
  database: Database;
  patientIds: string[];
  now: Date;
}): Promise<Map<string, PatientHistory>> {
  const { database, patientIds, now } = options;
  const nowIso = now.toISOString();
  const weekAgo = new Date(now.getTime() - 7 * dayMs).toISOString();
  const fourWeeksAgo = new Date(now.getTime() - 28 * dayMs).toISOString();
  const today = nowIso.slice(0, 10);
  const histories = new Map(patientIds.map((id) => [id, emptyHistory()]));
  const of = (id: string) => histories.get(id)!;

  const [doses, messageRows, regimenRows, supplyRows] = await Promise.all([
    database
      .select({
        patientId: doseEvents.patientId,
        scheduled: sql<number>`count(*)::int`,
        confirmed: sql<number>`(count(*) filter (where ${doseEvents.status} = 'taken'))::int`,
        bottle: sql<boolean>`bool_or(${doseEvents.source} = 'smart-bottle')`,
        reply: sql<boolean>`bool_or(${doseEvents.source} in ('whatsapp-reply', 'sms-reply'))`,
      })
      .from(doseEvents)
      .where(
        and(inArray(doseEvents.patientId, patientIds), gte(doseEvents.scheduledAt, new Date(weekAgo)), lt(doseEvents.scheduledAt, now)),
      )
      .groupBy(doseEvents.patientId),
    database
      .select({
        patientId: messages.patientId,
        outbound7: sql<number>`(count(*) filter (where ${messages.direction} = 'outbound' and ${messages.sentAt} >= ${weekAgo}::timestamptz))::int`,
        outbound28: sql<number>`(count(*) filter (where ${messages.direction} = 'outbound' and ${messages.sentAt} >= ${fourWeeksAgo}::timestamptz))::int`,
        outboundTotal: sql<number>`(count(*) filter (where ${messages.direction} = 'outbound'))::int`,
        replies28: sql<number>`(count(*) filter (where ${messages.direction} = 'inbound' and ${messages.sentAt} >= ${fourWeeksAgo}::timestamptz))::int`,
        lastReplyAt: sql<
          number | null
        >`extract(epoch from max(${messages.sentAt}) filter (where ${messages.direction} = 'inbound')) * 1000`,
        // Proactive sends without a live decision (the live ones are counted from policy_decisions, so a
        // WhatsApp message and its SMS fallback count once); service replies carry no category.
        otherSendTimes: sql<
          number[]
        >`coalesce(json_agg(extract(epoch from ${messages.sentAt}) * 1000) filter (where ${messages.direction} = 'outbound' and ${messages.policyDecisionId} is null and ${messages.category} is not null and ${messages.sentAt} >= ${weekAgo}::timestamptz), '[]')`,
      })
      .from(messages)
      .where(and(inArray(messages.patientId, patientIds), lt(messages.sentAt, now)))
      .groupBy(messages.patientId),
    database
      .select({
        patientId: regimens.patientId,
        active: sql<number>`count(*)::int`,
        firstDoseTime: sql<string | null>`min(${regimens.doseTimes}[1])`,
      })
      .from(regimens)
      .where(
        and(
          inArray(regimens.patientId, patientIds),
          sql`${regimens.startDate} <= ${today}::date`,
          or(sql`${regimens.endDate} is null`, sql`${regimens.endDate} >= ${today}::date`),
        ),
      )
      .groupBy(regimens.patientId),
    database
      .select({
        patientId: dispensings.patientId,
        supplyEnd: sql<string>`max(${dispensings.dispensedOn} + ${dispensings.daysSupply})::text`,
      })
      .from(dispensings)
      .where(inArray(dispensings.patientId, patientIds))
      .groupBy(dispensings.patientId, sql`coalesce(${dispensings.productId}, ${dispensings.medicationCode})`),
  ]);
  for (const row of doses) {
    Object.assign(of(row.patientId), {
      dosesScheduled7: row.scheduled,
      dosesConfirmed7: row.confirmed,
      observedBySmartBottle: row.bottle === true,
      observedByReply: row.reply === true,
    });
  }
  for (const row of messageRows) {
    Object.assign(of(row.patientId), {
      outbound7: row.outbound7,
      outbound28: row.outbound28,
      outboundTotal: row.outboundTotal,
      replies28: row.replies28,
      lastReplyAt: row.lastReplyAt === null ? null : Number(row.lastReplyAt),
      otherSendTimes: row.otherSendTimes.map(Number),
    });
  }
  for (const row of regimenRows) Object.assign(of(row.patientId), { activeRegimens: row.active, firstDoseTime: row.firstDoseTime });
  for (const row of supplyRows) of(row.patientId).supplyEnds.push(row.supplyEnd);
  return histories;
}
