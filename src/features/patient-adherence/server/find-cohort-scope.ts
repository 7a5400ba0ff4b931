import 'server-only';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { companyMemberships, drugCompanies, organisationMemberships, products, userProfiles } from '@/db/schema';
import type { SessionUser } from '@/lib/server/session';

/**
 * Which patients and which medicines a user's views of patient data may draw on:
 * - clinicians: the patients of their organisations (none without one);
 * - drug manufacturers: the products of the companies they belong to, narrowed to the companies selected in
 *   their profile when that selection names any of them, and only those products' dispensings;
 * - everyone else (patients, government officials, admins): every patient and product.
 */
export type CohortScope =
  | { kind: 'all' }
  | { kind: 'organisation'; organisationIds: string[] }
  | { kind: 'companies'; companies: { id: string; name: string }[]; productIds: string[] }
  | { kind: 'no-company' };

export async function findCohortScope(options: { database: Database; actor: SessionUser }): Promise<CohortScope> {
  const { database, actor } = options;
  if (actor.role === 'clinician') {
    const rows = await database.select({ id: organisationMemberships.organisationId }).from(organisationMemberships).where(eq(organisationMemberships.userId, actor.id));
    return { kind: 'organisation', organisationIds: rows.map((row) => row.id) };
  }
  if (actor.role !== 'drug-manufacturer') return { kind: 'all' };

  const [memberships, [profile]] = await Promise.all([
    database
      .select({ id: drugCompanies.id, name: drugCompanies.name })
      .from(companyMemberships)
      .innerJoin(drugCompanies, eq(drugCompanies.id, companyMemberships.companyId))
      .where(eq(companyMemberships.userId, actor.id))
      .orderBy(asc(drugCompanies.name)),
    database.select({ selected: userProfiles.selectedDrugCompanies }).from(userProfiles).where(eq(userProfiles.uid, actor.id)),
  ]);
  if (memberships.length === 0) return { kind: 'no-company' };
  // The selection is the user's own document: only companies they still belong to count, and a selection
  // naming none of them means "all of mine" rather than "nothing".
  const selectedIds = new Set(Object.keys(profile?.selected ?? {}));
  const selected = memberships.filter((company) => selectedIds.has(company.id));
  const companies = selected.length > 0 ? selected : memberships;
  const productRows = await database
    .select({ id: products.id })
    .from(products)
    .where(
      inArray(
        products.companyId,
        companies.map((company) => company.id),
      ),
    );
  return { kind: 'companies', companies, productIds: productRows.map((row) => row.id) };
}
