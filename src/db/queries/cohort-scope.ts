import 'server-only';
/**
 * Which patients and which medicines a viewer's views of patient data may draw on — one rule for every
 * feature (shared read layer, docs/decisions/008):
 * - clinicians: the patients of their organisations (none without one);
 * - drug manufacturers: the products of the companies they belong to, narrowed to the companies selected in
 *   their profile when that selection names any of them, and only those products' dispensings;
 * - everyone else (patients, government officials, admins): every patient and product.
 * A patient's own record is not a cohort: the patient profile finds it by the linked user.
 */
import { and, asc, eq, exists, inArray, type SQL } from 'drizzle-orm';
import type { Database } from '@/db/client';
import {
  companyMemberships,
  dispensings,
  drugCompanies,
  organisationMemberships,
  patients,
  products,
  type Role,
  userProfiles,
} from '@/db/schema';

export type Viewer = { id: string; role: Role };

export type CohortScope =
  | { kind: 'all' }
  | { kind: 'organisation'; organisationIds: string[] }
  | { kind: 'companies'; companies: { id: string; name: string }[]; productIds: string[] }
  | { kind: 'no-company' };

export async function findCohortScope(options: { database: Database; actor: Viewer }): Promise<CohortScope> {
  const { database, actor } = options;
  if (actor.role === 'clinician') {
    const rows = await database
      .select({ id: organisationMemberships.organisationId })
      .from(organisationMemberships)
      .where(eq(organisationMemberships.userId, actor.id));
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

/** The products whose regimens, dispensings and doses a scope may read; null: all of them. */
export function scopeProductIds(scope: CohortScope): string[] | null {
  if (scope.kind === 'companies') return scope.productIds;
  if (scope.kind === 'no-company') return [];
  return null;
}

/**
 * The scope as SQL: which patients (`patients`, over the patients table) and which of their dispensings
 * (`dispensings`, over dispensings joined to patients); null when the scope holds nobody, so no query runs.
 */
export function cohortConditions(
  database: Database,
  scope: CohortScope,
): { patients: SQL | undefined; dispensings: SQL | undefined } | null {
  switch (scope.kind) {
    case 'all':
      return { patients: undefined, dispensings: undefined };
    case 'no-company':
      return null;
    case 'organisation': {
      if (scope.organisationIds.length === 0) return null;
      const ofOrganisations = inArray(patients.organisationId, scope.organisationIds);
      return { patients: ofOrganisations, dispensings: ofOrganisations };
    }
    case 'companies': {
      if (scope.productIds.length === 0) return null;
      const ofProducts = inArray(dispensings.productId, scope.productIds);
      const dispensedInScope = exists(
        database
          .select({ patientId: dispensings.patientId })
          .from(dispensings)
          .where(and(eq(dispensings.patientId, patients.id), ofProducts)),
      );
      return { patients: dispensedInScope, dispensings: ofProducts };
    }
  }
}

export type CohortPatient = { id: string; pseudonym: string; synthetic: boolean; persona: string | null };

/** The patients of a scope, by pseudonym (manufacturers: those ever dispensed one of their products). */
export async function findCohortPatients(options: { database: Database; scope: CohortScope }): Promise<CohortPatient[]> {
  const { database, scope } = options;
  const conditions = cohortConditions(database, scope);
  if (conditions === null) return [];
  return database
    .select({ id: patients.id, pseudonym: patients.pseudonym, synthetic: patients.synthetic, persona: patients.persona })
    .from(patients)
    .where(conditions.patients)
    .orderBy(asc(patients.pseudonym));
}
