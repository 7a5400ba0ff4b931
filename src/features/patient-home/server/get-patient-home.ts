import 'server-only';
import { and, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { auditLog, dispensings, doseEvents, messages, products } from '@/db/schema';
import { dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import { createLocalTimeConverter } from '@/engine/time/local-day';
import type { InboundReading } from '@/lib/domain/message-records';
import { AppError } from '@/lib/errors';
import type { SessionUser } from '@/lib/server/session';
import { doseAnswerUndoMinutes } from '../dose-answer-rules';
import type { PatientHome } from '../patient-home-dto';
import { findOwnPatient, findTodaysDoseSlots } from './find-own-patient-day';

function messageText(row: { body: string | null; replyText: string | null; inboundReading: InboundReading | null }): string {
  if (row.body) return row.body;
  if (row.replyText) return row.replyText;
  const content = row.inboundReading?.content;
  if (content?.kind === 'text') return content.text;
  if (content?.kind === 'button') return content.title ?? content.payload;
  if (content?.kind === 'reaction') return content.emoji;
  if (content?.kind === 'media') return `(${content.mediaType})`;
  return '';
}

/**
 * The patient's home (/ signed in as a patient): today's doses with their answers, the next refill due,
 * this month's answered doses, and the latest messages. Only the patient's own record: a patient account
 * without a linked record gets 'no-record'.
 */
export async function getPatientHome(options: { database: Database; actor: SessionUser; now: Date }): Promise<PatientHome> {
  const { database, actor, now } = options;
  if (actor.role !== 'patient') throw new AppError('forbidden', 'This home is for patients.');
  const patient = await findOwnPatient(database, actor.id);
  if (patient === null) return { kind: 'no-record' };

  const { day, slots } = await findTodaysDoseSlots({ database, patient, now });
  const answeredIds = slots.flatMap((slot) => (slot.recorded === null ? [] : [slot.recorded.id]));
  const undoFrom = new Date(now.getTime() - doseAnswerUndoMinutes * 60_000);
  const recentAnswers =
    answeredIds.length === 0
      ? []
      : await database
          .select({
            doseEventId: sql<string>`${auditLog.details} ->> 'doseEventId'`,
            answeredAt: sql<string>`${auditLog.details} ->> 'answeredAt'`,
          })
          .from(auditLog)
          .where(
            and(
              eq(auditLog.action, 'dose.answer'),
              eq(auditLog.outcome, 'success'),
              eq(auditLog.actorUserId, actor.id),
              sql`(${auditLog.details} ->> 'answeredAt')::timestamptz >= ${undoFrom.toISOString()}::timestamptz`,
              inArray(sql<string>`${auditLog.details} ->> 'doseEventId'`, answeredIds),
            ),
          );
  const undoUntil = new Map(
    recentAnswers.map((row) => [row.doseEventId, new Date(Date.parse(row.answeredAt) + doseAnswerUndoMinutes * 60_000).toISOString()]),
  );

  // The month so far, in the patient's own calendar.
  const date = isoFromDayNumber(day);
  const monthStartDay = dayNumberFromIso(`${date.slice(0, 7)}-01`);
  const monthStart = new Date(createLocalTimeConverter()(patient.timeZone, monthStartDay, 0) * 1000);
  const [monthCounts, fills, latest] = await Promise.all([
    database
      .select({ status: doseEvents.status, count: sql<number>`count(*)::int` })
      .from(doseEvents)
      .where(and(eq(doseEvents.patientId, patient.id), gte(doseEvents.scheduledAt, monthStart), lt(doseEvents.scheduledAt, now)))
      .groupBy(doseEvents.status),
    database
      .selectDistinctOn([dispensings.productId], {
        medication: products.name,
        dueOn: sql<string>`(${dispensings.dispensedOn} + ${dispensings.daysSupply})::text`,
      })
      .from(dispensings)
      .innerJoin(products, eq(products.id, dispensings.productId))
      .where(eq(dispensings.patientId, patient.id))
      .orderBy(dispensings.productId, desc(dispensings.dispensedOn)),
    database
      .select({
        id: messages.id,
        direction: messages.direction,
        channel: messages.channel,
        sentAt: messages.sentAt,
        body: messages.body,
        replyText: messages.replyText,
        inboundReading: messages.inboundReading,
      })
      .from(messages)
      .where(eq(messages.patientId, patient.id))
      .orderBy(desc(messages.sentAt))
      .limit(5),
  ]);
  const countOf = (status: string) => monthCounts.find((row) => row.status === status)?.count ?? 0;
  // The earliest refill due among the medicines still dispensed (a fill's supply runs out on dispensed + days).
  const [nextRefill] = fills.sort((a, b) => a.dueOn.localeCompare(b.dueOn));

  return {
    kind: 'home',
    pseudonym: patient.pseudonym,
    synthetic: patient.synthetic,
    timeZone: patient.timeZone,
    today: {
      date,
      doses: slots.map((slot) => ({
        productId: slot.productId,
        medication: slot.medication,
        index: slot.index,
        of: slot.of,
        scheduledAt: slot.scheduledAt.toISOString(),
        localTime: slot.localTime,
        answer:
          slot.recorded === null
            ? null
            : {
                status: slot.recorded.status,
                source: slot.recorded.source,
                doseEventId: slot.recorded.id,
                undoUntil: slot.recorded.source === 'app' ? (undoUntil.get(slot.recorded.id) ?? null) : null,
              },
      })),
    },
    nextRefill:
      nextRefill === undefined
        ? null
        : {
            medication: nextRefill.medication,
            dueOn: nextRefill.dueOn,
            daysLeft: Math.round(Date.parse(`${nextRefill.dueOn}T00:00:00Z`) / 86_400_000 - day),
          },
    month: {
      label: new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
        new Date(monthStartDay * 86_400_000),
      ),
      from: isoFromDayNumber(monthStartDay),
      through: date,
      taken: countOf('taken'),
      skipped: countOf('skipped'),
      missed: countOf('missed'),
      answered: countOf('taken') + countOf('skipped') + countOf('missed'),
    },
    messages: latest.map((row) => ({
      id: row.id,
      direction: row.direction,
      channel: row.channel,
      sentAt: row.sentAt.toISOString(),
      text: messageText(row),
    })),
  };
}
