import 'server-only';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { messages, surveyMessageChunks } from '@/db/schema';
import {
  afterUnparseableReply,
  invitationQuestionCount,
  nextMessageQuestions,
  renderSurveyInvitation,
  type SurveyInvitationTemplate,
  surveyInvitationReminderTemplate,
  surveyInvitationTemplate,
} from '@/engine/surveys';
import { type ChannelAdapters, sendPatientMessage, type WhatsAppTemplateAlternative } from '@/features/message-sending';
import { getCurrentTemplate } from '@/features/message-templates';
import { AppError } from '@/lib/errors';
import { surveyMessageSendJobKind } from '@/lib/messaging-job-kinds';
import { enqueueJob } from '@/lib/server/jobs';
import type { SurveyMessageSendOutcome } from '../schemas';
import {
  findAwaitingDoseMessage,
  loadResponse,
  questionsOf,
  quietHoursEnd,
  surveyMessageForms,
  surveyMessageLanguage,
} from './survey-message-store';

/**
 * The 'survey-message-send' job (docs/decisions/051). Without `clarifyChunkId`: the response's next questions
 * (at most 3, chosen by the engine) in one message — WhatsApp reply buttons or a list for one choice question,
 * numbered text otherwise, numbered answers by SMS — on a channel the patient opted in to for surveys. The
 * questions go by WhatsApp only inside the 24-hour customer-service window; outside it a patient who gets WhatsApp
 * first is sent the survey invitation template instead when the library records it approved (decision 056: the
 * chunk becomes an `invitation`, and its "Start" tap brings the questions), else SMS; the one automatic reminder
 * (decision 063) goes there as the invitation's reminder template when that is approved, else as the invitation
 * (decision 065). The chunk row is claimed before the provider is called (one open chunk per response), so a retried
 * or doubled job sends nothing twice. With `clarifyChunkId`: that chunk's one clarification, on its channel.
 */
