import 'server-only';
/**
 * The stored records as the risk engine reads them: every patient's dose events, outbound and inbound
 * messages, opt-outs (consent ledger withdrawals) and dispensings over the `weeks` before `endDay`, packed
 * into the engine's histories. Dispensings come through the shared read layer; the daily counts are
 * aggregated in SQL so a large cohort's rows never sit in memory. Days are UTC calendar days.
 */
import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { loadCohortDispensings } from '@/db/queries/medication-events';
import { consentEvents, doseEvents, messages, patients, regimens } from '@/db/schema';
import { dayNumberFromIso } from '@/engine/adherence/day-number';
import { createHistoryCollector, type PatientHistory } from '@/engine/risk';
import { conditions as knownConditions, type Condition } from '@/engine/simulation/conditions';
import { ageBands, personas, type AgeBand, type Persona } from '@/engine/simulation/personas';

const dayOf = (column: typeof doseEvents.scheduledAt | typeof messages.sentAt | typeof consentEvents.effectiveAt) =>
  sql<number>`floor(extract(epoch from ${column}) / 86400)::int`;

/** The day after the latest scheduled dose on record: the as-of day of stored data; null when there is none. */
export async function findLatestDoseDay(database: Database): Promise<number | null> {
  const [row] = await database.select({ day: sql<number | null>`max(${dayOf(doseEvents.scheduledAt)})` }).from(doseEvents);
  return row?.day === null || row?.day === undefined ? null : Number(row.day) + 1;
}

export async function loadRiskHistories(options: { database: Database; endDay: number; weeks: number }): Promise<PatientHistory[]> {
  const { database, endDay } = options;
  const startDay = endDay - options.weeks * 7;
  const from = new Date(startDay * 86_400_000);
  const to = new Date(endDay * 86_400_000);
  const collector = createHistoryCollector(startDay, endDay - startDay);
  const [patientRows, productRows] = await Promise.all([
    database
      .select({ id: patients.id, persona: patients.persona, ageBand: patients.ageBand, conditions: patients.conditions })
      .from(patients)
      .orderBy(asc(patients.id)),
    database
      .select({
        patientId: regimens.patientId,
        products: sql<number>`count(distinct coalesce(${regimens.productId}, ${regimens.medicationCode}))::int`,
      })
      .from(regimens)
      .groupBy(regimens.patientId),
  ]);
  const productCounts = new Map(productRows.map((row) => [row.patientId, Number(row.products)]));
  for (const row of patientRows) {
    collector.addPatient({
      id: row.id,
      persona: (personas as readonly string[]).includes(row.persona ?? '') ? (row.persona as Persona) : null,
      ageBand: (ageBands as readonly string[]).includes(row.ageBand ?? '') ? (row.ageBand as AgeBand) : null,
      conditions: row.conditions.filter((condition): condition is Condition => (knownConditions as readonly string[]).includes(condition)),
      productCount: productCounts.get(row.id) ?? 0,
    });
  }
  const doseDay = dayOf(doseEvents.scheduledAt);
  const doses = await database
    .select({
      patientId: doseEvents.patientId,
      day: doseDay,
      scheduled: sql<number>`count(*)::int`,
      confirmed: sql<number>`(count(*) filter (where ${doseEvents.status} = 'taken'))::int`,
    })
    .from(doseEvents)
    .where(and(gte(doseEvents.scheduledAt, from), lt(doseEvents.scheduledAt, to)))
    .groupBy(doseEvents.patientId, doseDay);
  for (const row of doses) {
    const confirmed = Number(row.confirmed);
    const scheduled = Number(row.scheduled);
    for (let dose = 0; dose < scheduled; dose += 1) collector.recorder.addDose(row.patientId, Number(row.day), dose < confirmed);
  }
  const messageDay = dayOf(messages.sentAt);
  const messageRows = await database
    .select({ patientId: messages.patientId, day: messageDay, direction: messages.direction, count: sql<number>`count(*)::int` })
    .from(messages)
    .where(and(gte(messages.sentAt, from), lt(messages.sentAt, to)))
    .groupBy(messages.patientId, messageDay, messages.direction);
  for (const row of messageRows) {
    for (let index = 0; index < Number(row.count); index += 1) {
      if (row.direction === 'outbound') collector.recorder.addOutbound(row.patientId, Number(row.day));
      else collector.recorder.addReply(row.patientId, Number(row.day), false);
    }
  }
  const optOuts = await database
    .selectDistinct({ patientId: consentEvents.patientId, day: dayOf(consentEvents.effectiveAt) })
    .from(consentEvents)
    .where(and(eq(consentEvents.granted, false), lt(consentEvents.effectiveAt, to), gte(consentEvents.effectiveAt, from)));
  for (const row of optOuts) collector.recorder.addOptOut(row.patientId, Number(row.day));
  // Dispensings from a year before the window carry supply into it.
  const fills = await loadCohortDispensings({ database, scope: { kind: 'all' }, from: startDay - 365, to: endDay });
  for (const [patientId, rows] of fills) {
    for (const fill of rows) {
      collector.recorder.addDispensing(patientId, {
        productId: fill.productId ?? fill.medicationCode ?? 'unknown',
        day: dayNumberFromIso(fill.dispensedOn),
        daysSupply: fill.daysSupply,
      });
    }
  }
  return collector.histories();
}
