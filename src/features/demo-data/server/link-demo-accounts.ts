import 'server-only';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { authUsers, organisationMemberships, organisations, patients } from '@/db/schema';

/** The demo accounts this links (created by the identity feature's demo seeding). */
const demoPatientEmail = 'patient@medaptive.test';
const demoClinicianEmail = 'clinician@medaptive.test';
export const demoClinic = { id: 'demo-clinic', name: 'Demo Clinic' } as const;
const demoClinicSize = 200;

/**
 * Gives the demo accounts something to see: the demo patient's account is linked to one synthetic patient,
 * and the demo clinician works at a demo clinic caring for 200 synthetic patients (that one among them).
 * Only synthetic patients are touched; running it again changes nothing.
 */
export async function linkDemoAccounts(options: { database: Database }): Promise<{ patientLinked: boolean; clinicPatients: number }> {
  const { database } = options;
  const accounts = await database
    .select({ id: authUsers.id, email: authUsers.email })
    .from(authUsers)
    .where(inArray(authUsers.email, [demoPatientEmail, demoClinicianEmail]));
  const patientAccount = accounts.find((account) => account.email === demoPatientEmail);
  const clinicianAccount = accounts.find((account) => account.email === demoClinicianEmail);

  await database.insert(organisations).values(demoClinic).onConflictDoNothing();
  const [{ count: alreadyInClinic } = { count: 0 }] = await database
    .select({ count: sql<number>`count(*)::int` })
    .from(patients)
    .where(eq(patients.organisationId, demoClinic.id));
  if (alreadyInClinic === 0) {
    const chosen = await database
      .select({ id: patients.id })
      .from(patients)
      .where(and(eq(patients.synthetic, true), isNull(patients.organisationId)))
      .orderBy(asc(patients.pseudonym))
      .limit(demoClinicSize);
    if (chosen.length > 0) {
      await database
        .update(patients)
        .set({ organisationId: demoClinic.id })
        .where(
          inArray(
            patients.id,
            chosen.map((row) => row.id),
          ),
        );
    }
  }
  if (clinicianAccount) {
    await database
      .insert(organisationMemberships)
      .values({ userId: clinicianAccount.id, organisationId: demoClinic.id })
      .onConflictDoNothing();
  }

  let patientLinked = false;
  if (patientAccount) {
    const [linked] = await database.select({ id: patients.id }).from(patients).where(eq(patients.userId, patientAccount.id));
    if (linked) patientLinked = true;
    else {
      const [candidate] = await database
        .select({ id: patients.id })
        .from(patients)
        .where(and(eq(patients.synthetic, true), eq(patients.organisationId, demoClinic.id), isNull(patients.userId)))
        .orderBy(asc(patients.pseudonym))
        .limit(1);
      if (candidate) {
        await database.update(patients).set({ userId: patientAccount.id }).where(eq(patients.id, candidate.id));
        patientLinked = true;
      }
    }
  }
  const [{ count: clinicPatients } = { count: 0 }] = await database
    .select({ count: sql<number>`count(*)::int` })
    .from(patients)
    .where(eq(patients.organisationId, demoClinic.id));
  return { patientLinked, clinicPatients };
}