export async function sendSurveyMessage(options: {
  database: Database;
  adapters: ChannelAdapters;
  now: Date;
  responseId: string;
  clarifyChunkId?: string;
  /** The patient's reply this message answers (the next questions, the clarification, a "Start" tap). */
  replyId?: string;
  /** The one automatic reminder (decision 063): this chunk, still unanswered, is sent again. */
  remindChunkId?: string;
}): Promise<SurveyMessageSendOutcome> {
  const { database, now } = options;
  const response = await loadResponse(database, options.responseId);
  if (response === null) throw new AppError('not_found', `responseId: no survey response ${options.responseId}.`);
  // Finished (in the browser, say) since this job was queued: no clarification, questions or reminder follow.
  if (response.completedAt !== null) return { outcome: 'skipped', reason: 'completed' };
  if (options.clarifyChunkId !== undefined) return sendClarification({ ...options, response, chunkId: options.clarifyChunkId });

  const reminding = options.remindChunkId === undefined ? null : await reminderState(database, response.id, options.remindChunkId);
  if (reminding === 'skip') return { outcome: 'skipped', reason: 'not-awaiting' };
  if (nextMessageQuestions(response.definition, response.answers, response.fromRecord).length === 0)
    return { outcome: 'skipped', reason: 'nothing-to-ask' };
  const deferred = await deferInQuietHours({ ...options, response });
  if (deferred !== null) return deferred;
  if (reminding === 'due') {
    // It gives way to the reminder: the same questions (or the invitation) go again as a new message. Answered
    // since reminderState looked (a reply, or the last answer in the browser), it no longer awaits: no reminder.
    const expired = await database
      .update(surveyMessageChunks)
      .set({ status: 'expired', statusReason: 'reminded', updatedAt: now })
      .where(and(eq(surveyMessageChunks.id, options.remindChunkId!), eq(surveyMessageChunks.status, 'awaiting')))
      .returning({ id: surveyMessageChunks.id });
    if (expired.length === 0) return { outcome: 'skipped', reason: 'not-awaiting' };
  }
  // The answers as they stand now, not when the job began: one given in the browser meanwhile is not asked again,
  // and a survey finished meanwhile gets no message (one finished while this one is sent closes it, survey-store).
  const current = (await loadResponse(database, response.id)) ?? response;
  if (current.completedAt !== null) return { outcome: 'skipped', reason: 'completed' };
  const questions = nextMessageQuestions(current.definition, current.answers, current.fromRecord);
  if (questions.length === 0) return { outcome: 'skipped', reason: 'nothing-to-ask' };
  const [chunk] = await database
    .insert(surveyMessageChunks)
    .values({
      surveyResponseId: response.id,
      patientId: response.patientId,
      // The channel it goes on is set once sent; WhatsApp is the first tried.
      channel: 'whatsapp',
      questionIds: questions.map((question) => question.id),
      status: 'sending',
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: surveyMessageChunks.id });
  if (chunk === undefined) return { outcome: 'skipped', reason: 'awaiting-answer' };

  const forms = surveyMessageForms(questions, chunk.id, { reminder: reminding !== null });
  let sent;
  try {
    const invitation = await invitationFor({ database, response: current, reference: chunk.id, reminder: reminding !== null });
    sent = await sendPatientMessage({
      database,
      adapters: options.adapters,
      now,
      patientId: response.patientId,
      purpose: 'surveys',
      category: 'survey',
      framing: response.surveyKey,
      key: `survey-chunk:${chunk.id}`,
      whatsApp: forms.whatsApp,
      whatsAppTemplate: invitation,
      sms: forms.sms,
    });
  } catch (error) {
    // Passing trouble: the provider did not take it (its message row is gone too); the retry claims afresh.
    await database.delete(surveyMessageChunks).where(eq(surveyMessageChunks.id, chunk.id));
    throw error;
  }
  if (sent.outcome !== 'sent') {
    await database
      .update(surveyMessageChunks)
      .set({ status: 'not-sent', statusReason: sent.reason, updatedAt: now })
      .where(eq(surveyMessageChunks.id, chunk.id));
    return { outcome: 'not-sent', chunkId: chunk.id, reason: sent.reason };
  }
  // The invitation went in the questions' place: it awaits its "Start" (or "Not now") tap.
  const invited = sent.form === 'template';
  await database
    .update(surveyMessageChunks)
    .set({
      // Closed while it was being sent (the survey was finished in the browser): it stays closed, with what went.
      status: sql`case when ${surveyMessageChunks.status} = 'sending' then 'awaiting' else ${surveyMessageChunks.status} end`,
      kind: invited ? 'invitation' : 'questions',
      channel: sent.channel,
      messageId: sent.messageId,
      updatedAt: now,
    })
    .where(eq(surveyMessageChunks.id, chunk.id));
  // Unanswered after `reminderAfterMs`, it is sent once more — once per response, never a reminder of a reminder.
  if (reminding === null && !(await wasReminded(database, response.id)))
    await enqueueJob({
      database,
      kind: surveyMessageSendJobKind,
      payload: { responseId: response.id, remindChunkId: chunk.id },
      runAt: new Date(now.getTime() + reminderAfterMs),
      dedupeKey: `${surveyMessageSendJobKind}:${chunk.id}:remind`,
    });
  return {
    outcome: 'sent',
    chunkId: chunk.id,
    channel: sent.channel,
    messageId: sent.messageId,
    questions: invited ? 0 : questions.length,
    form: sent.form,
  };
}

/**
 * When a survey message (questions or the invitation) has had no answer for two days, it is sent once more
 * (decision 063): a day after it could no longer be answered by SMS (a bare reply matches our messages of the last
 * 24 hours) or its invitation went stale, so never on consecutive days.
 */
export const reminderAfterMs = 2 * 24 * 60 * 60 * 1000;

/** Whether the response's one automatic reminder has gone (its chunk gave way to it). */
async function wasReminded(database: Database, responseId: string): Promise<boolean> {
  const [row] = await database
    .select({ id: surveyMessageChunks.id })
    .from(surveyMessageChunks)
    .where(and(eq(surveyMessageChunks.surveyResponseId, responseId), eq(surveyMessageChunks.statusReason, 'reminded')))
    .limit(1);
  return row !== undefined;
}

