/**
 * The demo dataset (issue item 6): the demo catalogue (4 companies, their products), a year of history for
 * about 2,000 simulated patients (regimens, dispensings, observed dose events, messages) and the enrolled,
 * randomised members of trial cohort A. Everything carries source 'simulation' and the patients
 * `synthetic = true`: pages label it "synthetic demo data".
 *
 * Loaded only while the database holds no synthetic patients, in one transaction (all or nothing, so an
 * interrupted first start leaves no half dataset behind), with `on conflict do nothing` throughout, so
 * loading the same dataset again changes nothing.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
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
  trials,
} from '@/db/schema';
import { dayNumberFromCivil, isoFromDayNumber, isValidCivil } from '@/engine/adherence/day-number';
import { type ConsentImportEntry, importConsents } from '@/features/consent';
import { demoCompanies, demoProducts } from '@/engine/simulation/demo-catalogue';
import { messageChannels } from '@/engine/policy/message-arms';
import { personas } from '@/engine/simulation/personas';
import type { SimulatedPatient } from '@/engine/simulation/records';
import { allocatePermutedBlocks } from '@/engine/trial/permuted-blocks';
import { demoProgrammeOf, type DemoProgramme } from './demo-programme-policy';
import { type DemoCohort, simulateDemoCohort } from './simulate-demo-cohort';
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

export const trialCohortA = { id: 'cohort-a', name: '12-Week Trial — Cohort A', weeks: 12, blockSize: 4 } as const;

/** Eligible for the trial: still supplied within the last 30 days of history (on treatment at enrolment). */
const onTreatmentWindowDays = 30;

export type DemoDatasetCounts = {
  companies: number;
  products: number;
  patients: number;
  regimens: number;
  dispensings: number;
  doseEvents: number;
  messages: number;
  trialEnrolments: number;
};

export type SeedDemoDatasetResult =
  | { seeded: false; syntheticPatients: number }
  | {
      seeded: true;
      /** Rows this run inserted (0 for rows that were there already). */
      inserted: DemoDatasetCounts;
      arms: { control: number; intervention: number };
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
        (select count(*) from ${trialEnrolments} where not exists (select 1 from ${patients} where ${patients.id} = ${trialEnrolments.patientId})))::int`,
    })
    .from(sql`(select 1) as session`);
  if ((row?.count ?? 0) > 0)
    throw new Error(`The demo dataset would leave ${row?.count} records pointing at missing patients or products; nothing was loaded.`);
}

/**
 * Trial cohort A: eligible patients in a seeded random order, the first `trialSize` enrolled on the trial's
 * start date (the day after the history), randomised 1:1 in permuted blocks of 4 within persona strata.
 * The trial's 12 weeks are for the trial feature to run; this only enrols and randomises.
 */
async function writeTrial(options: {
  database: DatabaseExecutor;
  cohort: DemoCohort;
  trialSize: number;
  seed: number;
  trialStartDay: number;
}): Promise<{ enrolled: number; control: number; intervention: number }> {
  const { cohort, trialStartDay } = options;
  const eligible = cohort.patients
    .map((patient, index) => ({ patient, index }))
    .filter(
      ({ patient, index }) =>
        (cohort.suppliedUntilDay[index] ?? -Infinity) > trialStartDay - onTreatmentWindowDays &&
        !cohort.optedOutChannels.has(index) &&
        (patient.consent.sms || patient.consent.whatsapp),
    );
  const order = xoroshiro128plus(options.seed);
  for (let position = eligible.length - 1; position > 0; position -= 1) {
    const other = uniformInt(order, 0, position);
    [eligible[position], eligible[other]] = [eligible[other]!, eligible[position]!];
  }
  const allocations = allocatePermutedBlocks({
    participants: eligible.slice(0, options.trialSize),
    stratumOf: ({ patient }) => patient.persona,
    blockSize: trialCohortA.blockSize,
    seed: options.seed,
  });
  const startDate = isoFromDayNumber(trialStartDay);
  await options.database
    .insert(trials)
    .values({
      id: trialCohortA.id,
      name: trialCohortA.name,
      startDate,
      weeks: trialCohortA.weeks,
      protocol: {
        dataset: 'synthetic demo data',
        design: 'Two-arm, parallel-group, individually randomised controlled trial',
        arms: {
          control: 'Usual care: no study messages',
          intervention: 'Personalised messages chosen by the learning policy',
        },
        allocation: {
          ratio: '1:1',
          method: 'permuted blocks',
          blockSize: trialCohortA.blockSize,
          stratifiedBy: 'persona',
          strata: [...personas],
          seed: options.seed,
        },
        eligibility: [
          `On treatment at enrolment: dispensed supply covering at least one of the last ${onTreatmentWindowDays} days`,
          'Has not replied STOP to any message',
          'Consents to SMS or WhatsApp messages',
        ],
        targetEnrolment: options.trialSize,
        primaryEndpoint: {
          measure: 'PDC',
          definition:
            'Proportion of days covered (PQA, refill-based, averaged over the patient’s products) over the 12 weeks from the start date',
          weeks: trialCohortA.weeks,
          analysis: 'Difference in mean PDC, intervention minus control, with a Welch 95% confidence interval',
        },
        secondaryEndpoints: [
          'Share of patients with PDC ≥ 0.8 (Newcombe 95% CI)',
          'Share of scheduled doses confirmed taken',
          'Opt-outs (STOP replies)',
        ],
      },
    })
    .onConflictDoNothing();
  let enrolled = 0;
  if (allocations.length > 0) {
    const rows = allocations.map((allocation) => ({
      trialId: trialCohortA.id,
      patientId: syntheticUuid('patients', allocation.participant.patient.id),
      arm: allocation.arm,
      stratum: allocation.stratum,
      block: allocation.block,
      enrolledOn: startDate,
    }));
    enrolled = (
      await options.database.insert(trialEnrolments).values(rows).onConflictDoNothing().returning({ patientId: trialEnrolments.patientId })
    ).length;
  }
  const control = allocations.filter((allocation) => allocation.arm === 'control').length;
  return { enrolled, control, intervention: allocations.length - control };
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

  const cohort = simulateDemoCohort({ patientCount, days, seed, startDay: historyStartDay });
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
    const trial = await writeTrial({ database: transaction, cohort, trialSize, seed, trialStartDay: historyStartDay + days });
    if (referencesDeferred) await assertReferencesHold(transaction);
    return {
      inserted: {
        ...catalogue,
        patients: patientRows,
        regimens: regimenRows,
        dispensings: dispensingRows,
        doseEvents: doseEventRows,
        messages: messageRows,
        trialEnrolments: trial.enrolled,
      },
      arms: { control: trial.control, intervention: trial.intervention },
    };
  });
  if (result === null) return { seeded: false, syntheticPatients: await countSyntheticPatients(options.database) };
  const programmes: Record<DemoProgramme, number> = { 'fixed-daily': 0, 'fixed-weekly': 0, none: 0 };
  for (const patient of cohort.patients) programmes[demoProgrammeOf(patient.id)] += 1;
  return {
    seeded: true,
    ...result,
    programmes,
    milliseconds: Math.round(performance.now() - startedAt),
  };
}
