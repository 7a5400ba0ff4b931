/**
 * Background-job handlers of the send path, all on the 'messages' queue: 'message-send' { decisionId },
 * 'service-reply' { patientId, channel, body, replyToMessageId?, kind } and 'outbound-message-failed'
 * { messageId }. The server calls registerMessageSendingJobs at start-up with the template resolver
 * (message-templates' getCurrentTemplate); the adapters come from the environment, once.
 */
import 'server-only';
import { getDatabase } from '@/db/client';
import { getEnvironment } from '@/lib/env';
import { parseInput } from '@/lib/parse-input';
import { registerJobHandler } from '@/lib/server/jobs';
import {
  messageSendJobKind,
  messageSendPayloadSchema,
  outboundMessageFailedJobKind,
  outboundMessageFailedPayloadSchema,
  serviceReplyJobKind,
  serviceReplyPayloadSchema,
} from '../schemas';
import type { ChannelAdapters } from './channel-adapter';
import type { ResolveTemplate } from './compose-message';
import { createChannelAdapters } from './create-channel-adapters';
import { sendDecisionMessage } from './send-decision-message';
import { sendFallbackSms } from './send-fallback-sms';
import { sendServiceReply } from './send-service-reply';

export function registerMessageSendingJobs(options: { resolveTemplate: ResolveTemplate; adapters?: ChannelAdapters }): void {
  let adapters = options.adapters;
  const adaptersNow = () => (adapters ??= createChannelAdapters(getEnvironment()));
  const senderLabel = () => getEnvironment().PRODUCT_NAME;

  registerJobHandler(
    messageSendJobKind,
    async (job) => {
      const { decisionId } = parseInput(messageSendPayloadSchema, job.payload, { label: 'The queued message' });
      return sendDecisionMessage({
        database: getDatabase(),
        decisionId,
        now: new Date(),
        adapters: adaptersNow(),
        resolveTemplate: options.resolveTemplate,
        senderLabel: senderLabel(),
      });
    },
    { queue: 'messages' },
  );
  registerJobHandler(
    serviceReplyJobKind,
    async (job) => {
      const payload = parseInput(serviceReplyPayloadSchema, job.payload, { label: 'The queued service reply' });
      return sendServiceReply({ ...payload, database: getDatabase(), now: new Date(), adapters: adaptersNow(), idempotencyKey: job.id });
    },
    { queue: 'messages' },
  );
  registerJobHandler(
    outboundMessageFailedJobKind,
    async (job) => {
      const { messageId } = parseInput(outboundMessageFailedPayloadSchema, job.payload, { label: 'The failed-message report' });
      return sendFallbackSms({
        database: getDatabase(),
        messageId,
        now: new Date(),
        adapters: adaptersNow(),
        resolveTemplate: options.resolveTemplate,
        senderLabel: senderLabel(),
      });
    },
    { queue: 'messages' },
  );
}