/**
 * `due`: the chunk still awaits its answer and no reminder went for this response; `retry`: this reminder's
 * earlier run expired the chunk and its send failed in passing (nothing newer was sent); `skip` otherwise — answered,
 * declined ("Not now"), held, replaced by a clinician's new offer, or the response's reminder went already.
 */
async function reminderState(database: Database, responseId: string, chunkId: string): Promise<'due' | 'retry' | 'skip'> {
  const chunks = await database
    .select({ id: surveyMessageChunks.id, status: surveyMessageChunks.status, statusReason: surveyMessageChunks.statusReason })
    .from(surveyMessageChunks)
    .where(eq(surveyMessageChunks.surveyResponseId, responseId))
    .orderBy(desc(surveyMessageChunks.createdAt));
  const chunk = chunks.find((candidate) => candidate.id === chunkId);
  if (chunk === undefined || chunks[0]!.id !== chunkId) return 'skip';
  if (chunk.status === 'expired' && chunk.statusReason === 'reminded') return 'retry';
  if (chunk.status !== 'awaiting' || chunks.some((candidate) => candidate.statusReason === 'reminded')) return 'skip';
  return 'due';
}

/**
 * The survey invitation for this response, as the stored library's current version has it (its body and Meta's
 * approval); null when the library has none (a database the server never started on). For the one automatic
 * reminder, the invitation's reminder template when its current version is approved (decision 065); until then the
 * invitation itself, as before — never a reminder template Meta has not approved, which it would refuse.
 */
async function invitationFor(options: {
  database: Database;
  response: NonNullable<Awaited<ReturnType<typeof loadResponse>>>;
  reference: string;
  reminder: boolean;
}): Promise<WhatsAppTemplateAlternative | null> {
  const current = (template: SurveyInvitationTemplate) =>
    getCurrentTemplate({ database: options.database, templateId: template.id, language: template.language });
  let template: SurveyInvitationTemplate = surveyInvitationTemplate;
  let stored = null;
  if (options.reminder) {
    const reminder = await current(surveyInvitationReminderTemplate);
    if (reminder?.whatsApp.approval === 'approved') {
      template = surveyInvitationReminderTemplate;
      stored = reminder;
    }
  }
  stored ??= await current(surveyInvitationTemplate);
  if (stored === null) return null;
  const rendered = renderSurveyInvitation({
    template,
    body: stored.body,
    surveyTitle: options.response.definition.title,
    questionCount: invitationQuestionCount(options.response.definition, options.response.answers, options.response.fromRecord),
    reference: options.reference,
  });
  return {
    content: {
      kind: 'template',
      name: stored.whatsApp.name,
      language: stored.whatsApp.language,
      parameters: rendered.parameters,
      buttonPayloads: rendered.buttons.map((button) => button.payload),
    },
    body: `${rendered.text}\n${rendered.buttons.map((button) => `[${button.title}]`).join(' ')}`,
    approval: stored.whatsApp.approval,
    quickReplies: rendered.buttons,
    template: { id: stored.templateId, language: stored.language, version: stored.version },
  };
}

