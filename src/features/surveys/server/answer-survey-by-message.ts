import 'server-only';
import { and, desc, eq, gte, inArray, lte, or } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { REPLY_WINDOW_MS } from '@/db/queries/message-replies';
import { messages, surveyMessageChunks } from '@/db/schema';
import type { InboundReply } from '@/engine/messaging';
import {
  afterUnparseableReply,
  parseSurveyInvitationPayload,
  parseSurveyPayload,
  parseSurveyReply,
  type SurveyInvitationAction,
} from '@/engine/surveys';
import { enqueueJob } from '@/lib/server/jobs';
import { surveyMessageSendJobKind } from '@/lib/messaging-job-kinds';
import type { SurveyReplyOutcome } from '../schemas';
import { storeSurveyAnswers } from './survey-store';
import { findAwaitingDoseMessage, loadResponse, questionsOf, surveyMessageLanguage } from './survey-message-store';

/**
 * An inbound reply, if it answers a survey message awaiting its answer (docs/decisions/051): a button or list tap
 * carrying the chunk's reference; a reply quoting the survey message or its clarification (WhatsApp context); or,
 * without either, a reply whose patient's latest outbound message on that channel in the 24 hours before is one
 * of them (SMS has no quoting). Null when it answers no survey message: the caller reads it as a dose answer.
 *
 * Read as answers → stored on the response (shared with the browser), the persona posterior updated, and the
 * next questions queued unless the survey is complete. Unreadable the first time → one clarification queued;
 * the second time → the chunk is held and the reply listed in the care team's "Replies to read". A tap on a survey
 * invitation's quick reply (decision 056) answers that invitation only: "Start" queues the first questions at once
 * (the tap opened the window), "Not now" declines it. Runs in the caller's transaction (the inbound-message job),
 * and a rerun — a webhook delivered twice is one message — finds the reply already handled.
 */
