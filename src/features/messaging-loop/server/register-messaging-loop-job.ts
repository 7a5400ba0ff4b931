/**
 * Registers the daily loop's job (kind 'messaging-plan', queue 'messages'). Importing this module registers
 * it; the server loads it at start-up (src/cli/server/register-job-handlers.ts).
 */
import 'server-only';
import { getDatabase } from '@/db/client';
import { registerJobHandler } from '@/lib/server/jobs';
import { createMessagingPlanHandler, messagingPlanJobKind } from './run-messaging-tick';

registerJobHandler(messagingPlanJobKind, createMessagingPlanHandler(getDatabase), { queue: 'messages' });
