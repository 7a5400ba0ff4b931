/**
 * The demo dataset (issue item 6): the demo catalogue (4 companies, their products), a year of history for
 * about 2,000 simulated patients (regimens, dispensings, observed dose events, messages) and trial cohort A
 * (issue 14 item 7): everyone screened on the day after the history, 400 enrolled and randomised, and their
 * 12 weeks simulated under their arms' policies, so the trial's result comes from records. Everything
 * carries source 'simulation' and the patients `synthetic = true`: pages label it "synthetic demo data".
 *
 * Loaded only while the database holds no synthetic patients, in one transaction (all or nothing, so an
 * interrupted first start leaves no half dataset behind), with `on conflict do nothing` throughout, so
 * loading the same dataset again changes nothing.
 */
import 'server-only';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import {
  dataSources,
  dispensings,
  doseEvents,
  drugCompanies,
  messages,
  patients,
  products,
  regimens,
  trialEnrolments,
  trialScreenings,
  trials,
} from '@/db/schema';
import { dayNumberFromCivil, isoFromDayNumber, isValidCivil } from '@/engine/adherence/day-number';
import { type ConsentImportEntry, importConsents } from '@/features/consent';
import { seedSurveyResponses } from '@/features/surveys';
import { prepareMessageSummaries } from './prepare-message-summaries';
import { demoCompanies, demoProducts } from '@/engine/simulation/demo-catalogue';
import { messageChannels } from '@/engine/policy/message-arms';
import type { SimulatedPatient } from '@/engine/simulation/records';
import {
  defaultAllocation,
  defaultAnalysisPlan,
  defaultArms,
  defaultObjective,
  defaultPrimaryEndpoint,
  defaultSecondaryEndpoints,
  eligibilityCriteria,
  trialFollowUpWeeks,
} from '@/features/trials';
import { formatCount } from '@/lib/format';
import { demoProgrammeOf, type DemoProgramme } from './demo-programme-policy';
import { demoTrialBlockSizes } from './demo-trial-allocation';
import { type DemoCohort, type DemoTrial, simulateDemoCohort } from './simulate-demo-cohort';
import { type DatabaseExecutor, demoSource, syntheticUuid, writeDispensings, writeDoseEvents, writeMessages } from './write-demo-records';

export const demoDatasetDefaults = {
  patientCount: 2000,
  trialSize: 400,
  seed: 1,
  /** A calendar year of history; the trial starts the day after it. */
  historyStart: '2025-01-01',
  days: 365,
  /** Rows per insert statement. */
  batchSize: 5000,
} as const;

/** PostgreSQL advisory lock held around loading, so instances starting together (or a seed command) take turns. */
export const demoDatasetLockId = 7_263_003;

export const trialCohortA = { id: 'cohort-a', name: '12-Week Trial — Cohort A', weeks: trialFollowUpWeeks } as const;

export type DemoDatasetCounts = {
  companies: number;
  products: number;
  patients: number;
  regimens: number;
  dispensings: number;
  doseEvents: number;
  messages: number;
  trialScreenings: number;
  trialEnrolments: number;
  /** Synthetic survey responses (simulated patients answering from their persona with noise, lifestyle from one population; decisions 041, 067). */
  surveyResponses: number;
};

export type SeedDemoDatasetResult =
  | { seeded: false; syntheticPatients: number }
  | {
      seeded: true;
      /** Rows this run inserted (0 for rows that were there already). */
      inserted: DemoDatasetCounts;
      arms: { control: number; intervention: number };
      /**
       * Mean dose-level adherence of each arm's participants over the trial's weeks, as the simulator counted
       * it (null for an empty arm): a check on what the trial page computes from the records.
       */
      trialAdherence: { control: number | null; intervention: number | null };
      /** Patients by messaging programme during their history. */
      programmes: Record<DemoProgramme, number>;
      milliseconds: number;
    };

export type SeedDemoDatasetOptions = {
  database: Database;
  patientCount?: number;
  trialSize?: number;
  seed?: number;
  /** First day of history, YYYY-MM-DD. */
  historyStart?: string;
  /** Load even if synthetic patients exist (records already there stay as they are). */
  force?: boolean;
  /**
   * Summarise the year for the message pages after loading (default true). The server passes false: it links the
   * demo accounts next, which moves patients into the demo clinic and would make the summaries stale again, and
   * linking summarises once itself.
   */
  prepareSummaries?: boolean;
};

