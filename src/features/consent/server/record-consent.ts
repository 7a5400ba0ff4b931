import 'server-only';
import type { Database } from '@/db/client';
import { type ConsentChannel, type ConsentPurpose, type ConsentSource } from '@/lib/domain/consent';
import { AppError } from '@/lib/errors';
import { appendConsentEvents, type ConsentChange, lockPatient, readConsentState, stateKey } from './consent-state';

/**
 * Opts a patient in or out of every named channel × purpose, from `source`, effective `at` (default now).
 * Only changes are written (an opt-in already in effect adds no event; a first opt-out does); returns them.
 * Authorisation is the caller's: a route or action decides who may change whose consent.
 */
export async function recordConsent(options: {
  database: Database;
  patientId: string;
  channels: readonly ConsentChannel[];
  purposes: readonly ConsentPurpose[];
  granted: boolean;
  source: ConsentSource;
  /** The signed-in user who made the change; null for a keyword, an import or a seed. */
  actorUserId: string | null;
  at?: Date;
}): Promise<ConsentChange[]> {
  const effectiveAt = options.at ?? new Date();
  return options.database.transaction(async (transaction) => {
    if (!(await lockPatient(transaction, options.patientId))) throw new AppError('not_found', 'There is no such patient.');
    const state = await readConsentState({ database: transaction, patientId: options.patientId });
    const changes: ConsentChange[] = [];
    for (const channel of new Set(options.channels)) {
      for (const purpose of new Set(options.purposes)) {
        // An explicit opt-out is written even with no opt-in before it: a refusal on record is worth keeping.
        const current = state.get(stateKey(channel, purpose));
        if (current === undefined || current.granted !== options.granted) changes.push({ channel, purpose, granted: options.granted });
      }
    }
    await appendConsentEvents({
      database: transaction,
      patientId: options.patientId,
      changes,
      source: options.source,
      actorUserId: options.actorUserId,
      effectiveAt,
    });
    return changes;
  });
}
