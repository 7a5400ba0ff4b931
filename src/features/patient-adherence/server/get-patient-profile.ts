import 'server-only';
import { and, asc, type Column, desc, eq, exists, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dispensings, doseEvents, messages, patients, products, regimens } from '@/db/schema';
import {
  computeDoseAdherence,
  computePdc,
  computeSlidingWindowCma,
  computeTreatmentEpisodes,
  DEFAULT_EPISODE_SETTINGS,
  type DoseAdherence,
  POOLED_CARRY_OVER,
  runGapModel,
} from '@/engine/adherence';
import { AppError } from '@/lib/errors';
import type { SessionUser } from '@/lib/server/session';
import {
  dayFormatter,
  dayFromInstant,
  drugOf,
  findReportingPeriod,
  isoDay,
  medicationEventsFrom,
  PERIOD_DAYS,
  PERMISSIBLE_GAP_DAYS,
} from './adherence-period';
import { findCohortScope } from './find-cohort-scope';

export type DayStatus = 'taken' | 'missed' | 'skipped' | 'none';
export type CalendarDay = { date: string; status: DayStatus; takenDoses: number; scheduledDoses: number };
export type PatientChoice = { id: string; pseudonym: string; synthetic: boolean };
export type ProfileAccess = 'self' | 'organisation' | 'example';

export type PatientProfileDetails = {
  patient: { id: string; pseudonym: string; persona: string | null; synthetic: boolean; conditions: string[] };
  period: { start: string; end: string; days: number };
  regimens: {
    medication: string;
    genericName: string | null;
    dosesPerDay: number;
    doseTimes: string[];
    startDate: string;
    endDate: string | null;
    /** What the prescription intends per fill and how many refills it allows (null when not stated). */
    daysPerFill: number | null;
    quantityPerFill: number | null;
    repeatsAllowed: number | null;
  }[];
  /** null without a fill before the period's end. */
  pdc: { value: number; coveredDays: number; periodDays: number; start: string; end: string } | null;
  doseAdherence: DoseAdherence;
  calendar: CalendarDay[];
  /** CMA7 and CMA9 in 90-day windows every 30 days over the period. */
  cmaWindows: { start: string; end: string; cma7: number | null; cma9: number | null }[];
  refillGaps: { medication: string; from: string; to: string; days: number }[];
  episodes: { episode: number; start: string; end: string; days: number; ongoing: boolean }[];
  messages: { sentAt: string; channel: string; direction: string; category: string | null; status: string; history: { status: string; at: string }[] }[];
  messageStatusCounts: { status: string; count: number }[];
};

export type PatientProfile =
  | { status: 'no-linked-record' }
  | { status: 'no-organisation' }
  | { status: 'no-company' }
  | { status: 'no-patients' }
  | { status: 'not-permitted'; choices: PatientChoice[] }
  | { status: 'no-example' }
  | ({ status: 'ok'; access: ProfileAccess; choices: PatientChoice[] } & PatientProfileDetails);

