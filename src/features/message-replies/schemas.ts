import { z } from '@/lib/zod';
import type { Channel } from '@/lib/domain/channels';

export const serviceReplyKinds = ['help', 'stop-confirmation', 'start-confirmation'] as const;
export type ServiceReplyKind = (typeof serviceReplyKinds)[number];

export { replyDoseSources } from '@/lib/domain/dose-statuses';

/** What acting on one inbound message did (the job's result; no message text). */
export type InboundMessageOutcome =
  | { kind: 'keyword'; action: 'opt-out' | 'opt-in' | 'help'; consentChanges: number; serviceReply: ServiceReplyKind | null }
  | { kind: 'dose'; status: 'taken' | 'missed' | 'skipped'; recorded: boolean; answered: 'reply-to' | 'latest' }
  | { kind: 'kept'; reason: 'not-yet' | 'unrecognised' | 'media' | 'no-message-answered' | 'not-inbound' }
  /** It answered a survey message (decision 051): answers stored, a clarification queued, or held for a person. */
  | { kind: 'survey'; chunkId: string; outcome: 'answered' | 'completed' | 'clarification' | 'held' | 'already-handled' }
  /** A tap on a survey invitation's quick reply (decision 056). */
  | { kind: 'survey'; chunkId: string; outcome: 'started' | 'declined' }
  | { kind: 'survey'; chunkId: string | null; outcome: 'invitation-closed' };

/** A reply clinicians should read: the engine did not recognise it, or it answered no message we sent. */
export type ReplyToReadDto = {
  id: string;
  channel: Channel;
  /** ISO 8601: when it arrived. */
  receivedAt: string;
  text: string;
  /** Why it is listed. */
  reason: 'unrecognised' | 'media' | 'no-message-answered' | 'survey-unreadable';
};

export const markReplyReadSchema = z.object({
  messageId: z.guid({ error: 'messageId must be the id of a reply' }),
});
export type MarkReplyReadInput = z.output<typeof markReplyReadSchema>;
