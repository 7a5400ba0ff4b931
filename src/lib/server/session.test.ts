import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { parseEnvironment } from '@/lib/env';
import { type Auth, createAuthForDatabase } from './auth';
import { getSessionUser } from './session';

describe.each(testDatabaseBackends())('session policy on $name', (backend) => {
  let database: TestDatabase;
  let auth: Auth;
  beforeEach(async () => {
    database = await backend.create();
    auth = await createAuthForDatabase(database.database, parseEnvironment({ LOG_LEVEL: 'silent' }));
    // Two confirmed accounts, a patient and a clinician (roles set as an admin grant would).
    for (const [email, role] of [
      ['patient@medaptive.test', 'patient'],
      ['clinician@medaptive.test', 'clinician'],
    ] as const) {
      const { user } = await auth.api.signUpEmail({ body: { email, password: 'Medaptive-demo-1', name: role } });
      await database.execute(`update auth_users set email_verified = true where id = '${user.id}'`);
      await database.execute(`update user_profiles set role = '${role}' where uid = '${user.id}'`);
    }
  });
  afterEach(async () => {
    await database.dispose();
  });

  async function signedInHeaders(email: string): Promise<Headers> {
    const response = await auth.api.signInEmail({ body: { email, password: 'Medaptive-demo-1' }, asResponse: true });
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    return new Headers({ cookie });
  }

  const minutes = (count: number) => Date.now() + count * 60_000;

  it('ends a staff session after 15 minutes without activity, but not a patient session', async () => {
    const clinician = await signedInHeaders('clinician@medaptive.test');
    const patient = await signedInHeaders('patient@medaptive.test');
    expect((await getSessionUser(clinician, { auth, database: database.database, now: minutes(14) }))?.role).toBe('clinician');
    expect((await getSessionUser(patient, { auth, database: database.database, now: minutes(16) }))?.role).toBe('patient');
    expect(await getSessionUser(clinician, { auth, database: database.database, now: minutes(16) })).toBeNull();
    // The ended session is revoked, not just hidden: it stays ended at any time.
    expect(await getSessionUser(clinician, { auth, database: database.database })).toBeNull();
  });

  it('ends every session 12 hours after sign-in', async () => {
    const patient = await signedInHeaders('patient@medaptive.test');
    expect(await getSessionUser(patient, { auth, database: database.database, now: Date.now() + 12 * 3600_000 + 60_000 })).toBeNull();
  });

  it('reads the role on every request, so a grant applies at once', async () => {
    const headers = await signedInHeaders('patient@medaptive.test');
    const user = await getSessionUser(headers, { auth, database: database.database });
    expect(user?.role).toBe('patient');
    await database.execute(`update user_profiles set role = 'clinician' where uid = '${user?.id}'`);
    expect((await getSessionUser(headers, { auth, database: database.database }))?.role).toBe('clinician');
  });
});