/** The one clarification after a first unreadable reply: the questions again with how to answer, as text. */
async function sendClarification(options: {
  database: Database;
  adapters: ChannelAdapters;
  now: Date;
  response: NonNullable<Awaited<ReturnType<typeof loadResponse>>>;
  chunkId: string;
  replyId?: string;
}): Promise<SurveyMessageSendOutcome> {
  const { database, now, response } = options;
  const [chunk] = await database
    .select({
      id: surveyMessageChunks.id,
      channel: surveyMessageChunks.channel,
      questionIds: surveyMessageChunks.questionIds,
      clarifiedReplyId: surveyMessageChunks.clarifiedReplyId,
      clarificationMessageId: surveyMessageChunks.clarificationMessageId,
    })
    .from(surveyMessageChunks)
    .where(
      and(
        eq(surveyMessageChunks.id, options.chunkId),
        eq(surveyMessageChunks.surveyResponseId, response.id),
        inArray(surveyMessageChunks.status, ['awaiting']),
      ),
    );
  if (chunk === undefined || chunk.clarifiedReplyId === null) return { outcome: 'skipped', reason: 'not-awaiting' };
  if (chunk.clarificationMessageId !== null) return { outcome: 'skipped', reason: 'already-sent' };
  const channel = chunk.channel === 'sms' ? 'sms' : 'whatsapp';
  // A dose message awaiting its answer too: the clarification names both and how to answer each (decision 063).
  const dose = await findAwaitingDoseMessage(database, { patientId: response.patientId, channel, at: now });
  const step = afterUnparseableReply({
    clarificationsSent: 0,
    questions: questionsOf(response.definition, chunk.questionIds),
    language: surveyMessageLanguage,
    doseMessageAwaiting: dose !== null,
  });
  if (step.kind !== 'clarify') return { outcome: 'skipped', reason: 'not-awaiting' };
  const deferred = await deferInQuietHours({ ...options, clarifyChunkId: chunk.id });
  if (deferred !== null) return deferred;
  const sent = await sendPatientMessage({
    database,
    adapters: options.adapters,
    now,
    patientId: response.patientId,
    purpose: 'surveys',
    category: 'survey',
    framing: 'clarification',
    key: `survey-clarification:${chunk.id}`,
    // Where the patient wrote: their reply opened (or kept open) the WhatsApp window.
    only: channel,
    whatsApp: { content: { kind: 'text', body: step.text }, body: step.text },
    sms: step.text,
  });
  if (sent.outcome !== 'sent') return { outcome: 'not-sent', chunkId: chunk.id, reason: sent.reason };
  await database
    .update(surveyMessageChunks)
    .set({ clarificationMessageId: sent.messageId, updatedAt: now })
    .where(eq(surveyMessageChunks.id, chunk.id));
  return {
    outcome: 'sent',
    chunkId: chunk.id,
    channel: sent.channel,
    messageId: sent.messageId,
    questions: chunk.questionIds.length,
    form: sent.form,
  };
}

/**
 * How long after the patient's own reply a message answering it may go in their quiet hours: they are writing to
 * us, so the next questions or the clarification go at once (decision 051). The job normally runs within seconds;
 * a retry after a passing provider failure still within this time may go too; later, it is a message they did not
 * just ask for, and it waits (decision 063).
 */
const freshReplyMs = 30 * 60_000;

/**
 * Null when the message may go now; else the job is queued again for the end of the patient's quiet hours (21:00–08:00
 * their time) and nothing is claimed. Every send is checked — the first questions or invitation (scheduled for after
 * quiet hours by the offer, but a retry after a provider failure may run later), a clinician's new offer, the next
 * questions and the clarification — unless it answers the patient's reply of the last minutes.
 */
async function deferInQuietHours(options: {
  database: Database;
  now: Date;
  response: { id: string; patientId: string; timezone: string | null };
  clarifyChunkId?: string;
  replyId?: string;
  remindChunkId?: string;
}): Promise<SurveyMessageSendOutcome | null> {
  const { database, now, response } = options;
  const until = quietHoursEnd(now, response.timezone);
  if (until.getTime() <= now.getTime()) return null;
  if (options.replyId !== undefined) {
    const [reply] = await database
      .select({ sentAt: messages.sentAt })
      .from(messages)
      .where(and(eq(messages.id, options.replyId), eq(messages.patientId, response.patientId), eq(messages.direction, 'inbound')));
    if (reply !== undefined && now.getTime() - reply.sentAt.getTime() <= freshReplyMs) return null;
  }
  await enqueueJob({
    database,
    kind: surveyMessageSendJobKind,
    payload: {
      responseId: response.id,
      ...(options.clarifyChunkId === undefined ? {} : { clarifyChunkId: options.clarifyChunkId }),
      ...(options.replyId === undefined ? {} : { replyId: options.replyId }),
      ...(options.remindChunkId === undefined ? {} : { remindChunkId: options.remindChunkId }),
    },
    runAt: until,
    dedupeKey: `${surveyMessageSendJobKind}:${response.id}:${options.clarifyChunkId ?? options.remindChunkId ?? 'next'}:quiet:${until.toISOString()}`,
  });
  return { outcome: 'deferred', reason: 'quiet-hours', until: until.toISOString() };
}
