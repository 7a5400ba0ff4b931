import 'server-only';
import type { Database } from '@/db/client';
import { requireActor } from '@/lib/server/authorization';
import type { SessionUser } from '@/lib/server/session';
import type { OwnConsentsDto } from '../schemas';
import { findOwnPatientId } from './find-own-patient';
import { getPatientConsents } from './get-patient-consents';

/** /profile: the signed-in user's own consents, when their account is linked to a patient record. */
export async function getOwnConsents(options: { database: Database; actor: SessionUser | null }): Promise<OwnConsentsDto> {
  const actor = requireActor(options.actor);
  const patientId = await findOwnPatientId(options.database, actor.id);
  if (patientId === null) return { status: 'no-patient-record' };
  return { status: 'linked', consents: await getPatientConsents({ database: options.database, patientId }) };
}
