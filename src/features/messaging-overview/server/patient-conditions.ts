import 'server-only';
import { and, eq, exists, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { type CohortScope, cohortConditions, scopeProductIds } from '@/db/queries/cohort-scope';
import { dispensings, patients, regimens } from '@/db/schema';

/**
 * The patient half of the shared message scope (src/db/queries/message-scope.ts): the viewer's cohort,
 * narrowed by persona and by product (a regimen or a dispensing of it), as one condition over `patients`.
 * The opt-out and programme figures are about patients, not messages, so they need it without the
 * message period; null when the scope (or the product filter) holds nobody.
 */
export function patientConditions(
  database: Database,
  scope: CohortScope,
  filters: { persona: string | null; productId: string | null },
): SQL | undefined | null {
  const cohort = cohortConditions(database, scope);
  if (cohort === null) return null;
  const { persona, productId } = filters;
  if (productId !== null) {
    const allowed = scopeProductIds(scope);
    if (allowed !== null && !allowed.includes(productId)) return null;
  }
  return and(
    cohort.patients,
    persona === null ? undefined : eq(patients.persona, persona),
    productId === null
      ? undefined
      : or(
          exists(
            database
              .select({ one: sql`1` })
              .from(regimens)
              .where(and(eq(regimens.patientId, patients.id), eq(regimens.productId, productId))),
          ),
          exists(
            database
              .select({ one: sql`1` })
              .from(dispensings)
              .where(and(eq(dispensings.patientId, patients.id), eq(dispensings.productId, productId))),
          ),
        ),
  );
}