const CHOICE_LIMIT = 500;
const MESSAGE_LIMIT = 30;
const SLIDING_WINDOW = { start: 0, duration: 90, step: 30 };
const ON_TIME_MINUTES = 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One patient's adherence: a patient sees their own record, a clinician a patient of their organisations
 * (chosen by `patientId`, else the first), every other role one de-identified synthetic example. A drug
 * manufacturer's example is a patient dispensed their companies' products, shown with those products only
 * (regimens, dispensings and doses of other companies' products are left out).
 */
export async function getPatientProfile(options: { database: Database; actor: SessionUser | null; patientId?: string | null; now?: Date }): Promise<PatientProfile> {
  const { database, actor } = options;
  if (actor === null) throw new AppError('unauthenticated', 'No user logged in');

  let patientId: string;
  let access: ProfileAccess;
  let choices: PatientChoice[] = [];
  let productIds: string[] | null = null;
  if (actor.role === 'patient') {
    const [own] = await database.select({ id: patients.id }).from(patients).where(eq(patients.userId, actor.id));
    if (own === undefined) return { status: 'no-linked-record' };
    patientId = own.id;
    access = 'self';
  } else if (actor.role === 'clinician') {
    const scope = await findCohortScope({ database, actor });
    const organisationIds = scope.kind === 'organisation' ? scope.organisationIds : [];
    if (organisationIds.length === 0) return { status: 'no-organisation' };
    choices = await database
      .select({ id: patients.id, pseudonym: patients.pseudonym, synthetic: patients.synthetic })
      .from(patients)
      .where(inArray(patients.organisationId, organisationIds))
      .orderBy(asc(patients.pseudonym))
      .limit(CHOICE_LIMIT);
    if (choices.length === 0) return { status: 'no-patients' };
    const requested = options.patientId ?? null;
    if (requested === null || requested === '') {
      patientId = choices[0]!.id;
    } else {
      if (!UUID.test(requested)) return { status: 'not-permitted', choices };
      // Checked against the organisations, not the (limited) list of choices.
      const [permitted] = await database
        .select({ id: patients.id })
        .from(patients)
        .where(and(eq(patients.id, requested), inArray(patients.organisationId, organisationIds)));
      if (permitted === undefined) return { status: 'not-permitted', choices };
      patientId = permitted.id;
    }
    access = 'organisation';
  } else {
    if (actor.role === 'drug-manufacturer') {
      const scope = await findCohortScope({ database, actor });
      if (scope.kind === 'no-company') return { status: 'no-company' };
      productIds = scope.kind === 'companies' ? scope.productIds : [];
      if (productIds.length === 0) return { status: 'no-example' };
    }
    const fillInScope = productIds === null ? eq(dispensings.patientId, patients.id) : and(eq(dispensings.patientId, patients.id), inArray(dispensings.productId, productIds));
    // The same synthetic patient for everyone in the same scope: the first pseudonym among those with fills.
    const [example] = await database
      .select({ id: patients.id })
      .from(patients)
      .where(and(eq(patients.synthetic, true), exists(database.select({ one: sql`1` }).from(dispensings).where(fillInScope))))
      .orderBy(asc(patients.pseudonym))
      .limit(1);
    if (example === undefined) return { status: 'no-example' };
    patientId = example.id;
    access = 'example';
  }

  const details = await loadPatientDetails({ database, patientId, productIds, now: options.now ?? new Date() });
  return { status: 'ok', access, choices, ...details };
}

/** `productIds`: only these products' regimens, dispensings and doses (null: all of them). */
async function loadPatientDetails(options: { database: Database; patientId: string; productIds: string[] | null; now: Date }): Promise<PatientProfileDetails> {
  const { database, patientId, productIds } = options;
  const ofProducts = (column: Column) => (productIds === null ? undefined : inArray(column, productIds));
  const period = await findReportingPeriod({ database, now: options.now });
  const calendarStart = period.start;
  // A day either side: local days in the patient's time zone may start before or after UTC midnight.
  const fetchFrom = new Date((calendarStart - 1) * 86_400_000);
  const fetchTo = new Date((period.end + 1) * 86_400_000);

  const [[patient], regimenRows, fillRows, doseRows, messageRows, statusRows] = await Promise.all([
    database
      .select({ id: patients.id, pseudonym: patients.pseudonym, persona: patients.persona, synthetic: patients.synthetic, conditions: patients.conditions, timezone: patients.timezone })
      .from(patients)
      .where(eq(patients.id, patientId)),
    database
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
      .where(and(eq(regimens.patientId, patientId), ofProducts(regimens.productId)))
      .orderBy(asc(regimens.startDate)),
    database
      .select({ productId: dispensings.productId, medicationCode: dispensings.medicationCode, dispensedOn: dispensings.dispensedOn, daysSupply: dispensings.daysSupply, dosesPerDay: dispensings.dosesPerDay, productName: products.name })
      .from(dispensings)
      .leftJoin(products, eq(products.id, dispensings.productId))
      .where(and(eq(dispensings.patientId, patientId), ofProducts(dispensings.productId)))
      .orderBy(asc(dispensings.dispensedOn)),
    database
      .select({ scheduledAt: doseEvents.scheduledAt, confirmedAt: doseEvents.confirmedAt, status: doseEvents.status })
      .from(doseEvents)
      .where(and(eq(doseEvents.patientId, patientId), ofProducts(doseEvents.productId), gte(doseEvents.scheduledAt, fetchFrom), lt(doseEvents.scheduledAt, fetchTo))),
    database
      .select({ sentAt: messages.sentAt, channel: messages.channel, direction: messages.direction, category: messages.category, status: messages.status, statusHistory: messages.statusHistory })
      .from(messages)
      .where(and(eq(messages.patientId, patientId), gte(messages.sentAt, fetchFrom), lt(messages.sentAt, fetchTo)))
      .orderBy(desc(messages.sentAt))
      .limit(MESSAGE_LIMIT),
    database
      .select({ status: messages.status, count: sql<number>`count(*)::int` })
      .from(messages)
      .where(and(eq(messages.patientId, patientId), gte(messages.sentAt, fetchFrom), lt(messages.sentAt, fetchTo)))
      .groupBy(messages.status)
      .orderBy(messages.status),
  ]);
  if (patient === undefined) throw new AppError('not_found', 'This patient record no longer exists.');

  const medicationNames = new Map(fillRows.map((fill) => [drugOf(fill), fill.productName ?? fill.medicationCode ?? 'Unknown medication']));
  const events = medicationEventsFrom(fillRows, period.end);

  // PDC over the last 365 days, or from the first fill when treatment began inside them (PQA).
  let pdc: PatientProfileDetails['pdc'] = null;
  const firstDay = events[0]?.day;
  if (firstDay !== undefined) {
    const start = Math.max(period.start, firstDay);
    const result = computePdc({ fills: events.map((event) => ({ day: event.day, daysSupply: event.duration, drug: event.medicationClass })), periodStart: start, periodEnd: period.end });
    pdc = { value: result.pdc, coveredDays: result.coveredDays, periodDays: result.periodDays, start: isoDay(start), end: isoDay(period.end - 1) };
  }

  // CMA7 and CMA9 in sliding windows: follow-up from the first fill (so earlier supply carries in), observation = the period.
  let cmaWindows: PatientProfileDetails['cmaWindows'] = [];
  if (firstDay !== undefined) {
    const observationStart = Math.max(period.start, firstDay);
    const settings = {
      ...POOLED_CARRY_OVER,
      followUpStart: 0,
      followUpDuration: period.end - firstDay,
      observationStart: observationStart - firstDay,
      observationDuration: period.end - observationStart,
    };
    const cma7 = computeSlidingWindowCma('CMA7', events, settings, SLIDING_WINDOW);
    const cma9 = computeSlidingWindowCma('CMA9', events, settings, SLIDING_WINDOW);
    cmaWindows = cma7.map((window, index) => ({ start: isoDay(window.start), end: isoDay(window.end - 1), cma7: window.value, cma9: cma9[index]?.value ?? null }));
  }

  // Refill gaps per medication: days without supply before the next fill (carry-over of early refills counted).
  const refillGaps: PatientProfileDetails['refillGaps'] = [];
  for (const medication of new Set(events.map((event) => event.medicationClass))) {
    const own = events.filter((event) => event.medicationClass === medication);
    const model = runGapModel(own, 0, own.length, period.end, POOLED_CARRY_OVER);
    own.forEach((event, index) => {
      const gap = Math.round(model.gaps[index]!);
      const intervalEnd = event.day + model.intervals[index]!;
      if (gap > 0 && intervalEnd > period.start) {
        refillGaps.push({ medication: medicationNames.get(medication) ?? medication, from: isoDay(intervalEnd - gap), to: isoDay(intervalEnd - 1), days: gap });
      }
    });
  }
  refillGaps.sort((left, right) => left.from.localeCompare(right.from));

  const episodes = computeTreatmentEpisodes(events, { followUpEnd: period.end }, { ...DEFAULT_EPISODE_SETTINGS, maximumPermissibleGap: PERMISSIBLE_GAP_DAYS }).map((episode) => ({
    episode: episode.episode,
    start: isoDay(episode.start),
    end: isoDay(Math.ceil(episode.end) - 1),
    days: Math.round(episode.end - episode.start),
    ongoing: episode.end >= period.end,
  }));

  // Dose calendar in the patient's own time zone.
  const formatter = dayFormatter(patient.timezone);
  const byDay = new Map<number, { taken: number; missed: number; skipped: number; scheduled: number }>();
  const observedDoses: { scheduledMinute: number; confirmedMinute: number | null }[] = [];
  for (const dose of doseRows) {
    if (dose.status === 'unknown') continue; // not observed: no information about that dose
    const day = dayFromInstant(dose.scheduledAt, formatter);
    if (day < calendarStart || day >= period.end) continue;
    const tally = byDay.get(day) ?? { taken: 0, missed: 0, skipped: 0, scheduled: 0 };
    tally.scheduled += 1;
    tally[dose.status] += 1;
    byDay.set(day, tally);
    const scheduledMinute = Math.floor(dose.scheduledAt.getTime() / 60_000);
    observedDoses.push({ scheduledMinute, confirmedMinute: dose.status === 'taken' ? Math.floor((dose.confirmedAt ?? dose.scheduledAt).getTime() / 60_000) : null });
  }
  const calendar: CalendarDay[] = [];
  for (let day = calendarStart; day < period.end; day += 1) {
    const tally = byDay.get(day);
    const status: DayStatus = tally === undefined ? 'none' : tally.missed > 0 ? 'missed' : tally.skipped > 0 ? 'skipped' : 'taken';
    calendar.push({ date: isoDay(day), status, takenDoses: tally?.taken ?? 0, scheduledDoses: tally?.scheduled ?? 0 });
  }

  return {
    patient: { id: patient.id, pseudonym: patient.pseudonym, persona: patient.persona, synthetic: patient.synthetic, conditions: patient.conditions },
    period: { start: isoDay(period.start), end: isoDay(period.end - 1), days: PERIOD_DAYS },
    regimens: regimenRows.map((row) => ({
      medication: row.productName ?? row.medicationCode ?? 'Unknown medication',
      genericName: row.genericName,
      dosesPerDay: row.dosesPerDay,
      doseTimes: row.doseTimes,
      startDate: String(row.startDate),
      endDate: row.endDate === null ? null : String(row.endDate),
      daysPerFill: row.daysPerFill,
      quantityPerFill: row.quantityPerFill,
      repeatsAllowed: row.repeatsAllowed,
    })),
    pdc,
    doseAdherence: computeDoseAdherence(observedDoses, { onTimeWindowMinutes: ON_TIME_MINUTES }),
    calendar,
    cmaWindows,
    refillGaps,
    episodes,
    messages: messageRows.map((row) => ({ sentAt: row.sentAt.toISOString(), channel: row.channel, direction: row.direction, category: row.category, status: row.status, history: row.statusHistory })),
    messageStatusCounts: statusRows,
  };
}
