import 'server-only';
import type { Database } from '@/db/client';
import { parseInput } from '@/lib/parse-input';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';
import { requireActor } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { ownConsentsUpdateSchema, type PatientConsentsDto } from '../schemas';
import { allCombinations, appendConsentEvents, type ConsentChange, lockPatient, readConsentState, stateKey } from './consent-state';
import { findOwnPatientId } from './find-own-patient';
import { getPatientConsents } from './get-patient-consents';

export const notAPatientMessage = 'Consents apply to patients: your account is not linked to a patient record.';

/**
 * /profile saves: the signed-in patient sets which purposes they consent to on each channel. Only their own
 * record can be changed (it is found from the session, never named in the input); each change becomes a
 * ledger event from 'profile', and the save is audited.
 */
export async function updateOwnConsents(options: {
  database: Database;
  actor: SessionUser | null;
  input: unknown;
  request?: RequestContext;
}): Promise<PatientConsentsDto> {
  const actor = requireActor(options.actor);
  const wanted = parseInput(ownConsentsUpdateSchema, options.input, { label: 'The consent update' });
  const patientId = await findOwnPatientId(options.database, actor.id);
  if (patientId === null) {
    await recordAuditEvent(options.database, {
      action: 'consent.update',
      outcome: 'denied',
      actorUserId: actor.id,
      ...options.request,
      details: { reason: 'no linked patient record' },
    });
    throw new AppError('forbidden', notAPatientMessage);
  }
  await options.database.transaction(async (transaction) => {
    if (!(await lockPatient(transaction, patientId))) throw new AppError('not_found', notAPatientMessage);
    const state = await readConsentState({ database: transaction, patientId });
    const changes: ConsentChange[] = allCombinations()
      .map(({ channel, purpose }) => ({ channel, purpose, granted: wanted[channel].includes(purpose) }))
      .filter((change) => (state.get(stateKey(change.channel, change.purpose))?.granted ?? false) !== change.granted);
    await appendConsentEvents({
      database: transaction,
      patientId,
      changes,
      source: 'profile',
      actorUserId: actor.id,
      effectiveAt: new Date(),
    });
    await recordAuditEvent(transaction, {
      action: 'consent.update',
      outcome: 'success',
      actorUserId: actor.id,
      targetUserId: actor.id,
      ...options.request,
      details: { changes: changes.map((change) => `${change.channel}/${change.purpose}:${change.granted ? 'in' : 'out'}`) },
    });
  });
  return getPatientConsents({ database: options.database, patientId });
}