function parseHistoryStart(value: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const [year, month, day] = match === null ? [NaN, NaN, NaN] : [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!isValidCivil(year, month, day)) throw new RangeError(`historyStart must be a date as YYYY-MM-DD, got "${value}"`);
  return dayNumberFromCivil(year, month, day);
}

async function countSyntheticPatients(database: DatabaseExecutor): Promise<number> {
  const [row] = await database
    .select({ count: sql<number>`count(*)::int` })
    .from(patients)
    .where(sql`${patients.synthetic}`);
  return row?.count ?? 0;
}

function minutesAsTime(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/**
 * The consent ledger's opt-ins for a patient (reminders on each channel they consented to, from the
 * start of the history); a channel a STOP reply withdrew gets none, as no time of the STOP is kept.
 */
function consentEntriesOf(
  patient: SimulatedPatient,
  optedOut: ReadonlySet<string> | undefined,
  patientId: string,
  effectiveAt: Date,
): ConsentImportEntry[] {
  return messageChannels
    .filter((channel) => patient.consent[channel] && !(optedOut?.has(channel) ?? false))
    .map((channel) => ({ patientId, channel, purpose: 'reminders', granted: true, effectiveAt }));
}

async function writeCatalogue(database: DatabaseExecutor): Promise<{ companies: number; products: number }> {
  const companies = await database
    .insert(drugCompanies)
    .values(demoCompanies.map(({ id, name }) => ({ id, name })))
    .onConflictDoNothing()
    .returning({ id: drugCompanies.id });
  const productRows = await database
    .insert(products)
    .values(
      demoProducts.map((product) => ({
        id: product.id,
        companyId: product.companyId,
        name: product.name,
        genericName: product.genericName,
        atcCode: product.atcCode,
        strength: product.strength,
        form: product.form,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: products.id });
  await database
    .insert(dataSources)
    .values({
      id: demoSource,
      kind: 'simulation',
      name: 'Cohort simulator (synthetic demo data)',
      status: 'active',
      lastActivityAt: new Date(),
    })
    .onConflictDoNothing();
  return { companies: companies.length, products: productRows.length };
}

async function writePatients(database: DatabaseExecutor, cohort: DemoCohort, historyStartDay: number, batchSize: number): Promise<number> {
  let inserted = 0;
  const consentFrom = new Date(`${isoFromDayNumber(historyStartDay)}T00:00:00Z`);
  for (let start = 0; start < cohort.patients.length; start += batchSize) {
    const rows = cohort.patients.slice(start, start + batchSize).map((patient) => ({
      id: syntheticUuid('patients', patient.id),
      pseudonym: patient.id,
      source: demoSource,
      sourceRecordId: patient.id,
      persona: patient.persona,
      ageBand: patient.ageBand,
      sex: patient.sex,
      region: patient.region,
      language: patient.language,
      timezone: patient.timezone,
      preferredChannel: patient.preferredChannel,
      conditions: [...patient.conditions],
      synthetic: true,
    }));
    const insertedIds = new Set(
      (await database.insert(patients).values(rows).onConflictDoNothing().returning({ id: patients.id })).map((row) => row.id),
    );
    inserted += insertedIds.size;
    // Consent only for the patients just created: one already there has its ledger.
    const entries = cohort.patients
      .slice(start, start + batchSize)
      .flatMap((patient, offset) => consentEntriesOf(patient, cohort.optedOutChannels.get(start + offset), rows[offset]!.id, consentFrom))
      .filter((entry) => insertedIds.has(entry.patientId));
    await importConsents({ database, entries, source: 'demo-seed' });
  }
  return inserted;
}

async function writeRegimens(database: DatabaseExecutor, cohort: DemoCohort, historyStartDay: number, batchSize: number): Promise<number> {
  // A regimen starts with the first fill of the product (for patients already on it, before the history).
  const firstFill = new Map<string, number>();
  // The prescription's supply per fill is what the pharmacy hands out each time (30 or 90 days).
  const supplyPerFill = new Map<string, { days: number; quantity: number }>();
  cohort.dispensings.patient.forEach((patient, row) => {
    const key = `${patient}/${cohort.dispensings.product[row]}`;
    firstFill.set(key, Math.min(firstFill.get(key) ?? Infinity, cohort.dispensings.day[row]!));
    if (!supplyPerFill.has(key))
      supplyPerFill.set(key, { days: cohort.dispensings.daysSupply[row]!, quantity: cohort.dispensings.quantity[row]! });
  });
  const rows = cohort.patients.flatMap((patient, patientIndex) =>
    patient.productIds.map((productId) => {
      const productIndex = demoProducts.findIndex((product) => product.id === productId);
      const product = demoProducts[productIndex]!;
      const recordId = `${patient.id}-${productId}`;
      return {
        id: syntheticUuid('regimens', recordId),
        patientId: syntheticUuid('patients', patient.id),
        productId,
        dosesPerDay: product.doseOccasions.length,
        // Usual weekday times (index 1 = Monday); weekends may differ, as the dose events show.
        doseTimes: product.doseOccasions.map((occasion) => minutesAsTime(patient.routine[occasion][1] ?? 0)),
        startDate: isoFromDayNumber(firstFill.get(`${patientIndex}/${productIndex}`) ?? historyStartDay),
        daysPerFill: supplyPerFill.get(`${patientIndex}/${productIndex}`)?.days ?? null,
        quantityPerFill: supplyPerFill.get(`${patientIndex}/${productIndex}`)?.quantity ?? null,
        source: demoSource,
        sourceRecordId: recordId,
      };
    }),
  );
  let inserted = 0;
  for (let start = 0; start < rows.length; start += batchSize) {
    inserted += (
      await database
        .insert(regimens)
        .values(rows.slice(start, start + batchSize))
        .onConflictDoNothing()
        .returning({ id: regimens.id })
    ).length;
  }
  return inserted;
}

/**
 * Foreign-key checks run as a trigger per inserted row and are about a third of the load time on the
 * embedded database. Where the session may (a superuser: PGlite always is), they are switched off for this
 * transaction only (`set local`), and the references are checked once, set-based, before it commits —
 * what pg_restore --disable-triggers does. Returns whether they were switched off.
 */
async function deferReferenceChecks(database: DatabaseExecutor): Promise<boolean> {
  const [row] = await database.select({ superuser: sql<boolean>`current_setting('is_superuser') = 'on'` }).from(sql`(select 1) as session`);
  if (row?.superuser !== true) return false;
  await database.execute(sql`set local session_replication_role = replica`);
  return true;
}

async function assertReferencesHold(database: DatabaseExecutor): Promise<void> {
  const orphans = (table: typeof dispensings | typeof doseEvents | typeof regimens) =>
    sql`(select count(*) from ${table} where ${table.source} = ${demoSource} and (
      not exists (select 1 from ${patients} where ${patients.id} = ${table.patientId})
      or (${table.productId} is not null and not exists (select 1 from ${products} where ${products.id} = ${table.productId}))))`;
  const [row] = await database
    .select({
      count: sql<number>`(${orphans(dispensings)} + ${orphans(doseEvents)} + ${orphans(regimens)} +
        (select count(*) from ${messages} where ${messages.source} = ${demoSource} and not exists (select 1 from ${patients} where ${patients.id} = ${messages.patientId})) +
        (select count(*) from ${trialEnrolments} where not exists (select 1 from ${patients} where ${patients.id} = ${trialEnrolments.patientId})) +
        (select count(*) from ${trialScreenings} where not exists (select 1 from ${patients} where ${patients.id} = ${trialScreenings.patientId})))::int`,
    })
    .from(sql`(select 1) as session`);
  if ((row?.count ?? 0) > 0)
    throw new Error(`The demo dataset would leave ${row?.count} records pointing at missing patients or products; nothing was loaded.`);
}

/** When the demo's consents to take part are recorded: the trial's start date, in the morning (a convention). */
const consentHourUtc = 9;

/**
 * Trial cohort A as run by the simulator (demo-trial-allocation.ts, demo-trial-policy.ts): the trial row
 * with its frozen analysis plan and concealed allocation parameters, a screening for every synthetic
 * patient, and the enrolments with their places in the live allocation sequences. An exit is recorded only
 * where the simulation produced one: a participant who replied STOP during the trial stopped receiving
 * their arm's messages (discontinued, still followed up).
 */
async function writeTrial(options: {
  database: DatabaseExecutor;
  cohort: DemoCohort;
  trial: DemoTrial;
  trialSize: number;
  seed: number;
  batchSize: number;
}): Promise<{ screened: number; enrolled: number; control: number; intervention: number }> {
  const { database, cohort, trial } = options;
  const startDate = isoFromDayNumber(trial.startDay);
  await database
    .insert(trials)
    .values({
      id: trialCohortA.id,
      name: trialCohortA.name,
      startDate,
      weeks: trialCohortA.weeks,
      protocol: demoTrialProtocol({ patientCount: cohort.patients.length, trialSize: options.trialSize, startDate }),
      analysisPlan: defaultAnalysisPlan,
      analysisPlanSha256: createHash('sha256').update(defaultAnalysisPlan, 'utf8').digest('hex'),
      targetEnrolment: options.trialSize > 0 ? options.trialSize : null,
      recruitmentClosedOn: startDate,
      // The column is a signed 32-bit integer; the sequence mixes the seed in as one (allocation-sequence.ts),
      // so the same bits give the same sequences.
      randomisationSeed: options.seed | 0,
      blockSizes: [...demoTrialBlockSizes],
      synthetic: true,
    })
    .onConflictDoNothing();

  let screened = 0;
  for (let start = 0; start < trial.screenings.length; start += options.batchSize) {
    const rows = trial.screenings.slice(start, start + options.batchSize).map((screening) => ({
      trialId: trialCohortA.id,
      patientId: syntheticUuid('patients', cohort.patients[screening.patient]!.id),
      assessedOn: startDate,
      outcome: screening.outcome,
      exclusionReason: screening.exclusionReason,
      exclusionDetail: screening.exclusionDetail,
      eligibility: screening.eligibility as Record<string, boolean>,
    }));
    screened += (
      await database.insert(trialScreenings).values(rows).onConflictDoNothing().returning({ patientId: trialScreenings.patientId })
    ).length;
  }

  let enrolled = 0;
  const consentRecordedAt = new Date(`${startDate}T${String(consentHourUtc).padStart(2, '0')}:00:00Z`);
  if (trial.enrolments.length > 0) {
    const rows = trial.enrolments.map((enrolment) => {
      const patient = cohort.patients[enrolment.patient]!;
      const stopDay = trial.stopReplyDay.get(enrolment.patient);
      return {
        trialId: trialCohortA.id,
        patientId: syntheticUuid('patients', patient.id),
        arm: enrolment.arm,
        stratum: enrolment.stratum,
        block: enrolment.block,
        stratumPosition: enrolment.stratumPosition,
        enrolledOn: startDate,
        consentRecordedAt,
        previousProgramme: demoProgrammeOf(patient.id),
        receivedAllocation: true,
        discontinuedOn: stopDay === undefined ? null : isoFromDayNumber(stopDay),
        discontinuedReason: stopDay === undefined ? null : 'replied STOP',
      };
    });
    enrolled = (
      await database.insert(trialEnrolments).values(rows).onConflictDoNothing().returning({ patientId: trialEnrolments.patientId })
    ).length;
  }
  const control = trial.enrolments.filter((enrolment) => enrolment.arm === 'control').length;
  return { screened, enrolled, control, intervention: trial.enrolments.length - control };
}

/** The protocol facts shown on the trial page (protocol.ts reads the texts; no seed or block size here). */
function demoTrialProtocol(options: { patientCount: number; trialSize: number; startDate: string }): Record<string, unknown> {
  return {
    dataset: 'synthetic demo data',
    design: 'Two-arm, parallel-group, individually randomised controlled trial (synthetic demo data)',
    objective: `${defaultObjective} Synthetic demo data: the simulated cohort's 12 weeks after its year of history.`,
    population:
      `Synthetic demo data: the ${formatCount(options.patientCount)} simulated patients of the demo dataset, all assessed on ${options.startDate}, ` +
      `the day after their year of history; the eligible were taken in a random order until ${formatCount(options.trialSize)} were enrolled.`,
    arms: {
      control: {
        label: defaultArms.control.label,
        description:
          'The standard programme: the patient’s messaging programme is left as it was (in the demo: no messages, the daily reminder or the weekly check-in).',
      },
      intervention: {
        label: defaultArms.intervention.label,
        description:
          'Personalised messages chosen by the learning policy, starting from its prior and updated at the end of each day from the intervention arm’s days.',
      },
    },
    eligibility: eligibilityCriteria.map(({ id, text, checkedBy }) => ({ id, text, checkedBy })),
    primaryEndpoint: defaultPrimaryEndpoint,
    secondaryEndpoints: [...defaultSecondaryEndpoints],
    allocation: defaultAllocation,
    targetEnrolment: options.trialSize,
    weeks: trialCohortA.weeks,
  };
}

/** Mean over participants of each arm's dose-level adherence over the trial's weeks (the simulator's count, a check on the records). */
function meanAdherenceByArm(trial: DemoTrial): Record<'control' | 'intervention', number | null> {
  const totals = { control: { sum: 0, count: 0 }, intervention: { sum: 0, count: 0 } };
  for (const enrolment of trial.enrolments) {
    const doses = trial.doses.get(enrolment.patient);
    if (doses === undefined) continue;
    totals[enrolment.arm].sum += doses.scheduled === 0 ? 0 : doses.confirmed / doses.scheduled;
    totals[enrolment.arm].count += 1;
  }
  const mean = ({ sum, count }: { sum: number; count: number }) => (count === 0 ? null : sum / count);
  return { control: mean(totals.control), intervention: mean(totals.intervention) };
}

export async function seedDemoDataset(options: SeedDemoDatasetOptions): Promise<SeedDemoDatasetResult> {
  const startedAt = performance.now();
  const patientCount = options.patientCount ?? demoDatasetDefaults.patientCount;
  const trialSize = options.trialSize ?? demoDatasetDefaults.trialSize;
  const seed = options.seed ?? demoDatasetDefaults.seed;
  const historyStartDay = parseHistoryStart(options.historyStart ?? demoDatasetDefaults.historyStart);
  const { days, batchSize } = demoDatasetDefaults;
  if (!Number.isInteger(trialSize) || trialSize < 0) throw new RangeError(`trialSize must be a whole number, got ${trialSize}`);

  if (options.force !== true) {
    const existing = await countSyntheticPatients(options.database);
    if (existing > 0) return { seeded: false, syntheticPatients: existing };
  }

  const cohort = simulateDemoCohort({
    patientCount,
    days,
    seed,
    startDay: historyStartDay,
    trial: { days: 7 * trialCohortA.weeks, size: trialSize },
  });
  const trial = cohort.trial;
  if (trial === null) throw new Error('The demo cohort ran without its trial');
  const result = await options.database.transaction(async (transaction) => {
    // Checked again inside the transaction: another instance may have loaded it meanwhile.
    if (options.force !== true) {
      const existing = await countSyntheticPatients(transaction);
      if (existing > 0) return null;
    }
    const referencesDeferred = await deferReferenceChecks(transaction);
    const catalogue = await writeCatalogue(transaction);
    const patientRows = await writePatients(transaction, cohort, historyStartDay, batchSize);
    const regimenRows = await writeRegimens(transaction, cohort, historyStartDay, batchSize);
    const dispensingRows = await writeDispensings({ database: transaction, cohort, batchSize });
    const doseEventRows = await writeDoseEvents({ database: transaction, cohort, batchSize });
    const messageRows = await writeMessages({ database: transaction, cohort, batchSize });
    const trialRows = await writeTrial({ database: transaction, cohort, trial, trialSize, seed, batchSize });
    // Answered over the last 90 days of the history (so the lifestyle-surveys page has a cohort to compare with).
    const surveyResponseRows = await seedSurveyResponses({
      database: transaction,
      respondents: cohort.patients.map((patient) => ({
        patientId: syntheticUuid('patients', patient.id),
        persona: patient.persona,
        sex: patient.sex,
        preferredChannel: patient.preferredChannel,
      })),
      seed,
      end: new Date(`${isoFromDayNumber(historyStartDay + days - 1)}T18:00:00Z`),
      days: 90,
    });
    if (referencesDeferred) await assertReferencesHold(transaction);
    return {
      inserted: {
        ...catalogue,
        patients: patientRows,
        regimens: regimenRows,
        dispensings: dispensingRows,
        doseEvents: doseEventRows,
        messages: messageRows,
        trialScreenings: trialRows.screened,
        trialEnrolments: trialRows.enrolled,
        surveyResponses: surveyResponseRows,
      },
      arms: { control: trialRows.control, intervention: trialRows.intervention },
    };
  });
  if (result === null) return { seeded: false, syntheticPatients: await countSyntheticPatients(options.database) };
  // Planner statistics for the tables just filled: PGlite has no autovacuum to gather them, and without them
  // the pages' aggregate queries over messages and dose events chose plans up to 100× slower (decision 035).
  await options.database.execute(sql`analyze patients, regimens, dispensings, dose_events, messages, policy_decisions`);
  // The message pages' summaries and facts of the whole year, computed now rather than by the first visitor.
  if (options.prepareSummaries ?? true) await prepareMessageSummaries({ database: options.database });
  const programmes: Record<DemoProgramme, number> = { 'fixed-daily': 0, 'fixed-weekly': 0, none: 0 };
  for (const patient of cohort.patients) programmes[demoProgrammeOf(patient.id)] += 1;
  return {
    seeded: true,
    ...result,
    programmes,
    trialAdherence: meanAdherenceByArm(trial),
    milliseconds: Math.round(performance.now() - startedAt),
  };
}
