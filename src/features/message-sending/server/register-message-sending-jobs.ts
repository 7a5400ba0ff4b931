/**
 * Background-job handlers of the send path, all on the 'messages' queue: 'message-send' { decisionId },
 * 'service-reply' { patientId, channel, body, replyToMessageId?, kind } and 'outbound-message-failed'
 * { messageId }. The server calls registerMessageSendingJobs at start-up with the template resolver
 * (message-templates' getCurrentTemplate); the adapters come from the environment, once.
 */
import 'server-only';
import { type Database, getDatabase } from '@/db/client';
import { getEnvironment } from '@/lib/env';
import { parseInput } from '@/lib/parse-input';
import { type JobHandler, maximumAttempts, registerJobHandler } from '@/lib/server/jobs';
import { messageSendPayloadSchema, outboundMessageFailedPayloadSchema, serviceReplyPayloadSchema } from '../schemas';
import { messageSendJobKind, outboundMessageFailedJobKind, serviceReplyJobKind } from '@/lib/messaging-job-kinds';
import type { ChannelAdapters } from './channel-adapter';
import type { ResolveTemplate } from './compose-message';
import { isChannelSendError } from './channel-send-error';
import { createChannelAdapters } from './create-channel-adapters';
import { settleDecision } from './outbound-messages';
import { sendDecisionMessage } from './send-decision-message';
import { sendFallbackSms } from './send-fallback-sms';
import { sendServiceReply } from './send-service-reply';

export type MessageSendingJobOptions = {
  resolveTemplate: ResolveTemplate;
  database?: () => Database;
  adapters?: () => ChannelAdapters;
  senderLabel?: () => string;
};

/** The three handlers, with their database and adapters injectable (tests register them under kinds of their own). */
export function createMessageSendingJobHandlers(
  options: MessageSendingJobOptions,
): Record<'send' | 'serviceReply' | 'fallback', JobHandler> {
  let configured: ChannelAdapters | undefined;
  const adapters = options.adapters ?? (() => (configured ??= createChannelAdapters(getEnvironment())));
  const database = options.database ?? getDatabase;
  const senderLabel = options.senderLabel ?? (() => getEnvironment().PRODUCT_NAME);
  return {
    send: async (job) => {
      const { decisionId } = parseInput(messageSendPayloadSchema, job.payload, { label: 'The queued message' });
      try {
        return await sendDecisionMessage({
          database: database(),
          decisionId,
          now: new Date(),
          adapters: adapters(),
          resolveTemplate: options.resolveTemplate,
          senderLabel: senderLabel(),
        });
      } catch (error) {
        // The queue gives up after this attempt: the decision says why rather than stay 'planned' for ever.
        if (isChannelSendError(error) && job.attempts >= maximumAttempts)
          await settleDecision(database(), decisionId, { status: 'not-sent', reason: `${error.reason}-gave-up` });
        throw error;
      }
    },
    serviceReply: async (job) => {
      const payload = parseInput(serviceReplyPayloadSchema, job.payload, { label: 'The queued service reply' });
      return sendServiceReply({ ...payload, database: database(), now: new Date(), adapters: adapters(), idempotencyKey: job.id });
    },
    fallback: async (job) => {
      const { messageId } = parseInput(outboundMessageFailedPayloadSchema, job.payload, { label: 'The failed-message report' });
      return sendFallbackSms({
        database: database(),
        messageId,
        now: new Date(),
        adapters: adapters(),
        resolveTemplate: options.resolveTemplate,
        senderLabel: senderLabel(),
      });
    },
  };
}

/** Registers 'message-send', 'service-reply' and 'outbound-message-failed' on the 'messages' queue. */
export function registerMessageSendingJobs(options: MessageSendingJobOptions): void {
  const handlers = createMessageSendingJobHandlers(options);
  registerJobHandler(messageSendJobKind, handlers.send, { queue: 'messages' });
  registerJobHandler(serviceReplyJobKind, handlers.serviceReply, { queue: 'messages' });
  registerJobHandler(outboundMessageFailedJobKind, handlers.fallback, { queue: 'messages' });
}
