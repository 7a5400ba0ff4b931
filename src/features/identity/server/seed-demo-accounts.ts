import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { authUsers, companyMemberships, drugCompanies, type Role, userProfiles } from '@/db/schema';
import { demoCompanies } from '@/engine/simulation/demo-catalogue';
import type { Auth } from '@/lib/server/auth';

export const demoAccounts: { email: string; name: string; role: Role }[] = [
  { email: 'patient@medaptive.test', name: 'Demo Patient', role: 'patient' },
  { email: 'clinician@medaptive.test', name: 'Demo Clinician', role: 'clinician' },
  { email: 'manufacturer@medaptive.test', name: 'Demo Manufacturer', role: 'drug-manufacturer' },
  { email: 'government@medaptive.test', name: 'Demo Government Official', role: 'government-official' },
  { email: 'admin@medaptive.test', name: 'Demo Admin', role: 'admin' },
];

/** The demo manufacturer belongs to (and views) the first two demo companies. */
const manufacturerCompanies = demoCompanies.slice(0, 2);

/**
 * Creates the demo companies and accounts when the database has no users yet. Returns the accounts created
 * (empty when there were users already, so a real installation is never touched).
 */
export async function seedDemoAccounts(options: { database: Database; auth: Auth; password: string }): Promise<string[]> {
  const [{ count } = { count: 0 }] = await options.database.select({ count: sql<number>`count(*)::int` }).from(authUsers);
  if (count > 0) return [];

  await options.database
    .insert(drugCompanies)
    .values(demoCompanies.map(({ id, name }) => ({ id, name })))
    .onConflictDoNothing();
  const created: string[] = [];
  for (const account of demoAccounts) {
    const result = await options.auth.api.signUpEmail({ body: { email: account.email, password: options.password, name: account.name } });
    const userId = result.user.id;
    // Demo addresses cannot receive mail; they count as confirmed.
    await options.database.update(authUsers).set({ emailVerified: true }).where(eq(authUsers.id, userId));
    const selected =
      account.role === 'drug-manufacturer' ? Object.fromEntries(manufacturerCompanies.map((company) => [company.id, company.name])) : {};
    await options.database
      .update(userProfiles)
      .set({ role: account.role, selectedDrugCompanies: selected, displayName: account.name, updatedUnix: Date.now() })
      .where(eq(userProfiles.uid, userId));
    if (account.role === 'drug-manufacturer') {
      await options.database.insert(companyMemberships).values(manufacturerCompanies.map((company) => ({ userId, companyId: company.id })));
    }
    created.push(account.email);
  }
  return created;
}
