import 'server-only';
import { eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { companyMemberships, drugCompanies, userProfiles } from '@/db/schema';
import type { ProfileDocument } from '../schemas';

/** The profile document of `uid`, or null when it does not exist (seed-spec §4: a missing document gives null). */
export async function getProfileDocument(options: { database: Database; uid: string }): Promise<ProfileDocument | null> {
  const [row] = await options.database
    .select({
      uid: userProfiles.uid,
      role: userProfiles.role,
      selectedDrugCompanies: userProfiles.selectedDrugCompanies,
      updatedUnix: userProfiles.updatedUnix,
      displayName: userProfiles.displayName,
      phone: userProfiles.phone,
      timezone: userProfiles.timezone,
      language: userProfiles.language,
    })
    .from(userProfiles)
    .where(eq(userProfiles.uid, options.uid));
  if (row === undefined) return null;
  const memberCompanies = await options.database
    .select({ id: drugCompanies.id, name: drugCompanies.name })
    .from(companyMemberships)
    .innerJoin(drugCompanies, eq(drugCompanies.id, companyMemberships.companyId))
    .where(eq(companyMemberships.userId, options.uid))
    .orderBy(drugCompanies.name);
  return { ...row, memberCompanies };
}
