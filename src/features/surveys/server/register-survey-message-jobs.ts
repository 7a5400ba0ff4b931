/**
 * The 'survey-message-send' job handler (queue 'messages', with the other sends): a survey's next questions or a
 * clarification (docs/decisions/051). The server registers it at start-up (src/cli/server/register-job-handlers.ts);
 * the adapters come from the environment once, as for the send path.
 */
import 'server-only';
import { type Database, getDatabase } from '@/db/client';
import { type ChannelAdapters, createChannelAdapters } from '@/features/message-sending';
import { getEnvironment } from '@/lib/env';
import { surveyMessageSendJobKind } from '@/lib/messaging-job-kinds';
import { parseInput } from '@/lib/parse-input';
import { type JobHandler, registerJobHandler } from '@/lib/server/jobs';
import { surveyMessageJobPayloadSchema } from '../schemas';
import { sendSurveyMessage } from './send-survey-message';

export function createSurveyMessageJobHandler(options: { database?: () => Database; adapters?: () => ChannelAdapters } = {}): JobHandler {
  let configured: ChannelAdapters | undefined;
  const adapters = options.adapters ?? (() => (configured ??= createChannelAdapters(getEnvironment())));
  const database = options.database ?? getDatabase;
  return async (job) => {
    const payload = parseInput(surveyMessageJobPayloadSchema, job.payload, { label: 'The queued survey message' });
    return sendSurveyMessage({ database: database(), adapters: adapters(), now: new Date(), ...payload });
  };
}

export function registerSurveyMessageJobs(): void {
  registerJobHandler(surveyMessageSendJobKind, createSurveyMessageJobHandler(), { queue: 'messages' });
}