export async function answerSurveyByMessage(options: {
  database: Database;
  message: {
    id: string;
    patientId: string;
    channel: string;
    sentAt: Date;
    replyToProviderMessageId: string | null;
    content: InboundReply;
    /** The dose reader can read it (taken, not yet, skip, missed): weighed when a dose message also awaits (063). */
    doseReading?: boolean;
  };
  now: Date;
}): Promise<SurveyReplyOutcome | null> {
  const { database, message, now } = options;
  if (message.channel !== 'whatsapp' && message.channel !== 'sms') return null;
  if (message.content.kind === 'reaction') return null;

  const [handled] = await database
    .select({ id: surveyMessageChunks.id })
    .from(surveyMessageChunks)
    .where(
      or(
        eq(surveyMessageChunks.answeredReplyId, message.id),
        eq(surveyMessageChunks.clarifiedReplyId, message.id),
        eq(surveyMessageChunks.heldReplyId, message.id),
      ),
    )
    .limit(1);
  if (handled !== undefined) return { kind: 'survey', chunkId: handled.id, outcome: 'already-handled' };

  if (message.content.kind === 'button') {
    const tap = parseSurveyInvitationPayload(message.content.payload);
    if (tap !== null) return answerInvitation({ database, message, now, invitationId: tap.reference, action: tap.action });
  }

  const match = await findAnsweredChunk(database, { ...message, channel: message.channel });
  if (match === null) return null;
  const [chunk] = await database
    .select({
      id: surveyMessageChunks.id,
      responseId: surveyMessageChunks.surveyResponseId,
      status: surveyMessageChunks.status,
      questionIds: surveyMessageChunks.questionIds,
      clarifiedReplyId: surveyMessageChunks.clarifiedReplyId,
      clarificationMessageId: surveyMessageChunks.clarificationMessageId,
    })
    .from(surveyMessageChunks)
    .where(eq(surveyMessageChunks.id, match.chunkId))
    // Two replies at once: the second waits and then finds the chunk answered.
    .for('update');
  if (chunk === undefined || chunk.status !== 'awaiting') return null;
  const response = await loadResponse(database, chunk.responseId);
  if (response === null) return null;
  const questions = questionsOf(response.definition, chunk.questionIds);
  const parsed = parseSurveyReply({ questions, reference: chunk.id, reply: message.content });
  if (response.completedAt !== null && parsed.kind !== 'answers') {
    // Its message went out as the survey was finished elsewhere: nothing left to clarify or hold, so the message
    // closes and the reply is read as any other message.
    await database
      .update(surveyMessageChunks)
      .set({ status: 'expired', statusReason: 'survey-completed', updatedAt: now })
      .where(eq(surveyMessageChunks.id, chunk.id));
    return null;
  }

  // Without a tap or a quote (SMS), a dose message may be awaiting its answer too (decision 063): a reply only one
  // reader can read is that reader's, whichever message came last; one both can read ("1" to a single question) is
  // nobody's until the patient says which, in the one clarification that names both.
  let ambiguous = false;
  if (match.by === 'window') {
    const surveyReads = parsed.kind === 'answers';
    const dose = await findAwaitingDoseMessage(database, { patientId: message.patientId, channel: message.channel, at: message.sentAt });
    if (dose !== null && message.doseReading === true) {
      if (!surveyReads) return null;
      // After a clarification that named both (sent after the dose message), numbers are the survey's, as it said.
      const told = await sentAfter(database, chunk.clarificationMessageId, dose.sentAt);
      if (!told) ambiguous = true;
    } else if (!surveyReads && !match.latest) return null;
  }

  if (parsed.kind === 'unparseable' || ambiguous) {
    const step = afterUnparseableReply({
      clarificationsSent: chunk.clarifiedReplyId === null ? 0 : 1,
      questions,
      language: surveyMessageLanguage,
    });
    if (step.kind === 'hold-for-human') {
      await database
        .update(surveyMessageChunks)
        .set({ status: 'held', heldReplyId: message.id, updatedAt: now })
        .where(eq(surveyMessageChunks.id, chunk.id));
      return { kind: 'survey', chunkId: chunk.id, outcome: 'held' };
    }
    await database
      .update(surveyMessageChunks)
      .set({ clarifiedReplyId: message.id, updatedAt: now })
      .where(eq(surveyMessageChunks.id, chunk.id));
    await enqueueJob({
      database,
      kind: surveyMessageSendJobKind,
      payload: { responseId: response.id, clarifyChunkId: chunk.id, replyId: message.id },
      dedupeKey: `${surveyMessageSendJobKind}:${chunk.id}:clarify`,
      runAt: now,
    });
    return { kind: 'survey', chunkId: chunk.id, outcome: 'clarification' };
  }
  if (parsed.kind !== 'answers') return null;

  // Answers to the chunk's questions not answered since (in the browser, say), in the order they were asked.
  const added = chunk.questionIds
    .filter((id) => parsed.answers[id] !== undefined && response.answers[id] === undefined)
    .map((id) => [id, parsed.answers[id]!] as const);
  let completed = response.completedAt !== null;
  if (added.length > 0 && !completed) {
    const saved = await storeSurveyAnswers(database, { response, added, sex: response.sex, now });
    // Answered in the browser at this very moment: the job's retry reads the answers afresh.
    if (!saved.stored) throw new Error('The survey response changed while a reply was being stored.');
    completed = saved.completedAt !== null;
  }
  await database
    .update(surveyMessageChunks)
    .set({ status: 'answered', answeredReplyId: message.id, updatedAt: now })
    .where(eq(surveyMessageChunks.id, chunk.id));
  if (!completed)
    await enqueueJob({
      database,
      kind: surveyMessageSendJobKind,
      payload: { responseId: response.id, replyId: message.id },
      dedupeKey: `${surveyMessageSendJobKind}:${chunk.id}:next`,
      runAt: now,
    });
  return { kind: 'survey', chunkId: chunk.id, outcome: completed ? 'completed' : 'answered' };
}

/**
 * A tap on an invitation's "Start" or "Not now" (decision 056). Only the invitation its payload names, and only
 * while it awaits: a tap on an older, expired or already answered invitation changes nothing and is never read as a
 * dose answer (a late "Start" is listed for a person to read, who may send the survey again).
 */
async function answerInvitation(options: {
  database: Database;
  message: { id: string; patientId: string };
  now: Date;
  invitationId: string;
  action: SurveyInvitationAction;
}): Promise<SurveyReplyOutcome> {
  const { database, message, now } = options;
  // The payload is ours (the webhook is signed), but a malformed id must not reach a uuid comparison.
  const invitationId = /^[0-9a-f-]{36}$/i.test(options.invitationId) ? options.invitationId : null;
  const [invitation] =
    invitationId === null
      ? []
      : await database
          .select({ id: surveyMessageChunks.id, responseId: surveyMessageChunks.surveyResponseId, status: surveyMessageChunks.status })
          .from(surveyMessageChunks)
          .where(
            and(
              eq(surveyMessageChunks.id, invitationId),
              eq(surveyMessageChunks.patientId, message.patientId),
              eq(surveyMessageChunks.kind, 'invitation'),
            ),
          )
          // Two taps at once: the second waits, then finds the invitation answered.
          .for('update');
  if (invitation === undefined || invitation.status !== 'awaiting')
    return { kind: 'survey', chunkId: invitation?.id ?? null, outcome: 'invitation-closed' };
  if (options.action === 'not-now') {
    await database
      .update(surveyMessageChunks)
      .set({ status: 'declined', statusReason: 'not-now', answeredReplyId: message.id, updatedAt: now })
      .where(eq(surveyMessageChunks.id, invitation.id));
    return { kind: 'survey', chunkId: invitation.id, outcome: 'declined' };
  }
  await database
    .update(surveyMessageChunks)
    .set({ status: 'answered', answeredReplyId: message.id, updatedAt: now })
    .where(eq(surveyMessageChunks.id, invitation.id));
  // No quiet-hours wait: the patient asked for the questions just now, and their tap opened the window.
  await enqueueJob({
    database,
    kind: surveyMessageSendJobKind,
    payload: { responseId: invitation.responseId, replyId: message.id },
    dedupeKey: `${surveyMessageSendJobKind}:${invitation.id}:next`,
    runAt: now,
  });
  return { kind: 'survey', chunkId: invitation.id, outcome: 'started' };
}

