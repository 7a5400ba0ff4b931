import 'server-only';
import { eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { companyMemberships, drugCompanies, userProfiles } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { requireActor } from '@/lib/server/authorization';
import type { SessionUser } from '@/lib/server/session';
import { emptyCompanySelection, type ProfileDocument, selectedDrugCompaniesInputSchema } from '../schemas';
import { getProfileDocument } from './get-profile-document';

/**
 * Stores which of their companies a user views (seed-spec §3: a map of company id to name; a list of ids is
 * accepted and stored as the map). DESIGN §8.1: only companies the user belongs to; names come from the
 * database, not from the caller.
 */
export async function updateSelectedDrugCompanies(options: {
  database: Database;
  actor: SessionUser | null;
  companies: unknown;
}): Promise<ProfileDocument> {
  const actor = requireActor(options.actor);
  const { selectedDrugCompanies } = parseInput(
    selectedDrugCompaniesInputSchema,
    { selectedDrugCompanies: options.companies },
    { label: 'The company selection' },
  );
  const requestedIds = Array.isArray(selectedDrugCompanies) ? selectedDrugCompanies : Object.keys(selectedDrugCompanies);
  // An empty selection would read as "nothing" to the user but as "all of mine" to the portal: refused.
  if (requestedIds.length === 0) {
    throw new AppError('validation', emptyCompanySelection, { fieldErrors: { selectedDrugCompanies: emptyCompanySelection } });
  }
  const memberships = await options.database
    .select({ id: drugCompanies.id, name: drugCompanies.name })
    .from(companyMemberships)
    .innerJoin(drugCompanies, eq(drugCompanies.id, companyMemberships.companyId))
    .where(eq(companyMemberships.userId, actor.id));
  const names = new Map(memberships.map((company) => [company.id, company.name]));
  const foreign = requestedIds.filter((id) => !names.has(id));
  if (foreign.length > 0) {
    throw new AppError('forbidden', 'selectedDrugCompanies may name only companies you belong to.', {
      fieldErrors: { selectedDrugCompanies: `Not your company: ${foreign.join(', ')}` },
    });
  }
  const selected = Object.fromEntries(requestedIds.map((id) => [id, names.get(id) as string]));
  const updatedUnix = Date.now();
  await options.database
    .insert(userProfiles)
    .values({ uid: actor.id, role: actor.role, selectedDrugCompanies: selected, updatedUnix })
    .onConflictDoUpdate({ target: userProfiles.uid, set: { selectedDrugCompanies: selected, updatedUnix } });
  const document = await getProfileDocument({ database: options.database, uid: actor.id });
  if (document === null) throw new AppError('internal', 'The profile could not be read back.');
  return document;
}
