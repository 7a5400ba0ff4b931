import 'server-only';
import { and, eq, gte, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { doseEvents, messages, patients, regimens } from '@/db/schema';
import { dayNumberFromIso } from '@/engine/adherence/day-number';
import {
  doseStatusOf,
  firstInstantAtLocalTime,
  keywordReplies,
  type KeywordAction,
  templateLanguages,
  type TemplateLanguage,
} from '@/engine/messaging';
import { applyConsentKeyword } from '@/features/consent';
import { answerSurveyByMessage } from '@/features/surveys';
import { AppError } from '@/lib/errors';
import { enqueueJob } from '@/lib/server/jobs';
import { type InboundMessageOutcome, replyDoseSources, type ServiceReplyKind } from '../schemas';
import { serviceReplyJobKind } from '@/lib/messaging-job-kinds';
import { type AnsweredMessage, findAnsweredMessage } from './find-answered-message';

const serviceReplyKindOf: Readonly<Record<KeywordAction, ServiceReplyKind>> = {
  'opt-out': 'stop-confirmation',
  'opt-in': 'start-confirmation',
  help: 'help',
};

/**
 * The 'inbound-message-received' job: acts once on a reply the webhook stored. A STOP/START/HELP keyword goes
 * to the consent ledger (STOP withdraws every channel) and its answer, which carriers require, is queued as a
 * 'service-reply'. A dose answer becomes a dose event of the dose the answered message was about (observed by
 * 'whatsapp-reply' or 'sms-reply', keyed by the reply's provider id, so a rerun changes nothing). "Not yet",
 * media and anything unrecognised are kept as they are (the message row) for the clinicians' list.
 * All in one transaction: a rerun after a crash finds either everything or nothing done.
 */
export async function actOnInboundMessage(options: { database: Database; messageId: string; now: Date }): Promise<InboundMessageOutcome> {
  return options.database.transaction(async (database) => {
    const [message] = await database
      .select({
        id: messages.id,
        patientId: messages.patientId,
        channel: messages.channel,
        direction: messages.direction,
        body: messages.body,
        sentAt: messages.sentAt,
        providerMessageId: messages.providerMessageId,
        replyTo: messages.replyToProviderMessageId,
        reading: messages.inboundReading,
      })
      .from(messages)
      .where(eq(messages.id, options.messageId));
    if (message === undefined) throw new AppError('not_found', 'messageId: there is no such message.');
    if (message.direction !== 'inbound' || message.reading === null) return { kind: 'kept', reason: 'not-inbound' };
    const { reading } = message;
    if (reading.interpretation === null) return { kind: 'kept', reason: 'media' };

    // Text is read against the ledger again: YES/SÍ opt back in only a patient a keyword opted out.
    const consentChannel = message.channel === 'email' ? null : message.channel;
    if (reading.content.kind === 'text' && consentChannel !== null) {
      const keyword = await applyConsentKeyword({
        database,
        patientId: message.patientId,
        channel: consentChannel,
        text: reading.content.text,
        at: message.sentAt,
      });
      if (keyword.action !== null) {
        const kind = serviceReplyKindOf[keyword.action];
        const language = (await patientLanguage(database, message.patientId)) ?? keyword.language ?? 'en';
        const replyChannel = message.channel === 'whatsapp' || message.channel === 'sms' ? message.channel : null;
        if (replyChannel !== null) {
          await enqueueJob({
            database,
            kind: serviceReplyJobKind,
            payload: {
              patientId: message.patientId,
              channel: replyChannel,
              body: keywordReplies[keyword.action][language],
              replyToMessageId: message.id,
              kind,
            },
            dedupeKey: `${serviceReplyJobKind}:${message.id}`,
          });
        }
        return {
          kind: 'keyword',
          action: keyword.action,
          consentChanges: keyword.changes.length,
          serviceReply: replyChannel === null ? null : kind,
        };
      }
    }

    // A reply to a survey message awaiting its answer is the survey's, before it could be read as a dose
    // answer ("1" is "taken" by SMS, and "1 3 2" three answers): decision 051.
    if (reading.content.kind === 'text' || reading.content.kind === 'button') {
      const survey = await answerSurveyByMessage({
        database,
        message: {
          id: message.id,
          patientId: message.patientId,
          channel: message.channel,
          sentAt: message.sentAt,
          replyToProviderMessageId: message.replyTo,
          content: reading.content,
          // Weighed when a dose message awaits its answer too (decision 063): "1" reads as "taken" there.
          doseReading: reading.interpretation.kind === 'reply' && reading.interpretation.reply.intent !== 'unrecognised',
        },
        now: options.now,
      });
      if (survey !== null) return survey;
    }

    if (reading.interpretation.kind !== 'reply') return { kind: 'kept', reason: 'unrecognised' };
    const classification = reading.interpretation.reply;
    if (classification.intent === 'not-yet') return { kind: 'kept', reason: 'not-yet' };
    const status = doseStatusOf(classification);
    if (status === null) return { kind: 'kept', reason: 'unrecognised' };
    const source = message.channel === 'whatsapp' || message.channel === 'sms' ? replyDoseSources[message.channel] : null;
    const answered = await findAnsweredMessage({
      database,
      patientId: message.patientId,
      channel: message.channel,
      replyToProviderMessageId: message.replyTo,
      repliedAt: message.sentAt,
    });
    if (answered === null || source === null) return { kind: 'kept', reason: 'no-message-answered' };

    const scheduledAt = await doseTimeOf(database, message.patientId, answered);
    const inserted = await database
      .insert(doseEvents)
      .values({
        patientId: message.patientId,
        productId: await soleProductOn(database, message.patientId, scheduledAt),
        scheduledAt,
        confirmedAt: status === 'taken' ? message.sentAt : null,
        status,
        missedReason: classification.intent === 'missed' ? classification.reason : null,
        source,
        sourceRecordId: message.providerMessageId ?? message.id,
      })
      .onConflictDoNothing()
      .returning({ id: doseEvents.id });
    return { kind: 'dose', status, recorded: inserted.length > 0, answered: answered.answered };
  });
}

async function patientLanguage(database: Database, patientId: string): Promise<TemplateLanguage | null> {
  const [row] = await database.select({ language: patients.language }).from(patients).where(eq(patients.id, patientId));
  const language = row?.language?.slice(0, 2).toLowerCase();
  return (templateLanguages as readonly string[]).includes(language ?? '') ? (language as TemplateLanguage) : null;
}

/**
 * The dose the answered message was about: its decision's local date at the patient's usual first-dose time
 * (the decision context's firstDoseMinute, in the patient's time zone); without a decision, the message's time.
 */
async function doseTimeOf(database: Database, patientId: string, answered: AnsweredMessage): Promise<Date> {
  const minute = answered.decision?.context.firstDoseMinute;
  if (answered.decision === null || typeof minute !== 'number' || !Number.isInteger(minute) || minute < 0 || minute >= 24 * 60) {
    return answered.sentAt;
  }
  const [row] = await database.select({ timezone: patients.timezone }).from(patients).where(eq(patients.id, patientId));
  try {
    return new Date(firstInstantAtLocalTime(row?.timezone ?? 'UTC', dayNumberFromIso(answered.decision.localDate), minute));
  } catch {
    // A time zone Intl does not know: the message's own time is the nearest we can say.
    return answered.sentAt;
  }
}

/** The product of the patient's regimen running on that day when there is exactly one; else null (unknown). */
async function soleProductOn(database: Database, patientId: string, at: Date): Promise<string | null> {
  const day = at.toISOString().slice(0, 10);
  const rows = await database
    .selectDistinct({ productId: regimens.productId })
    .from(regimens)
    .where(
      and(
        eq(regimens.patientId, patientId),
        isNotNull(regimens.productId),
        lte(regimens.startDate, day),
        or(isNull(regimens.endDate), gte(regimens.endDate, day)),
      ),
    )
    .limit(2);
  return rows.length === 1 ? rows[0]!.productId : null;
}
