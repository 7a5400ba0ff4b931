import 'server-only';
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dispensings, patients } from '@/db/schema';
import { computePdc, dayNumberFromIso, isoFromDayNumber, type PdcFill } from '@/engine/adherence';

export type HeadlineFigures = {
  /** Patients with a dispensing in the 365 days up to the latest one on record. */
  patientsMonitored: number;
  /** Mean refill-based PDC over those 365 days (PQA: same-drug fills shift, union across drugs). */
  meanPdc: number;
  periodStart: string;
  periodEnd: string;
  /** True when every patient counted is simulator output. */
  synthetic: boolean;
} | null;

/** Groups smaller than this are never shown (DESIGN §1 small-cell suppression). */
const minimumGroup = 11;

/** The home page's live figures, computed from the dispensings on record; null when there are too few patients. */
export async function getHeadlineFigures(options: { database: Database }): Promise<HeadlineFigures> {
  const [latest] = await options.database.select({ day: sql<string | null>`max(${dispensings.dispensedOn})::text` }).from(dispensings);
  if (!latest?.day) return null;
  const periodEnd = dayNumberFromIso(latest.day) + 1;
  const periodStart = periodEnd - 365;
  const rows = await options.database
    .select({
      patientId: dispensings.patientId,
      day: sql<string>`${dispensings.dispensedOn}::text`,
      daysSupply: dispensings.daysSupply,
      drug: sql<string>`coalesce(${dispensings.productId}, ${dispensings.medicationCode}, 'unknown')`,
      synthetic: patients.synthetic,
    })
    .from(dispensings)
    .innerJoin(patients, sql`${patients.id} = ${dispensings.patientId}`)
    .where(sql`${dispensings.dispensedOn} >= ${isoFromDayNumber(periodStart - 180)}::date`);

  const fillsByPatient = new Map<string, { fills: PdcFill[]; synthetic: boolean; active: boolean }>();
  for (const row of rows) {
    const day = dayNumberFromIso(row.day);
    const entry = fillsByPatient.get(row.patientId) ?? { fills: [], synthetic: row.synthetic, active: false };
    entry.fills.push({ day, daysSupply: row.daysSupply, drug: row.drug });
    if (day >= periodStart) entry.active = true;
    fillsByPatient.set(row.patientId, entry);
  }
  const active = [...fillsByPatient.values()].filter((entry) => entry.active);
  if (active.length < minimumGroup) return null;
  const pdcs = active.map((entry) => computePdc({ fills: entry.fills, periodStart, periodEnd }).pdc);
  return {
    patientsMonitored: active.length,
    meanPdc: pdcs.reduce((sum, value) => sum + value, 0) / pdcs.length,
    periodStart: isoFromDayNumber(periodStart),
    periodEnd: isoFromDayNumber(periodEnd - 1),
    synthetic: active.every((entry) => entry.synthetic),
  };
}
