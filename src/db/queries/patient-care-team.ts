import 'server-only';
/**
 * Who acts for a patient: an admin, or a clinician of the patient's organisation. Read the same way wherever a
 * patient's own messages, replies or surveys are read or sent (message replies, surveys by message).
 */
import { and, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { organisationMemberships, patients } from '@/db/schema';
import type { Viewer } from './cohort-scope';

export async function isPatientCareTeam(options: { database: Database; actor: Viewer; patientId: string }): Promise<boolean> {
  const { database, actor, patientId } = options;
  if (actor.role === 'admin') return true;
  if (actor.role !== 'clinician') return false;
  const [row] = await database
    .select({ id: patients.id })
    .from(patients)
    .innerJoin(
      organisationMemberships,
      and(eq(organisationMemberships.organisationId, patients.organisationId), eq(organisationMemberships.userId, actor.id)),
    )
    .where(eq(patients.id, patientId))
    .limit(1);
  return row !== undefined;
}
