import 'server-only';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { messages, patients, surveyMessageChunks } from '@/db/schema';
import { assertMessagingConsent, MessagingConsentMissingError } from '@/features/consent';
import { AppError } from '@/lib/errors';
import { surveyMessageSendJobKind } from '@/lib/messaging-job-kinds';
import { parseInput } from '@/lib/parse-input';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePatientCareTeam, requirePermission } from '@/lib/server/authorization';
import { enqueueJob } from '@/lib/server/jobs';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { type OfferSurveyByMessageResult, offerSurveyByMessageInputSchema } from '../schemas';
import { quietHoursEnd } from './survey-message-store';
import { findOrStartResponse } from './survey-store';

/** How long an unanswered survey message stays open before a new offer may replace it. */
const staleAfterMs = 24 * 60 * 60 * 1000;

/**
 * An admin, or a clinician of the patient's organisation, sends a patient a survey by message (the trigger of
 * docs/decisions/051). The patient's unfinished response to that survey is continued — whether it started in
 * the browser or by message, it is one response — else a new one starts on the current version. The first
 * questions go out in a 'survey-message-send' job (which checks consent and the WhatsApp window again at
 * sending). Refused, with the reason, when the patient opted in to surveys on neither WhatsApp nor SMS. While a
 * message of the survey awaits its answer nothing more is queued, unless its delivery failed or a day passed. When
 * the patient's last message of it was an invitation they answered "Not now" (decision 056), the result says so
 * (the clinician decided to ask again; a new invitation or the questions follow).
 */
export async function offerSurveyByMessage(options: {
  database: Database;
  actor: Pick<SessionUser, 'id' | 'role'> | null;
  input: unknown;
  now: Date;
  request?: Partial<RequestContext>;
}): Promise<OfferSurveyByMessageResult> {
  const { database, now } = options;
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'surveys:send-by-message',
    message: 'Only a patient’s clinicians and admins send surveys by message.',
    audit: { database, action: 'survey.send-by-message', ...options.request },
  });
  const input = parseInput(offerSurveyByMessageInputSchema, options.input, { label: 'The survey to send' });
  const [patient] = await database
    .select({ organisationId: patients.organisationId, timezone: patients.timezone })
    .from(patients)
    .where(eq(patients.id, input.patientId));
  await requirePatientCareTeam({
    database,
    actor,
    patientId: input.patientId,
    patientFound: patient !== undefined,
    action: 'survey.send-by-message',
    refusal: new AppError('not_found', 'patientId: there is no such patient among yours.'),
    request: options.request,
  });

  const consented: ('whatsapp' | 'sms')[] = [];
  for (const channel of ['whatsapp', 'sms'] as const) {
    try {
      await assertMessagingConsent({ database, patientId: input.patientId, channel, purpose: 'surveys', at: now });
      consented.push(channel);
    } catch (error) {
      if (!(error instanceof MessagingConsentMissingError)) throw error;
    }
  }
  if (consented.length === 0)
    throw new AppError('conflict', 'This patient has not opted in to surveys by WhatsApp or SMS, so no survey was sent.');

  const found = await findOrStartResponse(database, {
    patientId: input.patientId,
    surveyKey: input.surveyKey,
    now,
    afterFinished: 'start-new',
    // The channel it starts on (rates per channel, decision 047); WhatsApp first, as the send path tries it.
    channel: consented[0]!,
  });
  const responseId = found.kind === 'existing' ? found.response.id : found.responseId;
  const [last] = await database
    .select({ status: surveyMessageChunks.status, updatedAt: surveyMessageChunks.updatedAt })
    .from(surveyMessageChunks)
    .where(eq(surveyMessageChunks.surveyResponseId, responseId))
    .orderBy(desc(surveyMessageChunks.createdAt))
    .limit(1);
  const declinedAt = last?.status === 'declined' ? last.updatedAt.toISOString() : null;
  // An open message that can no longer be answered gives way: its delivery failed, or a day passed without an
  // answer (an SMS reply is matched to our latest message of the last 24 hours only, decision 020).
  const open = await database
    .select({
      id: surveyMessageChunks.id,
      status: surveyMessageChunks.status,
      updatedAt: surveyMessageChunks.updatedAt,
      delivery: messages.status,
    })
    .from(surveyMessageChunks)
    .leftJoin(messages, eq(messages.id, surveyMessageChunks.messageId))
    .where(and(eq(surveyMessageChunks.surveyResponseId, responseId), inArray(surveyMessageChunks.status, ['sending', 'awaiting'])));
  let waiting = false;
  for (const chunk of open) {
    const failed = chunk.delivery === 'failed' || chunk.delivery === 'undelivered';
    const stale = chunk.status === 'awaiting' && now.getTime() - chunk.updatedAt.getTime() > staleAfterMs;
    if (!failed && !stale) {
      waiting = true;
      continue;
    }
    await database
      .update(surveyMessageChunks)
      .set({ status: 'expired', statusReason: failed ? 'delivery-failed' : 'unanswered', updatedAt: now })
      .where(and(eq(surveyMessageChunks.id, chunk.id), eq(surveyMessageChunks.status, chunk.status)));
  }
  const status = waiting ? 'awaiting-answer' : 'queued';
  // Not in the patient's quiet hours (21:00–08:00 their time, as reminders): the first message waits for morning.
  const sendsAt = quietHoursEnd(now, patient!.timezone);
  if (status === 'queued') {
    // One offer per minute and response: a double click queues one job (the send claims one chunk anyway).
    await enqueueJob({
      database,
      kind: surveyMessageSendJobKind,
      payload: { responseId },
      createdBy: actor.id,
      runAt: sendsAt,
      dedupeKey: `${surveyMessageSendJobKind}:${responseId}:offer:${Math.floor(now.getTime() / 60_000)}`,
    });
  }
  await recordAuditEvent(database, {
    action: 'survey.send-by-message',
    outcome: 'success',
    actorUserId: actor.id,
    ...options.request,
    details: { patientId: input.patientId, surveyKey: input.surveyKey, responseId, status },
  });
  return { responseId, status, sendsAt: sendsAt.toISOString(), declinedAt };
}
