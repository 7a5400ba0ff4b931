import 'server-only';
import { and, desc, eq, gte, isNull, lte, ne, or } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { REPLY_WINDOW_MS } from '@/db/queries/message-replies';
import { messages, policyDecisions } from '@/db/schema';
import type { Channel } from '@/lib/domain/channels';

export type AnsweredMessage = {
  id: string;
  sentAt: Date;
  /** The policy decision it carried out: its local date and the context the policy saw. */
  decision: { localDate: string; context: Record<string, unknown> } | null;
  answered: 'reply-to' | 'latest';
};

/**
 * The outbound message a reply answers: the one it quotes (WhatsApp context or reaction target), else the
 * patient's latest outbound message on that channel in the 24 hours before the reply. Null when neither. A survey
 * message asks no dose question (decision 063): it is never the message a dose answer answers, so a bare "1"
 * after a reminder and then a survey message is the reminder's, never a dose at the survey message's time.
 */
export async function findAnsweredMessage(options: {
  database: Database;
  patientId: string;
  channel: Channel;
  replyToProviderMessageId: string | null;
  repliedAt: Date;
}): Promise<AnsweredMessage | null> {
  const { database, patientId, channel } = options;
  const columns = { id: messages.id, sentAt: messages.sentAt, decisionId: messages.policyDecisionId, category: messages.category };
  const outboundOfPatient = and(eq(messages.patientId, patientId), eq(messages.channel, channel), eq(messages.direction, 'outbound'));
  const notSurvey = or(isNull(messages.category), ne(messages.category, 'survey'));
  let answered: 'reply-to' | 'latest' = 'reply-to';
  let [row] =
    options.replyToProviderMessageId === null
      ? []
      : await database
          .select(columns)
          .from(messages)
          .where(and(outboundOfPatient, eq(messages.providerMessageId, options.replyToProviderMessageId)));
  if (row === undefined) {
    answered = 'latest';
    [row] = await database
      .select(columns)
      .from(messages)
      .where(
        and(
          outboundOfPatient,
          notSurvey,
          gte(messages.sentAt, new Date(options.repliedAt.getTime() - REPLY_WINDOW_MS)),
          lte(messages.sentAt, options.repliedAt),
        ),
      )
      .orderBy(desc(messages.sentAt))
      .limit(1);
  }
  if (row === undefined || row.category === 'survey') return null;
  const [decision] =
    row.decisionId === null
      ? []
      : await database
          .select({ localDate: policyDecisions.localDate, context: policyDecisions.context })
          .from(policyDecisions)
          .where(eq(policyDecisions.id, row.decisionId));
  return {
    id: row.id,
    sentAt: row.sentAt,
    decision: decision === undefined ? null : { localDate: String(decision.localDate), context: decision.context },
    answered,
  };
}