/**
 * The awaiting chunk this reply answers, by the rules above; null when none. `tap` and `quote` are decisive;
 * `window`: no reference, and a survey message of the chunk (or its clarification) was sent in the 24 hours
 * before — `latest` when it is the patient's latest outbound message on the channel (decision 051's rule), else
 * a later message (a dose reminder) came after it and the caller weighs both (decision 063).
 */
async function findAnsweredChunk(
  database: Database,
  message: { patientId: string; channel: 'whatsapp' | 'sms'; sentAt: Date; replyToProviderMessageId: string | null; content: InboundReply },
): Promise<{ chunkId: string; by: 'tap' | 'quote' } | { chunkId: string; by: 'window'; latest: boolean } | null> {
  const awaiting = await database
    .select({
      id: surveyMessageChunks.id,
      messageId: surveyMessageChunks.messageId,
      clarificationMessageId: surveyMessageChunks.clarificationMessageId,
    })
    .from(surveyMessageChunks)
    .where(
      and(
        eq(surveyMessageChunks.patientId, message.patientId),
        eq(surveyMessageChunks.channel, message.channel),
        eq(surveyMessageChunks.status, 'awaiting'),
        // An invitation is answered by its buttons only; words after it are read as any other message.
        eq(surveyMessageChunks.kind, 'questions'),
      ),
    );
  if (awaiting.length === 0) return null;
  if (message.content.kind === 'button') {
    const payload = parseSurveyPayload(message.content.payload);
    // A tap on a survey message: its own reference decides (a tap on an older message matches no awaiting chunk).
    if (payload !== null) {
      const tapped = awaiting.find((chunk) => chunk.id === payload.reference);
      return tapped === undefined ? null : { chunkId: tapped.id, by: 'tap' };
    }
  }
  const ours = (id: string | null) =>
    id === null ? undefined : awaiting.find((chunk) => chunk.messageId === id || chunk.clarificationMessageId === id);
  const outbound = and(
    eq(messages.patientId, message.patientId),
    eq(messages.channel, message.channel),
    eq(messages.direction, 'outbound'),
  );
  if (message.replyToProviderMessageId !== null) {
    const [quoted] = await database
      .select({ id: messages.id })
      .from(messages)
      .where(and(outbound, eq(messages.providerMessageId, message.replyToProviderMessageId)));
    // Quoting another message (a dose reminder): it answers that one.
    if (quoted !== undefined) {
      const chunk = ours(quoted.id);
      return chunk === undefined ? null : { chunkId: chunk.id, by: 'quote' };
    }
  }
  const inWindow = and(
    outbound,
    gte(messages.sentAt, new Date(message.sentAt.getTime() - REPLY_WINDOW_MS)),
    lte(messages.sentAt, message.sentAt),
  );
  const [latest] = await database.select({ id: messages.id }).from(messages).where(inWindow).orderBy(desc(messages.sentAt)).limit(1);
  const latestChunk = ours(latest?.id ?? null);
  if (latestChunk !== undefined) return { chunkId: latestChunk.id, by: 'window', latest: true };
  const surveyMessageIds = awaiting.flatMap((chunk) => [chunk.messageId, chunk.clarificationMessageId]).filter((id) => id !== null);
  if (surveyMessageIds.length === 0) return null;
  const [recent] = await database
    .select({ id: messages.id })
    .from(messages)
    .where(and(inWindow, inArray(messages.id, surveyMessageIds)))
    .orderBy(desc(messages.sentAt))
    .limit(1);
  const recentChunk = ours(recent?.id ?? null);
  return recentChunk === undefined ? null : { chunkId: recentChunk.id, by: 'window', latest: false };
}

/** Whether the message was sent after `instant` (false for none). */
async function sentAfter(database: Database, messageId: string | null, instant: Date): Promise<boolean> {
  if (messageId === null) return false;
  const [row] = await database.select({ sentAt: messages.sentAt }).from(messages).where(eq(messages.id, messageId));
  return row !== undefined && row.sentAt.getTime() > instant.getTime();
}
