import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authUsers, consentEvents, organisationMemberships, patients } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { recordConsent } from '@/features/consent';
import { demoClinic, demoPatientPhoneNumber, linkDemoAccounts } from './link-demo-accounts';

describe.each(testDatabaseBackends())('linkDemoAccounts on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
    await database.database.insert(authUsers).values([
      { id: 'user-patient', name: 'P', email: 'patient@medaptive.test' },
      { id: 'user-clinician', name: 'C', email: 'clinician@medaptive.test' },
    ]);
    await database.database.insert(patients).values([
      ...Array.from({ length: 250 }, (_, index) => ({
        pseudonym: `P-${String(index).padStart(4, '0')}`,
        source: 'simulation',
        sourceRecordId: String(index),
        synthetic: true,
      })),
      { pseudonym: 'A-real', source: 'fhir', sourceRecordId: 'real', synthetic: false },
    ]);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('links the demo patient to a synthetic patient of the demo clinic and the clinician to the clinic, once', async () => {
    expect(await linkDemoAccounts({ database: database.database })).toEqual({ patientLinked: true, clinicPatients: 200 });
    const [linked] = await database.database
      .select({ pseudonym: patients.pseudonym, organisationId: patients.organisationId })
      .from(patients)
      .where(eq(patients.userId, 'user-patient'));
    expect(linked).toEqual({ pseudonym: 'P-0000', organisationId: demoClinic.id });
    const memberships = await database.database.select().from(organisationMemberships);
    expect(memberships).toEqual([{ userId: 'user-clinician', organisationId: demoClinic.id }]);
    const [real] = await database.database
      .select({ organisationId: patients.organisationId })
      .from(patients)
      .where(eq(patients.pseudonym, 'A-real'));
    expect(real?.organisationId).toBeNull();

    expect(await linkDemoAccounts({ database: database.database })).toEqual({ patientLinked: true, clinicPatients: 200 });
    expect(await database.database.select().from(organisationMemberships)).toHaveLength(1);
  });

  it('gives the demo patient a verified fictional number, the fixed daily programme and reminder opt-ins, keeping a STOP', async () => {
    const db = database.database;
    await linkDemoAccounts({ database: db });
    const [account] = await db
      .select({ phoneNumber: authUsers.phoneNumber, verified: authUsers.phoneNumberVerified })
      .from(authUsers)
      .where(eq(authUsers.id, 'user-patient'));
    expect(account).toEqual({ phoneNumber: demoPatientPhoneNumber, verified: true });
    const [linked] = await db
      .select({ id: patients.id, programme: patients.messagingProgramme })
      .from(patients)
      .where(eq(patients.userId, 'user-patient'));
    expect(linked!.programme).toBe('fixed-daily');
    const events = () =>
      db
        .select({ channel: consentEvents.channel, purpose: consentEvents.purpose, granted: consentEvents.granted })
        .from(consentEvents)
        .where(eq(consentEvents.patientId, linked!.id));
    expect((await events()).map((event) => `${event.channel}:${event.purpose}:${event.granted}`).sort()).toEqual([
      'sms:reminders:true',
      'whatsapp:reminders:true',
    ]);
    // The patient texts STOP; the next start must not opt them back in.
    await recordConsent({
      database: db,
      patientId: linked!.id,
      channels: ['sms', 'whatsapp'],
      purposes: ['reminders'],
      granted: false,
      source: 'sms-keyword',
      actorUserId: null,
    });
    await linkDemoAccounts({ database: db });
    expect(await events()).toHaveLength(4);
    expect((await db.select({ id: authUsers.id }).from(authUsers).where(eq(authUsers.phoneNumber, demoPatientPhoneNumber))).length).toBe(1);
  });
});
