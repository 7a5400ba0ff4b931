import 'server-only';
import { and, asc, desc, eq, exists, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { type CohortScope, findCohortScope, scopeProductIds } from '@/db/queries/cohort-scope';
import {
  drugOf,
  loadPatientDispensings,
  loadPatientDoseEvents,
  loadPatientRegimens,
  medicationEventsFrom,
} from '@/db/queries/medication-events';
import { findReportingPeriod, type PeriodChoice, type PeriodView, periodView, type ReportingPeriod } from '@/db/queries/reporting-period';
import { dispensings, messages, patients } from '@/db/schema';
import type { DoseAdherence } from '@/engine/adherence/dose-adherence';
import { isoFromDayNumber as isoDay } from '@/engine/adherence/day-number';
import {
  type DayStatus,
  type ObservedDose,
  periodPdc,
  refillGaps,
  slidingCmaWindows,
  summariseDoses,
  treatmentEpisodes,
} from '@/engine/aggregation/patient-summary';
import { createLocalDayResolver, MS_PER_DAY } from '@/engine/time/local-day';
import { AppError } from '@/lib/errors';
import { compareDosesAndRefills, type DosesAndRefills } from '../doses-and-refills';
import { recordAuditEvent } from '@/lib/server/audit';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import type { MessagingProgramme } from '@/lib/domain/messaging-programmes';

export type { DayStatus };
export type CalendarDay = { date: string; status: DayStatus; takenDoses: number; scheduledDoses: number };
export type PatientChoice = { id: string; pseudonym: string; synthetic: boolean };
export type ProfileAccess = 'self' | 'organisation' | 'example';

export type PatientProfileDetails = {
  patient: {
    id: string;
    pseudonym: string;
    persona: string | null;
    synthetic: boolean;
    conditions: string[];
    /** The live messaging programme (null: not enrolled); shown to the care team and to the patient. */
    messagingProgramme: MessagingProgramme | null;
  };
  period: PeriodView;
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
  /** Dose confirmations against refill PDC over the same period, and a sentence saying whether they agree. */
  dosesAndRefills: DosesAndRefills;
  calendar: CalendarDay[];
  /** CMA7 and CMA9 in 90-day windows every 30 days over the period. */
  cmaWindows: { start: string; end: string; cma7: number | null; cma9: number | null }[];
  refillGaps: { medication: string; from: string; to: string; days: number }[];
  episodes: { episode: number; start: string; end: string; days: number; ongoing: boolean }[];
  messages: {
    sentAt: string;
    /** The text as sent (or received); null when the source recorded none. */
    body: string | null;
    channel: string;
    direction: string;
    category: string | null;
    status: string;
    history: { status: string; at: string }[];
  }[];
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
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One patient's adherence: a patient sees their own record, a clinician a patient of their organisations
 * (chosen by `patientId`, else the first), every other role one de-identified synthetic example. A drug
 * manufacturer's example is a patient dispensed their companies' products, shown with those products only
 * (regimens, dispensings and doses of other companies' products are left out).
 */
export async function getPatientProfile(options: {
  database: Database;
  actor: SessionUser | null;
  patientId?: string | null;
  /** The reporting period chosen (default: the 12 months up to the viewer's data's last day). */
  choice?: PeriodChoice;
  now?: Date;
  /** The request's id and client address, for the audit row of a refusal. */
  request?: Partial<RequestContext>;
}): Promise<PatientProfile> {
  const { database, actor } = options;
  if (actor === null) throw new AppError('unauthenticated', 'No user logged in');
  const requested = options.patientId ?? null;
  // A request naming a patient the viewer may not see is audited; what they are shown instead is unchanged.
  const refuse = async (): Promise<void> => {
    await recordAuditEvent(database, {
      action: 'patient-profile.view',
      outcome: 'denied',
      actorUserId: actor.id,
      ...options.request,
      details: { role: actor.role, requestedPatient: requestedPatientForAudit(requested) },
    });
  };

  let patientId: string;
  let access: ProfileAccess;
  let choices: PatientChoice[] = [];
  let productIds: string[] | null = null;
  // The viewer's scope sets the period's as-of date, as on every other page for this viewer.
  let scope: CohortScope = { kind: 'all' };
  if (actor.role === 'patient') {
    const [own] = await database.select({ id: patients.id }).from(patients).where(eq(patients.userId, actor.id));
    if (own === undefined) return { status: 'no-linked-record' };
    if (requested !== null && requested !== '' && requested !== own.id) await refuse();
    patientId = own.id;
    access = 'self';
  } else if (actor.role === 'clinician') {
    scope = await findCohortScope({ database, actor });
    const organisationIds = scope.kind === 'organisation' ? scope.organisationIds : [];
    if (organisationIds.length === 0) return { status: 'no-organisation' };
    choices = await database
      .select({ id: patients.id, pseudonym: patients.pseudonym, synthetic: patients.synthetic })
      .from(patients)
      .where(inArray(patients.organisationId, organisationIds))
      .orderBy(asc(patients.pseudonym))
      .limit(CHOICE_LIMIT);
    if (choices.length === 0) return { status: 'no-patients' };
    if (requested === null || requested === '') {
      patientId = choices[0]!.id;
    } else {
      if (!UUID.test(requested)) {
        await refuse();
        return { status: 'not-permitted', choices };
      }
      // Checked against the organisations, not the (limited) list of choices.
      const [permitted] = await database
        .select({ id: patients.id })
        .from(patients)
        .where(and(eq(patients.id, requested), inArray(patients.organisationId, organisationIds)));
      if (permitted === undefined) {
        await refuse();
        return { status: 'not-permitted', choices };
      }
      patientId = permitted.id;
    }
    access = 'organisation';
  } else {
    if (actor.role === 'drug-manufacturer') {
      scope = await findCohortScope({ database, actor });
      if (scope.kind === 'no-company') return { status: 'no-company' };
      productIds = scopeProductIds(scope) ?? [];
      if (productIds.length === 0) return { status: 'no-example' };
    }
    const fillInScope =
      productIds === null
        ? eq(dispensings.patientId, patients.id)
        : and(eq(dispensings.patientId, patients.id), inArray(dispensings.productId, productIds));
    // The same synthetic patient for everyone in the same scope: the first pseudonym among those with fills.
    const [example] = await database
      .select({ id: patients.id })
      .from(patients)
      .where(
        and(
          eq(patients.synthetic, true),
          exists(
            database
              .select({ one: sql`1` })
              .from(dispensings)
              .where(fillInScope),
          ),
        ),
      )
      .orderBy(asc(patients.pseudonym))
      .limit(1);
    if (example === undefined) return { status: 'no-example' };
    if (requested !== null && requested !== '' && requested !== example.id) await refuse();
    patientId = example.id;
    access = 'example';
  }

  const period = await findReportingPeriod({ database, scope, choice: options.choice, now: options.now ?? new Date() });
  const details = await loadPatientDetails({ database, patientId, productIds, period });
  return { status: 'ok', access, choices, ...details };
}

/**
 * What a refusal's audit row says about the patient asked for: the record id (a random UUID, not the
 * pseudonym, name or any other attribute), so an investigator can tell a probe of a real record from noise;
 * anything else the client sent is not stored, only that it was malformed.
 */
function requestedPatientForAudit(requested: string | null): string {
  return requested !== null && UUID.test(requested) ? requested.toLowerCase() : 'malformed';
}

/** `productIds`: only these products' regimens, dispensings and doses (null: all of them). */
async function loadPatientDetails(options: {
  database: Database;
  patientId: string;
  productIds: string[] | null;
  period: ReportingPeriod;
}): Promise<PatientProfileDetails> {
  const { database, patientId, productIds, period } = options;
  // A day either side: local days in the patient's time zone may start before or after UTC midnight.
  const fetchFrom = new Date((period.start - 1) * MS_PER_DAY);
  const fetchTo = new Date((period.end + 1) * MS_PER_DAY);

  const [[patient], regimenRows, fillRows, doseRows, messageRows, statusRows] = await Promise.all([
    database
      .select({
        id: patients.id,
        pseudonym: patients.pseudonym,
        persona: patients.persona,
        synthetic: patients.synthetic,
        conditions: patients.conditions,
        timezone: patients.timezone,
        messagingProgramme: patients.messagingProgramme,
      })
      .from(patients)
      .where(eq(patients.id, patientId)),
    loadPatientRegimens({ database, patientId, productIds }),
    loadPatientDispensings({ database, patientId, productIds }),
    loadPatientDoseEvents({ database, patientId, productIds, from: fetchFrom, to: fetchTo }),
    database
      .select({
        sentAt: messages.sentAt,
        body: messages.body,
        channel: messages.channel,
        direction: messages.direction,
        category: messages.category,
        status: messages.status,
        statusHistory: messages.statusHistory,
      })
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
  const pdc = periodPdc(events, period);

  // Dose calendar in the patient's own time zone; unknown doses are not observed and say nothing.
  const localDay = createLocalDayResolver();
  const observed: ObservedDose[] = [];
  for (const dose of doseRows) {
    if (dose.status === 'unknown') continue;
    observed.push({
      day: localDay(dose.scheduledAt, patient.timezone),
      status: dose.status,
      scheduledMinute: Math.floor(dose.scheduledAt.getTime() / 60_000),
      confirmedMinute: Math.floor((dose.confirmedAt ?? dose.scheduledAt).getTime() / 60_000),
    });
  }
  const doses = summariseDoses(observed, period);

  return {
    patient: {
      id: patient.id,
      pseudonym: patient.pseudonym,
      persona: patient.persona,
      synthetic: patient.synthetic,
      conditions: patient.conditions,
      messagingProgramme: patient.messagingProgramme,
    },
    period: periodView(period),
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
    pdc:
      pdc === null
        ? null
        : {
            value: pdc.value,
            coveredDays: pdc.coveredDays,
            periodDays: pdc.periodDays,
            start: isoDay(pdc.start),
            end: isoDay(pdc.end - 1),
          },
    doseAdherence: doses.adherence,
    dosesAndRefills: compareDosesAndRefills(doses.adherence, pdc?.value ?? null),
    calendar: doses.calendar.map((entry) => ({
      date: isoDay(entry.day),
      status: entry.status,
      takenDoses: entry.takenDoses,
      scheduledDoses: entry.scheduledDoses,
    })),
    cmaWindows: slidingCmaWindows(events, period).map((window) => ({
      start: isoDay(window.start),
      end: isoDay(window.end - 1),
      cma7: window.cma7,
      cma9: window.cma9,
    })),
    refillGaps: refillGaps(events, period).map((gap) => ({
      medication: medicationNames.get(gap.medicationClass) ?? gap.medicationClass,
      from: isoDay(gap.start),
      to: isoDay(gap.end - 1),
      days: gap.days,
    })),
    episodes: treatmentEpisodes(events, period).map((episode) => ({
      episode: episode.episode,
      start: isoDay(episode.start),
      end: isoDay(episode.end - 1),
      days: episode.days,
      ongoing: episode.ongoing,
    })),
    messages: messageRows.map((row) => ({
      sentAt: row.sentAt.toISOString(),
      body: row.body,
      channel: row.channel,
      direction: row.direction,
      category: row.category,
      status: row.status,
      history: row.statusHistory,
    })),
    messageStatusCounts: statusRows,
  };
}
