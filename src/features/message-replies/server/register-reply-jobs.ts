/**
 * Registers the 'inbound-message-received' job (enqueued by the messaging webhooks with each inbound message
 * of a known patient). Importing this module registers it; src/cli/server/register-job-handlers.ts imports it.
 */
import 'server-only';
import { z } from '@/lib/zod';
import { getDatabase } from '@/db/client';
import { inboundMessageJobKind } from '@/lib/messaging-job-kinds';
import { parseInput } from '@/lib/parse-input';
import { registerJobHandler } from '@/lib/server/jobs';
import { actOnInboundMessage } from './act-on-inbound-message';

const payloadSchema = z.object({ messageId: z.guid({ error: 'messageId must be a message id' }) });

registerJobHandler(
  inboundMessageJobKind,
  async (job) => {
    const { messageId } = parseInput(payloadSchema, job.payload, { label: 'The inbound-message job' });
    return actOnInboundMessage({ database: getDatabase(), messageId, now: new Date() });
  },
  // With the sends: a tapped "Taken" should reach the calendar within seconds, never behind an import.
  { queue: 'messages' },
);
