import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authSessions, authUsers } from '@/db/schema';
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

  /**
   * As if `minutes` went by without a request: every stored time of the account's sessions moves back (what
   * better-auth stored at the last refresh is then that long ago), so the real session path decides.
   */
  async function letTimePass(email: string, minutes: number, columns = ['created_at', 'updated_at', 'expires_at']) {
    const shift = columns.map((column) => `${column} = ${column} - interval '${minutes} minutes'`).join(', ');
    await database.execute(`update auth_sessions set ${shift} where user_id = (select id from auth_users where email = '${email}')`);
  }

  async function storedSessionCount(email: string): Promise<number> {
    const rows = await database.database
      .select({ id: authSessions.id })
      .from(authSessions)
      .innerJoin(authUsers, eq(authUsers.id, authSessions.userId))
      .where(eq(authUsers.email, email));
    return rows.length;
  }

  const sessionUser = (headers: Headers, recordActivity?: boolean) =>
    getSessionUser(headers, { auth, database: database.database, recordActivity });

  it('ends a staff session after 15 minutes without activity, but not a patient session', async () => {
    const clinician = await signedInHeaders('clinician@medaptive.test');
    const patient = await signedInHeaders('patient@medaptive.test');
    await letTimePass('clinician@medaptive.test', 16);
    await letTimePass('patient@medaptive.test', 16);
    // better-auth alone would refresh both (their stored expiry is 14 minutes ahead) and call them fresh.
    expect(await sessionUser(clinician)).toBeNull();
    expect((await sessionUser(patient))?.role).toBe('patient');
    // The ended session is deleted, not just hidden: better-auth's own endpoints no longer see it either.
    expect(await storedSessionCount('clinician@medaptive.test')).toBe(0);
    expect(await auth.api.getSession({ headers: clinician })).toBeNull();
  });

  it('ends a patient session after 30 minutes without activity', async () => {
    const patient = await signedInHeaders('patient@medaptive.test');
    await letTimePass('patient@medaptive.test', 29);
    expect((await sessionUser(patient))?.role).toBe('patient');
    // That request was activity: 29 more idle minutes are fine, 31 are not.
    await letTimePass('patient@medaptive.test', 29);
    expect((await sessionUser(patient))?.role).toBe('patient');
    await letTimePass('patient@medaptive.test', 31);
    expect(await sessionUser(patient)).toBeNull();
  });

  it('counts each request as activity, so a staff session in use stays open', async () => {
    const clinician = await signedInHeaders('clinician@medaptive.test');
    for (let step = 0; step < 3; step += 1) {
      await letTimePass('clinician@medaptive.test', 14);
      expect((await sessionUser(clinician))?.role).toBe('clinician');
    }
  });

  it('applies the idle limit on better-auth endpoints too, before their session lookup can refresh the session', async () => {
    const clinician = await signedInHeaders('clinician@medaptive.test');
    await letTimePass('clinician@medaptive.test', 16);
    // /get-session, as the browser calls it when the user navigates: not a revival of the idle session.
    expect(await auth.api.getSession({ headers: clinician })).toBeNull();
    expect(await sessionUser(clinician)).toBeNull();
  });

  it('does not count a background check as activity', async () => {
    const clinician = await signedInHeaders('clinician@medaptive.test');
    await letTimePass('clinician@medaptive.test', 10);
    expect((await sessionUser(clinician, false))?.role).toBe('clinician');
    await letTimePass('clinician@medaptive.test', 6);
    expect(await sessionUser(clinician, false)).toBeNull();
  });

  it('ends every session 12 hours after sign-in, however active', async () => {
    const patient = await signedInHeaders('patient@medaptive.test');
    await letTimePass('patient@medaptive.test', 12 * 60 - 1, ['created_at']);
    expect((await sessionUser(patient))?.role).toBe('patient');
    await letTimePass('patient@medaptive.test', 2, ['created_at']);
    expect(await sessionUser(patient)).toBeNull();
  });

  it('reads the role on every request, so a grant applies at once', async () => {
    const headers = await signedInHeaders('patient@medaptive.test');
    const user = await getSessionUser(headers, { auth, database: database.database });
    expect(user?.role).toBe('patient');
    await database.execute(`update user_profiles set role = 'clinician' where uid = '${user?.id}'`);
    expect((await getSessionUser(headers, { auth, database: database.database }))?.role).toBe('clinician');
  });
});
