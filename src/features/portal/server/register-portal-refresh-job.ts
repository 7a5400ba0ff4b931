/**
 * Registers the 'portal.refresh-aggregates' job (queue 'default'). Importing this module registers it; the
 * server loads it at start-up (src/cli/server/register-job-handlers.ts).
 */
import 'server-only';
import { getDatabase } from '@/db/client';
import { registerJobHandler } from '@/lib/server/jobs';
import { portalRefreshJobKind } from '../schemas';
import { createPortalRefreshHandler } from './portal-refresh-job';

registerJobHandler(portalRefreshJobKind, createPortalRefreshHandler(getDatabase), { queue: 'default' });
