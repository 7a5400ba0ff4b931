import 'server-only';
/**
 * Which messages a viewer's message pages draw on (shared read layer, docs/decisions/008 and 033): the
 * messages of the viewer's cohort scope (clinicians their organisations' patients, manufacturers the patients
 * dispensed their products, everyone else all), sent in the reporting period, narrowed by the page's filters.
 * The messaging overview, message data collection and WhatsApp analysis pages read through this one rule, so
 * their counts for the same viewer, period and filters agree.
 *
 * Queries select from `messages` inner-joined to `patients` on `messages.patient_id` (the conditions use both).
 */
import { and, asc, eq, exists, gte, isNotNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dispensings, messages, patients, products, regimens } from '@/db/schema';
import { MS_PER_DAY } from '@/engine/time/local-day';
import type { Channel } from '@/lib/domain/channels';
import { type CohortScope, cohortConditions, findCohortScope, scopeProductIds, type Viewer } from './cohort-scope';
import { findReportingPeriod, type PeriodChoice, type ReportingPeriod } from './reporting-period';
import { seesSuppressedAggregates } from './suppression';

export type MessageFilters = {
  /** The reporting period's days [start, end), as UTC calendar days (a message counts on the UTC day it was sent). */
  period: { start: number; end: number };
  channel?: Channel | null;
  persona?: string | null;
  /** Patients with a regimen or a dispensing of the product. */
  productId?: string | null;
};

/** The period's bounds as instants: [from, to). */
export function periodInstants(period: { start: number; end: number }): { from: Date; to: Date } {
  return { from: new Date(period.start * MS_PER_DAY), to: new Date(period.end * MS_PER_DAY) };
}

/**
 * The patient half of the scope: the viewer's cohort narrowed by persona and product (a regimen or a
 * dispensing of it), as one condition over `patients` — for figures about patients rather than messages
 * (opt-outs, programmes); null when the scope (or the product filter) holds nobody.
 */
export function messagePatientConditions(
  database: Database,
  scope: CohortScope,
  filters: Pick<MessageFilters, 'persona' | 'productId'>,
): SQL | undefined | null {
  const cohort = cohortConditions(database, scope);
  if (cohort === null) return null;
  const persona = filters.persona ?? null;
  const productId = filters.productId ?? null;
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

/**
 * The scope, period and filters as one condition over `messages` joined to `patients`; null when the scope
 * holds nobody (no query should run).
 */
export function messageConditions(database: Database, scope: CohortScope, filters: MessageFilters): SQL | null {
  const ofPatients = messagePatientConditions(database, scope, filters);
  if (ofPatients === null) return null;
  const { from, to } = periodInstants(filters.period);
  return and(
    ofPatients,
    gte(messages.sentAt, from),
    lt(messages.sentAt, to),
    filters.channel ? eq(messages.channel, filters.channel) : undefined,
  )!;
}

export type MessageFilterOptions = {
  personas: string[];
  products: { id: string; name: string }[];
};

/** What the filters can be set to for a scope: the personas of its patients and the products it may read. */
export async function findMessageFilterOptions(options: { database: Database; scope: CohortScope }): Promise<MessageFilterOptions> {
  const { database, scope } = options;
  const cohort = cohortConditions(database, scope);
  if (cohort === null) return { personas: [], products: [] };
  const allowed = scopeProductIds(scope);
  const [personaRows, productRows] = await Promise.all([
    database
      .selectDistinct({ persona: patients.persona })
      .from(patients)
      .where(and(cohort.patients, isNotNull(patients.persona)))
      .orderBy(asc(patients.persona)),
    database.select({ id: products.id, name: products.name }).from(products).orderBy(asc(products.name)),
  ]);
  return {
    personas: personaRows.map((row) => row.persona!),
    products: allowed === null ? productRows : productRows.filter((product) => allowed.includes(product.id)),
  };
}

export type MessageSelection = {
  scope: Exclude<CohortScope, { kind: 'no-company' }>;
  /** The viewer sees aggregates through small-cell suppression. */
  suppressed: boolean;
  period: ReportingPeriod;
  filterOptions: MessageFilterOptions;
};

/**
 * What every message page starts from: the viewer's scope, whether their figures are suppressed, the reporting
 * period of their choice and the filter options; 'no-company' for a manufacturer who belongs to none.
 */
export async function findMessageSelection(options: {
  database: Database;
  actor: Viewer;
  choice?: PeriodChoice;
  now: Date;
}): Promise<MessageSelection | 'no-company'> {
  const { database, actor } = options;
  const scope = await findCohortScope({ database, actor });
  if (scope.kind === 'no-company') return 'no-company';
  const [period, filterOptions] = await Promise.all([
    findReportingPeriod({ database, scope, choice: options.choice, now: options.now }),
    findMessageFilterOptions({ database, scope }),
  ]);
  return { scope, suppressed: seesSuppressedAggregates(actor.role), period, filterOptions };
}
