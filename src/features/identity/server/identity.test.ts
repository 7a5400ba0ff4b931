import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, companyMemberships, userProfiles } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { parseEnvironment } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { type Auth, createAuthForDatabase } from '@/lib/server/auth';
import { createProfileChangeHub } from '@/lib/server/profile-changes';
import type { SessionUser } from '@/lib/server/session';
import { getProfileDocument } from './get-profile-document';
import { grantRole } from './grant-role';
import { listUsers } from './list-users';
import { seedDemoAccounts } from './seed-demo-accounts';
import { setCompanyMembership } from './set-company-membership';
import { updateProfile } from './update-profile';
import { updateRole } from './update-role';
import { updateSelectedDrugCompanies } from './update-selected-drug-companies';

const password = 'correct horse battery';

describe.each(testDatabaseBackends())('identity on $name', (backend) => {
  let database: TestDatabase;
  let auth: Auth;
  beforeEach(async () => {
    database = await backend.create();
    auth = await createAuthForDatabase(database.database, parseEnvironment({ LOG_LEVEL: 'silent' }));
  });
  afterEach(async () => {
    await database.dispose();
  });

  async function actorFor(email: string): Promise<SessionUser> {
    const document = await database.database.execute(
      sql`select u.id, u.email, u.name, p.role from auth_users u join user_profiles p on p.uid = u.id where u.email = ${email}`,
    );
    const row = (document as unknown as { rows: { id: string; email: string; name: string; role: SessionUser['role'] }[] }).rows[0];
    if (row === undefined) throw new Error(`no user ${email}`);
    return { ...row, phoneNumber: null, twoFactorEnabled: false };
  }

  it('creates a patient profile for every new account and refuses short passwords', async () => {
    const { user } = await auth.api.signUpEmail({ body: { email: 'new@example.org', password, name: 'New' } });
    const document = await getProfileDocument({ database: database.database, uid: user.id });
    expect(document).toMatchObject({ uid: user.id, role: 'patient', selectedDrugCompanies: {}, memberCompanies: [] });
    expect(document?.updatedUnix).toBeGreaterThan(Date.now() - 60_000);
    await expect(auth.api.signUpEmail({ body: { email: 'short@example.org', password: 'elevenchars', name: 'S' } })).rejects.toThrow();
  });

  it('ignores a role smuggled into the sign-up body (mass assignment)', async () => {
    const body = { email: 'sneaky@example.org', password, name: 'Sneaky', role: 'admin', selectedDrugCompanies: { x: 'X' } };
    const { user } = await auth.api
      .signUpEmail({ body: body as { email: string; password: string; name: string } })
      .catch(() => ({ user: null }));
    if (user !== null) {
      const document = await getProfileDocument({ database: database.database, uid: user.id });
      expect(document).toMatchObject({ role: 'patient', selectedDrugCompanies: {} });
    }
    const [row] = (
      (await database.database.execute(sql`select count(*)::int as admins from user_profiles where role = 'admin'`)) as unknown as {
        rows: { admins: number }[];
      }
    ).rows;
    expect(row?.admins).toBe(0);
  });

  it('answers a wrong password and an unknown address alike', async () => {
    await seedDemoAccounts({ database: database.database, auth, password: 'Medaptive-demo-1' });
    const codeOf = async (email: string) =>
      auth.api.signInEmail({ body: { email, password: 'not the right password' } }).then(
        () => 'signed in',
        (error: { body?: { code?: string }; status?: string }) => `${error.status}:${error.body?.code}`,
      );
    const wrongPassword = await codeOf('patient@medaptive.test');
    expect(wrongPassword).toBe('UNAUTHORIZED:INVALID_EMAIL_OR_PASSWORD');
    expect(await codeOf('nobody-here@example.org')).toBe(wrongPassword);
  });

  it('seeds the five demo accounts once, with the manufacturer in two selected companies', async () => {
    const created = await seedDemoAccounts({ database: database.database, auth, password: 'Medaptive-demo-1' });
    expect(created).toHaveLength(5);
    expect(await seedDemoAccounts({ database: database.database, auth, password: 'Medaptive-demo-1' })).toEqual([]);
    const manufacturer = await actorFor('manufacturer@medaptive.test');
    expect(manufacturer.role).toBe('drug-manufacturer');
    const document = await getProfileDocument({ database: database.database, uid: manufacturer.id });
    expect(Object.keys(document?.selectedDrugCompanies ?? {})).toHaveLength(2);
    expect(document?.memberCompanies).toHaveLength(2);
    const signedIn = await auth.api.signInEmail({ body: { email: 'admin@medaptive.test', password: 'Medaptive-demo-1' } });
    expect(signedIn.token).toBeTruthy();
  });

  it('fails with "No user logged in" without a user', async () => {
    await expect(updateRole({ database: database.database, actor: null, role: 'patient' })).rejects.toThrow('No user logged in');
    await expect(updateSelectedDrugCompanies({ database: database.database, actor: null, companies: [] })).rejects.toThrow(
      'No user logged in',
    );
  });

  it('lets a user set their own role only to patient, and audits a refusal', async () => {
    await seedDemoAccounts({ database: database.database, auth, password: 'Medaptive-demo-1' });
    const clinician = await actorFor('clinician@medaptive.test');
    const refused = await updateRole({ database: database.database, actor: clinician, role: 'admin' }).catch((error: unknown) => error);
    expect((refused as AppError).httpStatus).toBe(403);
    const document = await updateRole({ database: database.database, actor: clinician, role: 'patient' });
    expect(document.role).toBe('patient');
    const audit = await database.database
      .select({ action: auditLog.action, outcome: auditLog.outcome })
      .from(auditLog)
      .where(eq(auditLog.actorUserId, clinician.id));
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: 'role.self-assign', outcome: 'denied' },
        { action: 'role.self-assign', outcome: 'success' },
      ]),
    );
  });

  it('stores selected companies as a map from a list or a map, only for member companies', async () => {
    await seedDemoAccounts({ database: database.database, auth, password: 'Medaptive-demo-1' });
    const manufacturer = await actorFor('manufacturer@medaptive.test');
    const before = await getProfileDocument({ database: database.database, uid: manufacturer.id });
    const [first, second] = before?.memberCompanies ?? [];
    if (first === undefined || second === undefined) throw new Error('demo memberships missing');
    // Nothing ticked is refused in words, and the stored selection stays.
    const empty = await updateSelectedDrugCompanies({ database: database.database, actor: manufacturer, companies: [] }).catch(
      (error: unknown) => error,
    );
    expect(empty).toMatchObject({ code: 'validation', message: 'Tick at least one company: the portal shows the companies you choose.' });
    expect(await getProfileDocument({ database: database.database, uid: manufacturer.id })).toMatchObject({
      selectedDrugCompanies: before?.selectedDrugCompanies,
    });
    const fromList = await updateSelectedDrugCompanies({ database: database.database, actor: manufacturer, companies: [first.id] });
    expect(fromList.selectedDrugCompanies).toEqual({ [first.id]: first.name });
    expect(fromList.updatedUnix).toBeGreaterThanOrEqual(before?.updatedUnix ?? 0);
    const fromMap = await updateSelectedDrugCompanies({
      database: database.database,
      actor: manufacturer,
      companies: { [second.id]: 'a name the caller made up' },
    });
    expect(fromMap.selectedDrugCompanies).toEqual({ [second.id]: second.name });
    const foreign = await updateSelectedDrugCompanies({
      database: database.database,
      actor: manufacturer,
      companies: ['meridian-biolabs'],
    }).catch((error: unknown) => error);
    expect((foreign as AppError).httpStatus).toBe(403);
  });

  it('refuses role and company fields in a profile update (mass assignment) and names bad fields', async () => {
    await seedDemoAccounts({ database: database.database, auth, password: 'Medaptive-demo-1' });
    const patient = await actorFor('patient@medaptive.test');
    const massAssignment = await updateProfile({
      database: database.database,
      actor: patient,
      input: { displayName: 'X', role: 'admin' },
    }).catch((error: unknown) => error);
    expect((massAssignment as AppError).fieldErrors).toEqual({ role: 'role cannot be changed here.' });
    const badZone = await updateProfile({ database: database.database, actor: patient, input: { timezone: 'Mars/Olympus' } }).catch(
      (error: unknown) => error,
    );
    expect((badZone as AppError).message).toMatch(/Time zone must be an IANA time zone/);
    const updated = await updateProfile({
      database: database.database,
      actor: patient,
      input: { displayName: 'Ada', timezone: 'Europe/London', language: 'en-GB', phone: '+447700900123' },
    });
    expect(updated).toMatchObject({
      displayName: 'Ada',
      timezone: 'Europe/London',
      language: 'en-GB',
      phone: '+447700900123',
      role: 'patient',
    });
  });

  it('lets only an admin grant roles and memberships', async () => {
    await seedDemoAccounts({ database: database.database, auth, password: 'Medaptive-demo-1' });
    const admin = await actorFor('admin@medaptive.test');
    const patient = await actorFor('patient@medaptive.test');
    const denied = await grantRole({ database: database.database, actor: patient, targetUserId: patient.id, role: 'admin' }).catch(
      (error: unknown) => error,
    );
    expect((denied as AppError).httpStatus).toBe(403);
    await grantRole({ database: database.database, actor: admin, targetUserId: patient.id, role: 'drug-manufacturer' });
    await setCompanyMembership({
      database: database.database,
      actor: admin,
      targetUserId: patient.id,
      companyId: 'meridian-biolabs',
      member: true,
    });
    const { users } = await listUsers({ database: database.database, actor: admin });
    expect(users.find((user) => user.id === patient.id)).toMatchObject({
      role: 'drug-manufacturer',
      companies: [{ id: 'meridian-biolabs', name: 'Meridian Biolabs' }],
    });
    const manufacturer = await actorFor('patient@medaptive.test');
    await updateSelectedDrugCompanies({ database: database.database, actor: manufacturer, companies: ['meridian-biolabs'] });
    await setCompanyMembership({
      database: database.database,
      actor: admin,
      targetUserId: patient.id,
      companyId: 'meridian-biolabs',
      member: false,
    });
    const document = await getProfileDocument({ database: database.database, uid: patient.id });
    expect(document?.selectedDrugCompanies).toEqual({});
    expect(await database.database.select().from(companyMemberships).where(eq(companyMemberships.userId, patient.id))).toEqual([]);
  });

  it('records the request id and client address on every admin audit row, the user list and refusals included', async () => {
    await seedDemoAccounts({ database: database.database, auth, password: 'Medaptive-demo-1' });
    const admin = await actorFor('admin@medaptive.test');
    const patient = await actorFor('patient@medaptive.test');
    const request = { requestId: 'request-admin-1', clientAddress: '203.0.113.9' };
    await listUsers({ database: database.database, actor: admin, request });
    await grantRole({ database: database.database, actor: admin, targetUserId: patient.id, role: 'drug-manufacturer', request });
    await setCompanyMembership({
      database: database.database,
      actor: admin,
      targetUserId: patient.id,
      companyId: 'meridian-biolabs',
      member: true,
      request,
    });
    await listUsers({ database: database.database, actor: patient, request }).catch(() => undefined);
    await updateRole({ database: database.database, actor: patient, role: 'admin', request }).catch(() => undefined);
    const rows = await database.database
      .select({
        action: auditLog.action,
        outcome: auditLog.outcome,
        actorUserId: auditLog.actorUserId,
        requestId: auditLog.requestId,
        clientAddress: auditLog.clientAddress,
      })
      .from(auditLog)
      .where(eq(auditLog.requestId, 'request-admin-1'));
    const fromRequest = { requestId: 'request-admin-1', clientAddress: '203.0.113.9' };
    expect(rows).toEqual(
      expect.arrayContaining([
        { action: 'users.list', outcome: 'success', actorUserId: admin.id, ...fromRequest },
        { action: 'role.grant', outcome: 'success', actorUserId: admin.id, ...fromRequest },
        { action: 'membership.add', outcome: 'success', actorUserId: admin.id, ...fromRequest },
        { action: 'users.list', outcome: 'denied', actorUserId: patient.id, ...fromRequest },
        { action: 'role.self-assign', outcome: 'denied', actorUserId: patient.id, ...fromRequest },
      ]),
    );
    expect(rows).toHaveLength(5);
  });

  it('keeps the audit log append-only', async () => {
    await seedDemoAccounts({ database: database.database, auth, password: 'Medaptive-demo-1' });
    const admin = await actorFor('admin@medaptive.test');
    await grantRole({ database: database.database, actor: admin, targetUserId: admin.id, role: 'admin' });
    await expect(database.database.update(auditLog).set({ outcome: 'failure' })).rejects.toThrow();
    await expect(database.database.delete(auditLog)).rejects.toThrow();
    expect((await database.database.select({ id: auditLog.id }).from(auditLog)).length).toBeGreaterThan(0);
  });

  it('announces every profile change to live subscribers', async () => {
    const hub = await createProfileChangeHub(
      database,
      database.kind === 'postgres' ? (database.driver as { options: { connectionString: string } }).options.connectionString : undefined,
    );
    try {
      const { user } = await auth.api.signUpEmail({ body: { email: 'live@example.org', password, name: 'Live' } });
      let changes = 0;
      const unsubscribe = hub.subscribe(user.id, () => (changes += 1));
      await database.database
        .update(userProfiles)
        .set({ displayName: 'Changed', updatedUnix: Date.now() })
        .where(eq(userProfiles.uid, user.id));
      await expect.poll(() => changes, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
      unsubscribe();
    } finally {
      await hub.close();
    }
  });
});
