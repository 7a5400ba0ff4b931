import 'server-only';
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { authUsers, organisationMemberships, organisations, patients } from '@/db/schema';
import { getPatientConsents, recordConsent } from '@/features/consent';
import { prepareMessageSummaries } from './prepare-message-summaries';

/** The demo accounts this links (created by the identity feature's demo seeding). */
const demoPatientEmail = 'patient@medaptive.test';
const demoClinicianEmail = 'clinician@medaptive.test';
export const demoClinic = { id: 'demo-clinic', name: 'Demo Clinic' } as const;
const demoClinicSize = 200;
/** A fictional number (the +1 555 0100–0199 range is reserved for fiction): the local channel's /dev/phone shows its messages. */
export const demoPatientPhoneNumber = '+15555550100';

/**
 * Gives the demo accounts something to see: the demo patient's account is linked to one synthetic patient,
 * and the demo clinician works at a demo clinic caring for 200 synthetic patients (that one among them).
 * The demo patient also gets what the live daily loop needs: a verified fictional phone number, enrolment in
 * the fixed daily programme and reminder opt-ins on WhatsApp and SMS. Each is set only while unset (a number
 * the account already has, a consent decision already on record, such as a STOP, is kept), so running it
 * again changes nothing; a programme taken away is given back at the next start.
 * Only synthetic patients are touched.
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
  let linkedPatientId: string | null = null;
  if (patientAccount) {
    const [linked] = await database.select({ id: patients.id }).from(patients).where(eq(patients.userId, patientAccount.id));
    if (linked) {
      patientLinked = true;
      linkedPatientId = linked.id;
    } else {
      const [candidate] = await database
        .select({ id: patients.id })
        .from(patients)
        .where(and(eq(patients.synthetic, true), eq(patients.organisationId, demoClinic.id), isNull(patients.userId)))
        .orderBy(asc(patients.pseudonym))
        .limit(1);
      if (candidate) {
        await database.update(patients).set({ userId: patientAccount.id }).where(eq(patients.id, candidate.id));
        patientLinked = true;
        linkedPatientId = candidate.id;
      }
    }
    await giveDemoPhoneNumber(database, patientAccount.id);
  }
  if (linkedPatientId !== null) await prepareLiveMessaging(database, linkedPatientId);
  // Moving patients into the clinic makes their messages' daily summaries stale (decision 045): summarised now,
  // not by the first visitor of the messaging overview. Nothing stale (every later start): one probe.
  await prepareMessageSummaries({ database });
  const [{ count: clinicPatients } = { count: 0 }] = await database
    .select({ count: sql<number>`count(*)::int` })
    .from(patients)
    .where(eq(patients.organisationId, demoClinic.id));
  return { patientLinked, clinicPatients };
}

/** The fictional number, verified, unless the account has a number or another account holds this one. */
async function giveDemoPhoneNumber(database: Database, userId: string): Promise<void> {
  const holders = await database
    .select({ id: authUsers.id, phoneNumber: authUsers.phoneNumber })
    .from(authUsers)
    .where(or(eq(authUsers.id, userId), eq(authUsers.phoneNumber, demoPatientPhoneNumber)));
  if (holders.some((holder) => holder.id !== userId || holder.phoneNumber !== null)) return;
  await database
    .update(authUsers)
    .set({ phoneNumber: demoPatientPhoneNumber, phoneNumberVerified: true })
    .where(and(eq(authUsers.id, userId), isNull(authUsers.phoneNumber)));
}

/** Enrolled in the fixed daily programme when not enrolled, and opted in to reminders where never asked. */
async function prepareLiveMessaging(database: Database, patientId: string): Promise<void> {
  await database
    .update(patients)
    .set({ messagingProgramme: 'fixed-daily' })
    .where(and(eq(patients.id, patientId), isNull(patients.messagingProgramme)));
  const consents = await getPatientConsents({ database, patientId, historyLimit: 1 });
  const neverAsked = consents.current
    .filter((state) => state.purpose === 'reminders' && (state.channel === 'whatsapp' || state.channel === 'sms') && state.source === null)
    .map((state) => state.channel);
  if (neverAsked.length > 0)
    await recordConsent({
      database,
      patientId,
      channels: neverAsked,
      purposes: ['reminders'],
      granted: true,
      source: 'demo-seed',
      actorUserId: null,
    });
}
