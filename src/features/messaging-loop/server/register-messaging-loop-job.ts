/**
 * Registers the daily loop's job (kind 'messaging-plan', queue 'messages'). Importing this module registers
 * it; the server loads it at start-up (src/cli/server/register-job-handlers.ts).
 */
import 'server-only';
import { getDatabase } from '@/db/client';
import { registerJobHandler } from '@/lib/server/jobs';
import { createMessagingPlanHandler } from './run-messaging-tick';
import { messagingPlanJobKind } from '@/lib/messaging-job-kinds';

registerJobHandler(messagingPlanJobKind, createMessagingPlanHandler(getDatabase), { queue: 'messages' });
