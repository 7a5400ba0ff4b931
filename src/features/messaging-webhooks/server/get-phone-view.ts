import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { messages, policyDecisions } from '@/db/schema';
import { quickReplyButtons, smsReplyKeywords, type TemplateLanguage } from '@/engine/messaging';
import { outboxIsAvailable } from '@/features/outbox';
import type { Environment } from '@/lib/env';
import { AppError } from '@/lib/errors';
import type { PhoneMessageDto, PhoneThreadDto, PhoneViewDto } from '../phone-schemas';
import { findPhonePatient } from './find-phone-patient';

const threadLimit = 60;

export function phoneLanguageOf(language: string | null | undefined): TemplateLanguage {
  return language?.slice(0, 2).toLowerCase() === 'es' ? 'es' : 'en';
}

/**
 * /dev/phone: a patient's WhatsApp and SMS threads as their phone would show them (the latest messages of the
 * `messages` table, oldest first), with the quick-reply buttons of the latest outbound WhatsApp message (or the
 * reply buttons / list rows it offered, when it was interactive) and the
 * SMS reply keywords. Served only where the local outbox is (development, DEV_OUTBOX).
 */
export async function getPhoneView(options: {
  database: Database;
  environment: Environment;
  patientId: string;
}): Promise<PhoneViewDto | null> {
  const { database } = options;
  if (!outboxIsAvailable(options.environment)) throw new AppError('not_found', 'There is no phone here.');
  const patient = await findPhonePatient({ database, patientId: options.patientId });
  if (patient === null) return null;
  const threads: PhoneThreadDto[] = [];
  for (const channel of ['whatsapp', 'sms'] as const) {
    const rows = await database
      .select({
        id: messages.id,
        direction: messages.direction,
        body: messages.body,
        sentAt: messages.sentAt,
        status: messages.status,
        language: messages.templateLanguage,
        replyChoices: messages.replyChoices,
      })
      .from(messages)
      .where(and(eq(messages.patientId, patient.id), eq(messages.channel, channel)))
      .orderBy(desc(messages.sentAt), desc(messages.id))
      .limit(threadLimit);
    const latestOutbound = rows.find((row) => row.direction === 'outbound');
    const language = phoneLanguageOf(latestOutbound?.language ?? patient.language);
    const thread: PhoneMessageDto[] = rows.reverse().map((row) => ({
      id: row.id,
      direction: row.direction,
      body: row.body ?? '',
      sentAt: row.sentAt.toISOString(),
      status: row.status,
    }));
    threads.push(
      channel === 'whatsapp'
        ? {
            channel,
            messages: thread,
            replyOptions: quickReplyButtons(language).map((button) => ({ label: button.title, value: button.action })),
            buttonsFor: latestOutbound?.id ?? null,
            choices:
              latestOutbound?.replyChoices == null
                ? null
                : {
                    kind: latestOutbound.replyChoices.kind,
                    options: latestOutbound.replyChoices.choices.map((choice) => ({ id: choice.id, label: choice.title })),
                  },
          }
        : {
            channel,
            messages: thread,
            replyOptions: [
              ...smsReplyKeywords(language).map((keyword) => ({ label: `${keyword.keyword} (${keyword.label})`, value: keyword.keyword })),
              { label: 'STOP', value: 'STOP' },
              { label: 'START', value: 'START' },
              { label: 'HELP', value: 'HELP' },
            ],
            buttonsFor: null,
            choices: null,
          },
    );
  }
  const [decision] = await database
    .select({
      localDate: policyDecisions.localDate,
      status: policyDecisions.status,
      reason: policyDecisions.statusReason,
      templateId: policyDecisions.templateId,
      scheduledFor: policyDecisions.scheduledFor,
      policyName: policyDecisions.policyName,
      policyVersion: policyDecisions.policyVersion,
    })
    .from(policyDecisions)
    .where(and(eq(policyDecisions.patientId, patient.id), eq(policyDecisions.source, 'live')))
    .orderBy(desc(policyDecisions.localDate))
    .limit(1);
  const latestDecision = decision === undefined ? null : { ...decision, scheduledFor: decision.scheduledFor?.toISOString() ?? null };
  return { patient: { id: patient.id, pseudonym: patient.pseudonym }, threads, latestDecision };
}
