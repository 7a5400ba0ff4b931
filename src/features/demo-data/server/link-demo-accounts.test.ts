import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authUsers, organisationMemberships, patients } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { demoClinic, linkDemoAccounts } from './link-demo-accounts';

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
});
