import 'server-only';
import { and, asc, desc, eq, gte, isNotNull, isNull, lt, lte, or } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { doseEvents, patients, products, regimens } from '@/db/schema';
import { isoFromDayNumber } from '@/engine/adherence/day-number';
import { type DoseSlot, doseSlotsOfDay, localToday } from '../dose-slots';

export type OwnPatient = { id: string; pseudonym: string; timeZone: string; synthetic: boolean };

/** The patient record linked to a signed-in user (their own), or null when the account has none. */
export async function findOwnPatient(database: Database, userId: string): Promise<OwnPatient | null> {
  const [row] = await database
    .select({ id: patients.id, pseudonym: patients.pseudonym, timezone: patients.timezone, synthetic: patients.synthetic })
    .from(patients)
    .where(eq(patients.userId, userId));
  if (row === undefined) return null;
  let timeZone = row.timezone ?? 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    // A zone Intl does not know: UTC, rather than no day at all.
    timeZone = 'UTC';
  }
  return { id: row.id, pseudonym: row.pseudonym, timeZone, synthetic: row.synthetic };
}

/** Today's dose slots of the patient (their local day), with what was recorded for each. */
export async function findTodaysDoseSlots(options: {
  database: Database;
  patient: OwnPatient;
  now: Date;
}): Promise<{ day: number; slots: DoseSlot[] }> {
  const { database, patient, now } = options;
  const today = localToday(now, patient.timeZone);
  const isoDay = isoFromDayNumber(today.day);
  const [running, recorded] = await Promise.all([
    database
      .select({
        productId: regimens.productId,
        medication: products.name,
        dosesPerDay: regimens.dosesPerDay,
        doseTimes: regimens.doseTimes,
      })
      .from(regimens)
      .innerJoin(products, eq(products.id, regimens.productId))
      .where(
        and(
          eq(regimens.patientId, patient.id),
          isNotNull(regimens.productId),
          lte(regimens.startDate, isoDay),
          or(isNull(regimens.endDate), gte(regimens.endDate, isoDay)),
        ),
      )
      // The newest regimen of a medicine first: a dose change is recorded as a regimen that starts later.
      .orderBy(asc(products.name), desc(regimens.startDate)),
    database
      .select({
        id: doseEvents.id,
        productId: doseEvents.productId,
        scheduledAt: doseEvents.scheduledAt,
        status: doseEvents.status,
        source: doseEvents.source,
      })
      .from(doseEvents)
      .where(and(eq(doseEvents.patientId, patient.id), gte(doseEvents.scheduledAt, today.start), lt(doseEvents.scheduledAt, today.end))),
  ]);
  // One slot set per medicine, even when two regimens of it overlap (a dose change recorded as a new regimen).
  const byProduct = new Map<string, { productId: string; medication: string; dosesPerDay: number; doseTimes: string[] }>();
  for (const row of running) {
    if (row.productId !== null && !byProduct.has(row.productId)) byProduct.set(row.productId, { ...row, productId: row.productId });
  }
  return {
    day: today.day,
    slots: doseSlotsOfDay({ regimens: [...byProduct.values()], recorded, day: today.day, timeZone: patient.timeZone }),
  };
}
