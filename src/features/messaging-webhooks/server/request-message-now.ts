import 'server-only';
import type { Database } from '@/db/client';
import { outboxIsAvailable } from '@/features/outbox';
import type { Environment } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { enqueueJob } from '@/lib/server/jobs';
import { parseInput } from '@/lib/parse-input';
import { phonePatientSchema } from '../phone-schemas';
import { findPhonePatient } from './find-phone-patient';
import { messagingPlanJobKind } from '@/lib/messaging-job-kinds';

/**
 * /dev/phone's "Send today's message now": queues the daily loop for this one patient with devSendNow, so the
 * day's decision is made and its message sent now, ignoring the chosen minute and quiet hours (development only).
 */
export async function requestMessageNow(options: {
  database: Database;
  environment: Environment;
  input: unknown;
  now: Date;
}): Promise<{ jobId: string }> {
  const { database } = options;
  if (!outboxIsAvailable(options.environment)) throw new AppError('not_found', 'There is no phone here.');
  const { patientId } = parseInput(phonePatientSchema, options.input, { label: 'The send-now request' });
  if ((await findPhonePatient({ database, patientId })) === null) {
    throw new AppError('not_found', 'patientId: no patient with a verified number has this id.');
  }
  const job = await enqueueJob({
    database,
    kind: messagingPlanJobKind,
    payload: { patientIds: [patientId], devSendNow: true },
    runAt: options.now,
  });
  return { jobId: job.id };
}
