import 'server-only';
/**
 * Medication records as the engine reads them — dispensings (the PDC input), regimens and dose events —
 * loaded for a cohort scope or one patient, for every feature that computes adherence (shared read layer,
 * docs/decisions/008). `productIds` narrows to those products (a manufacturer's view); null reads all.
 */
import { and, asc, type Column, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dispensings, doseEvents, doseStatuses, patients, products, regimens } from '@/db/schema';
import { dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import type { MedicationEvent } from '@/engine/adherence/medication-event';
import { type CohortScope, cohortConditions } from './cohort-scope';

export type DispensingRow = {
  patientId: string;
  productId: string | null;
  medicationCode: string | null;
  /** ISO date. */
  dispensedOn: string;
  daysSupply: number;
  dosesPerDay: number | null;
  productName: string | null;
};

const dispensingColumns = {
  patientId: dispensings.patientId,
  productId: dispensings.productId,
  medicationCode: dispensings.medicationCode,
  dispensedOn: dispensings.dispensedOn,
  daysSupply: dispensings.daysSupply,
  dosesPerDay: dispensings.dosesPerDay,
  productName: products.name,
};

const ofProducts = (column: Column, productIds: readonly string[] | null) =>
  productIds === null ? undefined : inArray(column, [...productIds]);

/** Dispensings of a scope's patients (manufacturers: of their products only) on days [from, to), by patient, in date order. */
export async function loadCohortDispensings(options: {
  database: Database;
  scope: CohortScope;
  from: number;
  to: number;
}): Promise<Map<string, DispensingRow[]>> {
  const { database, scope } = options;
  const byPatient = new Map<string, DispensingRow[]>();
  const conditions = cohortConditions(database, scope);
  if (conditions === null) return byPatient;
  const rows = await database
    .select(dispensingColumns)
    .from(dispensings)
    .innerJoin(patients, eq(patients.id, dispensings.patientId))
    .leftJoin(products, eq(products.id, dispensings.productId))
    .where(
      and(
        conditions.dispensings,
        gte(dispensings.dispensedOn, isoFromDayNumber(options.from)),
        lt(dispensings.dispensedOn, isoFromDayNumber(options.to)),
      ),
    )
    .orderBy(asc(dispensings.dispensedOn));
  for (const row of rows) {
    const own = byPatient.get(row.patientId);
    if (own === undefined) byPatient.set(row.patientId, [row]);
    else own.push(row);
  }
  return byPatient;
}

/** Every dispensing of one patient, in date order. */
export async function loadPatientDispensings(options: {
  database: Database;
  patientId: string;
  productIds: readonly string[] | null;
}): Promise<DispensingRow[]> {
  return options.database
    .select(dispensingColumns)
    .from(dispensings)
    .leftJoin(products, eq(products.id, dispensings.productId))
    .where(and(eq(dispensings.patientId, options.patientId), ofProducts(dispensings.productId, options.productIds)))
    .orderBy(asc(dispensings.dispensedOn));
}

export type RegimenRow = {
  productName: string | null;
  genericName: string | null;
  medicationCode: string | null;
  dosesPerDay: number;
  doseTimes: string[];
  startDate: string;
  endDate: string | null;
  daysPerFill: number | null;
  quantityPerFill: number | null;
  repeatsAllowed: number | null;
};

/** One patient's regimens, by start date. */
export async function loadPatientRegimens(options: {
  database: Database;
  patientId: string;
  productIds: readonly string[] | null;
}): Promise<RegimenRow[]> {
  return options.database
    .select({
      productName: products.name,
      genericName: products.genericName,
      medicationCode: regimens.medicationCode,
      dosesPerDay: regimens.dosesPerDay,
      doseTimes: regimens.doseTimes,
      startDate: regimens.startDate,
      endDate: regimens.endDate,
      daysPerFill: regimens.daysPerFill,
      quantityPerFill: regimens.quantityPerFill,
      repeatsAllowed: regimens.repeatsAllowed,
    })
    .from(regimens)
    .leftJoin(products, eq(products.id, regimens.productId))
    .where(and(eq(regimens.patientId, options.patientId), ofProducts(regimens.productId, options.productIds)))
    .orderBy(asc(regimens.startDate));
}

export type DoseEventRow = { scheduledAt: Date; confirmedAt: Date | null; status: (typeof doseStatuses)[number] };

/** One patient's dose events scheduled in [from, to). */
export async function loadPatientDoseEvents(options: {
  database: Database;
  patientId: string;
  productIds: readonly string[] | null;
  from: Date;
  to: Date;
}): Promise<DoseEventRow[]> {
  return options.database
    .select({ scheduledAt: doseEvents.scheduledAt, confirmedAt: doseEvents.confirmedAt, status: doseEvents.status })
    .from(doseEvents)
    .where(
      and(
        eq(doseEvents.patientId, options.patientId),
        ofProducts(doseEvents.productId, options.productIds),
        gte(doseEvents.scheduledAt, options.from),
        lt(doseEvents.scheduledAt, options.to),
      ),
    );
}

/** The medication a fill is of: its product, else the code the source gave. */
export function drugOf(fill: Pick<DispensingRow, 'productId' | 'medicationCode'>): string {
  return fill.productId ?? fill.medicationCode ?? 'unknown medication';
}

/** Fills as the engine's (AdhereR) events, sorted by day, before `end` only. */
export function medicationEventsFrom(
  fills: readonly Pick<DispensingRow, 'productId' | 'medicationCode' | 'dispensedOn' | 'daysSupply' | 'dosesPerDay'>[],
  end: number,
): MedicationEvent[] {
  return fills
    .map((fill) => ({
      day: dayNumberFromIso(fill.dispensedOn),
      duration: fill.daysSupply,
      dose: fill.dosesPerDay ?? 1,
      medicationClass: drugOf(fill),
    }))
    .filter((event) => event.day < end)
    .sort((left, right) => left.day - right.day);
}

/**
 * The same fills as `loadCohortDispensings` (without the product's name), aggregated into one row per patient
 * in SQL: a page over a whole cohort reads a row per patient rather than per fill, several times faster
 * (PGlite's per-row cost dominates); for pages that need only what the PDC needs.
 */
export async function loadCohortFillsByPatient(options: {
  database: Database;
  scope: CohortScope;
  from: number;
  to: number;
}): Promise<Map<string, Omit<DispensingRow, 'patientId' | 'productName'>[]>> {
  const { database, scope } = options;
  const byPatient = new Map<string, Omit<DispensingRow, 'patientId' | 'productName'>[]>();
  const conditions = cohortConditions(database, scope);
  if (conditions === null) return byPatient;
  const ordered = sql`order by ${dispensings.dispensedOn}`;
  const rows = await database
    .select({
      patientId: dispensings.patientId,
      productIds: sql<(string | null)[]>`array_agg(${dispensings.productId} ${ordered})`,
      medicationCodes: sql<(string | null)[]>`array_agg(${dispensings.medicationCode} ${ordered})`,
      dispensedOn: sql<string[]>`array_agg(${dispensings.dispensedOn}::text ${ordered})`,
      daysSupply: sql<number[]>`array_agg(${dispensings.daysSupply} ${ordered})`,
      dosesPerDay: sql<(number | null)[]>`array_agg(${dispensings.dosesPerDay} ${ordered})`,
    })
    .from(dispensings)
    .innerJoin(patients, eq(patients.id, dispensings.patientId))
    .where(
      and(
        conditions.dispensings,
        gte(dispensings.dispensedOn, isoFromDayNumber(options.from)),
        lt(dispensings.dispensedOn, isoFromDayNumber(options.to)),
      ),
    )
    .groupBy(dispensings.patientId);
  for (const row of rows) {
    byPatient.set(
      row.patientId,
      row.dispensedOn.map((dispensedOn, index) => ({
        productId: row.productIds[index] ?? null,
        medicationCode: row.medicationCodes[index] ?? null,
        dispensedOn,
        daysSupply: Number(row.daysSupply[index]),
        dosesPerDay: row.dosesPerDay[index] === null || row.dosesPerDay[index] === undefined ? null : Number(row.dosesPerDay[index]),
      })),
    );
  }
  return byPatient;
}
