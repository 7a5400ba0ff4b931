/**
 * Registers the nightly 'policy-update' job (queue 'default'). Importing this module registers it; the server
 * loads it at start-up (src/cli/server/register-job-handlers.ts).
 */
import 'server-only';
import { getDatabase } from '@/db/client';
import { registerJobHandler } from '@/lib/server/jobs';
import { policyUpdateJobKind } from '../schemas';
import { createPolicyUpdateHandler } from './run-policy-update';

registerJobHandler(policyUpdateJobKind, createPolicyUpdateHandler(getDatabase), { queue: 'default' });
