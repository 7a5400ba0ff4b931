import 'server-only';
import { randomBytes } from 'node:crypto';
import { param, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dataSources, patients, products, regimens } from '@/db/schema';
import {
  type ImportPlan,
  type MedicationConcept,
  type PatientRecord,
  hasProductCode,
  medicationCodeOf,
  normaliseNdc,
} from '@/engine/ingestion';
import { lockAgainstUndo, recordDeliveredKeyedRows, recordDeliveredRows } from './import-batch-rows';

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for the widest table. */
const chunkSize = 1000;

export type ProgressCallback = (done: number, total: number) => void | Promise<void>;

/**
 * What a resumed import needs from the runs before it: which entries those runs created (so the report
 * counts them as created, not unchanged) and how many records of each kind are committed (so it skips
 * them). Saved in the same transaction as each chunk, so it never claims more or less than is stored.
 */
export type ImportCheckpoint = {
  /** Entries that created rows, as inclusive [first, last] ranges (imports create runs of entries). */
  createdEntries: [number, number][];
  written: { regimens: number; dispensings: number; doseEvents: number };
};

/** Saves a checkpoint with the chunk's own transaction, so chunk and checkpoint commit together. */
export type CheckpointSaver = (transaction: Database, checkpoint: ImportCheckpoint) => Promise<void>;

export function entryRanges(entries: Iterable<number>): [number, number][] {
  const sorted = [...entries].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const entry of sorted) {
    const last = ranges.at(-1);
    if (last !== undefined && entry <= last[1] + 1) last[1] = Math.max(last[1], entry);
    else ranges.push([entry, entry]);
  }
  return ranges;
}

export function entriesOfRanges(ranges: [number, number][]): number[] {
  const entries: number[] = [];
  for (const [first, last] of ranges) for (let entry = first; entry <= last; entry += 1) entries.push(entry);
  return entries;
}

export type WriteImportPlanResult = {
  /** Entries that wrote at least one new row. */
  createdEntries: Set<number>;
  /** Entries the database step could not use, with the reason. */
  lateSkips: Map<number, string>;
};

/** Lets other requests run between chunks: a 100,000-row file must not hold the event loop. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Writes an import plan idempotently: every row goes in with INSERT … ON CONFLICT DO NOTHING on
 * (source, source_record_id), and the rows a statement returns are the ones it created.
 *
 * Each chunk of at most 1,000 rows is its own transaction (with the checkpoint, when a saver is given):
 * the embedded database has one connection, and a transaction around a whole 100,000-row import made every
 * other request wait for it. A failure part-way therefore keeps the chunks already committed; because every
 * row is keyed, running the same import again — or resuming its job from the checkpoint — completes it
 * without creating anything twice.
 */
export async function writeImportPlan(options: {
  database: Database;
  source: string;
  sourceKind: 'fhir' | 'pharmacy-csv';
  sourceName: string;
  plan: ImportPlan;
  onProgress?: ProgressCallback;
  /** Where an earlier run of this import stopped (null or absent: from the start). */
  resumeFrom?: ImportCheckpoint | null;
  saveCheckpoint?: CheckpointSaver;
  /** The import's batch: every row the import delivers is recorded against it, with its chunk (decision 013). */
  batchId?: string | null;
}): Promise<WriteImportPlanResult> {
  const { database, source, plan } = options;
  const batchId = options.batchId ?? null;
  const result: WriteImportPlanResult = {
    createdEntries: new Set(entriesOfRanges(options.resumeFrom?.createdEntries ?? [])),
    lateSkips: new Map(),
  };
  const written = { regimens: 0, dispensings: 0, doseEvents: 0, ...options.resumeFrom?.written };
  const total = plan.patients.length + plan.medications.length + plan.regimens.length + plan.dispensings.length + plan.doseEvents.length;
  let done = 0;
  const advance = async (count: number) => {
    done += count;
    await options.onProgress?.(done, total);
    await yieldToEventLoop();
  };
  /** Runs one chunk's statements and the checkpoint that records them in one transaction. */
  const inChunkTransaction = <T>(write: (transaction: Database) => Promise<T>, recordResult: (value: T) => void): Promise<void> =>
    database.transaction(async (transaction) => {
      if (batchId !== null) await lockAgainstUndo(transaction);
      recordResult(await write(transaction));
      await options.saveCheckpoint?.(transaction, { createdEntries: entryRanges(result.createdEntries), written: { ...written } });
    });

  await inChunkTransaction(
    async (transaction) => {
      const [row] = await transaction
        .insert(dataSources)
        .values({ id: source, kind: options.sourceKind, name: options.sourceName, lastActivityAt: new Date() })
        .onConflictDoUpdate({ target: dataSources.id, set: { lastActivityAt: new Date() } })
        .returning({ inserted: sql<boolean>`(xmax = 0)` });
      if (batchId !== null)
        await recordDeliveredRows(transaction, { batchId, table: 'dataSources', rows: [{ id: source, created: row?.inserted === true }] });
    },
    () => undefined,
  );

  const patientIds = await writePatients({ source, records: plan.patients, result, advance, inChunkTransaction, batchId });

  const concepts = [...plan.medications.map((record) => record.medication), ...plan.regimens.map((record) => record.medication)];
  for (const record of [...plan.dispensings, ...plan.doseEvents]) if (record.medication !== null) concepts.push(record.medication);
  const resolvedProducts = await resolveProducts({
    database,
    concepts,
    inChunkTransaction,
    batchId,
    onCreated: (createdKeys) => {
      for (const record of plan.medications) if (createdKeys.has(conceptKey(record.medication))) result.createdEntries.add(record.entry);
    },
  });
  for (const record of plan.medications) {
    if (!resolvedProducts.has(conceptKey(record.medication)))
      result.lateSkips.set(record.entry, 'no RxNorm, NDC or ATC code, and no product of that name');
  }
  await advance(plan.medications.length);

  const patientIdOf = (key: string): string => {
    const id = patientIds.get(key);
    if (id === undefined) throw new Error('A patient row is missing after it was written.');
    return id;
  };
  const productOf = (concept: MedicationConcept | null) => ({
    productId: concept === null ? null : (resolvedProducts.get(conceptKey(concept)) ?? null),
    medicationCode: concept === null ? null : medicationCodeOf(concept) || null,
  });
  const insertChunks = <T extends { entry: number; sourceRecordId: string }>(
    kind: keyof ImportCheckpoint['written'],
    records: T[],
    insert: (transaction: Database, chunk: T[]) => Promise<{ sourceRecordId: string }[]>,
  ) =>
    insertRecords({
      records,
      alreadyWritten: written[kind],
      result,
      advance,
      inChunkTransaction,
      insert: async (transaction, chunk) => {
        const rows = await insert(transaction, chunk);
        if (batchId !== null)
          await recordDeliveredKeyedRows(transaction, {
            batchId,
            table: kind,
            source,
            keys: chunk.map((record) => record.sourceRecordId),
            createdKeys: rows.map((row) => row.sourceRecordId),
          });
        return rows;
      },
      onChunkWritten: (count) => (written[kind] += count),
    });

  await insertChunks('regimens', plan.regimens, async (transaction, chunk) =>
    transaction
      .insert(regimens)
      .values(
        chunk.map((record) => ({
          patientId: patientIdOf(record.patient),
          ...productOf(record.medication),
          dosesPerDay: record.dosesPerDay,
          doseTimes: record.doseTimes,
          startDate: record.startDate,
          endDate: record.endDate,
          daysPerFill: record.intendedSupply?.daysPerFill ?? null,
          quantityPerFill: record.intendedSupply?.quantityPerFill ?? null,
          repeatsAllowed: record.intendedSupply?.repeatsAllowed ?? null,
          source,
          sourceRecordId: record.sourceRecordId,
        })),
      )
      .onConflictDoNothing({ target: [regimens.source, regimens.sourceRecordId] })
      .returning({ sourceRecordId: regimens.sourceRecordId }),
  );
  await insertChunks('dispensings', plan.dispensings, async (transaction, chunk) => {
    const products = chunk.map((record) => productOf(record.medication));
    // One array per column through unnest: nine parameters whatever the chunk size, and no per-value query
    // building (drizzle's multi-row insert spent more time building SQL than PostgreSQL spent inserting).
    return returnedKeys(
      await transaction.execute(sql`
        insert into dispensings (patient_id, product_id, medication_code, dispensed_on, days_supply, quantity, doses_per_day, source, source_record_id)
        select * from unnest(
          ${param(chunk.map((record) => patientIdOf(record.patient)))}::uuid[],
          ${param(products.map((product) => product.productId))}::text[],
          ${param(products.map((product) => product.medicationCode))}::text[],
          ${param(chunk.map((record) => record.dispensedOn))}::date[],
          ${param(chunk.map((record) => record.daysSupply))}::integer[],
          ${param(chunk.map((record) => record.quantity))}::double precision[],
          ${param(chunk.map((record) => record.dosesPerDay))}::double precision[],
          ${param(chunk.map(() => source))}::text[],
          ${param(chunk.map((record) => record.sourceRecordId))}::text[]
        )
        on conflict (source, source_record_id) do nothing
        returning source_record_id`),
    );
  });
  await insertChunks('doseEvents', plan.doseEvents, async (transaction, chunk) =>
    returnedKeys(
      await transaction.execute(sql`
        insert into dose_events (patient_id, product_id, scheduled_at, confirmed_at, status, source, source_record_id)
        select * from unnest(
          ${param(chunk.map((record) => patientIdOf(record.patient)))}::uuid[],
          ${param(chunk.map((record) => productOf(record.medication).productId))}::text[],
          ${param(chunk.map((record) => record.scheduledAt))}::timestamptz[],
          ${param(chunk.map((record) => record.confirmedAt))}::timestamptz[],
          ${param(chunk.map((record) => record.status))}::text[],
          ${param(chunk.map(() => source))}::text[],
          ${param(chunk.map((record) => record.sourceRecordId))}::text[]
        )
        on conflict (source, source_record_id) do nothing
        returning source_record_id`),
    ),
  );
  return result;
}

type ChunkTransaction = <T>(write: (transaction: Database) => Promise<T>, recordResult: (value: T) => void) => Promise<void>;

/** The `source_record_id`s an INSERT … RETURNING gave back (node-postgres and PGlite both answer `rows`). */
function returnedKeys(result: unknown): { sourceRecordId: string }[] {
  return (result as { rows: { source_record_id: string }[] }).rows.map((row) => ({ sourceRecordId: row.source_record_id }));
}

/**
 * Inserts records in chunks; a record whose key an earlier record of the same import already used (a
 * Claim and its ExplanationOfBenefit) is not inserted again and counts as unchanged.
 */
async function insertRecords<T extends { entry: number; sourceRecordId: string }>(options: {
  records: T[];
  /** Unique records a previous run committed: skipped. */
  alreadyWritten: number;
  result: WriteImportPlanResult;
  advance: (count: number) => Promise<void>;
  inChunkTransaction: ChunkTransaction;
  insert: (transaction: Database, chunk: T[]) => Promise<{ sourceRecordId: string }[]>;
  onChunkWritten: (count: number) => void;
}): Promise<void> {
  const { records, result, advance } = options;
  const seen = new Set<string>();
  const unique = records.filter((record) => !seen.has(record.sourceRecordId) && seen.add(record.sourceRecordId));
  const resumeAt = Math.min(options.alreadyWritten, unique.length);
  if (resumeAt > 0) await advance(resumeAt);
  for (let start = resumeAt; start < unique.length; start += chunkSize) {
    const chunk = unique.slice(start, start + chunkSize);
    await options.inChunkTransaction(
      (transaction) => options.insert(transaction, chunk),
      (rows) => {
        const created = new Set(rows.map((row) => row.sourceRecordId));
        for (const record of chunk) if (created.has(record.sourceRecordId)) result.createdEntries.add(record.entry);
        options.onChunkWritten(chunk.length);
      },
    );
    await advance(chunk.length);
  }
  if (unique.length < records.length) await advance(records.length - unique.length);
}

/** 60 random bits in Crockford base 32: "P-" + 12 characters, shown instead of a name. */
function newPseudonym(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const bytes = randomBytes(12);
  let text = 'P-';
  for (const byte of bytes) text += alphabet[byte % 32];
  return text;
}

/**
 * Patients by source record id. A patient the file describes fills in demographics a patient only
 * referred to earlier lacks (COALESCE keeps what is there); `xmax = 0` tells an insert from an update.
 * Pseudonyms are random rather than a hash of the source id, so they cannot be traced back to it.
 */
async function writePatients(options: {
  source: string;
  records: PatientRecord[];
  result: WriteImportPlanResult;
  advance: (count: number) => Promise<void>;
  inChunkTransaction: ChunkTransaction;
  batchId: string | null;
}): Promise<Map<string, string>> {
  const { source, records, result, advance, inChunkTransaction, batchId } = options;
  const record = async (transaction: Database, rows: { id: string; created: boolean }[]) => {
    if (batchId !== null) await recordDeliveredRows(transaction, { batchId, table: 'patients', rows });
  };
  const ids = new Map<string, string>();
  const described = new Map<string, PatientRecord>();
  const referenced = new Set<string>();
  for (const record of records) {
    if (record.entry !== null && !described.has(record.sourceRecordId)) described.set(record.sourceRecordId, record);
    else if (record.entry === null) referenced.add(record.sourceRecordId);
  }
  const describedRecords = [...described.values()];
  for (let start = 0; start < describedRecords.length; start += chunkSize) {
    const chunk = describedRecords.slice(start, start + chunkSize);
    await inChunkTransaction(
      async (transaction) => {
        const rows = await transaction
          .insert(patients)
          .values(
            chunk.map((record) => ({
              pseudonym: newPseudonym(),
              source,
              sourceRecordId: record.sourceRecordId,
              sex: record.sex,
              ageBand: record.ageBand,
              region: record.region,
              language: record.language,
            })),
          )
          .onConflictDoUpdate({
            target: [patients.source, patients.sourceRecordId],
            set: {
              sex: sql`coalesce("patients"."sex", excluded."sex")`,
              ageBand: sql`coalesce("patients"."age_band", excluded."age_band")`,
              region: sql`coalesce("patients"."region", excluded."region")`,
              language: sql`coalesce("patients"."language", excluded."language")`,
            },
          })
          .returning({ id: patients.id, sourceRecordId: patients.sourceRecordId, inserted: sql<boolean>`(xmax = 0)` });
        await record(
          transaction,
          rows.map((row) => ({ id: row.id, created: row.inserted })),
        );
        return rows;
      },
      (rows) => {
        for (const row of rows) {
          ids.set(row.sourceRecordId, row.id);
          const entry = described.get(row.sourceRecordId)?.entry;
          if (row.inserted && entry !== null && entry !== undefined) result.createdEntries.add(entry);
        }
      },
    );
    await advance(chunk.length);
  }
  // Sorted: the statement below locks existing rows, and two imports locking in one order cannot deadlock.
  const onlyReferenced = [...referenced].filter((key) => !ids.has(key)).sort();
  for (let start = 0; start < onlyReferenced.length; start += chunkSize) {
    const chunk = onlyReferenced.slice(start, start + chunkSize);
    // One statement that returns every id, new or existing: a no-op DO UPDATE (source set to itself; the
    // patients triggers compare other columns, so nothing is marked changed) returns the existing row, even one
    // a concurrent import committed after this statement's snapshot. (DO NOTHING plus a SELECT of the rest
    // missed exactly that row: the SELECT's snapshot predated it.) The keys are distinct, so no row is hit twice.
    await inChunkTransaction(
      async (transaction) => {
        const found = (await transaction.execute(sql`
          insert into patients (pseudonym, source, source_record_id)
          select pseudonym, ${source}, source_record_id
          from unnest(${param(chunk)}::text[], ${param(chunk.map(() => newPseudonym()))}::text[]) as wanted (source_record_id, pseudonym)
          on conflict (source, source_record_id) do update set source = excluded.source
          returning id, source_record_id, (xmax = 0) as inserted`)) as unknown as {
          rows: { id: string; source_record_id: string; inserted: boolean }[];
        };
        await record(
          transaction,
          found.rows.map((row) => ({ id: row.id, created: row.inserted })),
        );
        return found;
      },
      (found) => {
        for (const row of found.rows) ids.set(row.source_record_id, row.id);
      },
    );
    await advance(chunk.length);
  }
  return ids;
}

/** One key per distinct medication of an import. */
function conceptKey(concept: MedicationConcept): string {
  return `${medicationCodeOf(concept)}\u0000${concept.text ?? ''}`;
}

/**
 * Matches each medication to a product: by RxNorm, then NDC (compared in 11-digit form), then ATC, then
 * by generic or brand name; creates a product for a code no product has (id from the code, so two
 * imports racing create it once). A medication with neither a matching name nor one of those codes gets
 * no product and is kept as `medication_code` only.
 */
async function resolveProducts(options: {
  database: Database;
  concepts: MedicationConcept[];
  inChunkTransaction: ChunkTransaction;
  batchId: string | null;
  /** Called inside each creating chunk's transaction with the medication keys whose product it created. */
  onCreated: (createdKeys: Set<string>) => void;
}): Promise<Map<string, string>> {
  const { database, concepts, inChunkTransaction, batchId } = options;
  const distinct = new Map<string, MedicationConcept>();
  for (const concept of concepts) distinct.set(conceptKey(concept), concept);
  /** Medication key → product id. */
  const resolved = new Map<string, string>();
  if (distinct.size === 0) return resolved;

  // The catalogue is small (thousands of rows): matching in memory lets NDCs compare normalised.
  const catalogue = await database
    .select({
      id: products.id,
      rxnormCode: products.rxnormCode,
      ndcCode: products.ndcCode,
      atcCode: products.atcCode,
      name: products.name,
      genericName: products.genericName,
    })
    .from(products);
  const byRxnorm = new Map<string, string>();
  const byNdc = new Map<string, string>();
  const byAtc = new Map<string, string>();
  const byName = new Map<string, string>();
  for (const product of catalogue) {
    if (product.rxnormCode !== null) byRxnorm.set(product.rxnormCode.trim(), product.id);
    if (product.ndcCode !== null) byNdc.set(normaliseNdc(product.ndcCode), product.id);
    if (product.atcCode !== null) byAtc.set(product.atcCode.trim().toUpperCase(), product.id);
    if (!byName.has(product.genericName.trim().toLowerCase())) byName.set(product.genericName.trim().toLowerCase(), product.id);
    if (!byName.has(product.name.trim().toLowerCase())) byName.set(product.name.trim().toLowerCase(), product.id);
  }

  const toCreate: { key: string; row: typeof products.$inferInsert }[] = [];
  for (const [key, concept] of distinct) {
    const matched =
      (concept.rxnorm === null ? undefined : byRxnorm.get(concept.rxnorm)) ??
      (concept.ndc === null ? undefined : byNdc.get(concept.ndc)) ??
      (concept.atc === null ? undefined : byAtc.get(concept.atc)) ??
      (concept.text === null ? undefined : byName.get(concept.text.toLowerCase()));
    if (matched !== undefined) {
      resolved.set(key, matched);
    } else if (hasProductCode(concept)) {
      const code = medicationCodeOf(concept);
      const name = concept.text ?? code;
      toCreate.push({
        key,
        row: {
          id: code.replace(':', '-'),
          name,
          genericName: name,
          rxnormCode: concept.rxnorm,
          ndcCode: concept.ndc,
          atcCode: concept.atc,
        },
      });
    }
  }
  for (let start = 0; start < toCreate.length; start += chunkSize) {
    const chunk = toCreate.slice(start, start + chunkSize);
    const unique = [...new Map(chunk.map((item) => [item.row.id, item.row])).values()];
    await inChunkTransaction(
      async (transaction) => {
        const rows = await transaction
          .insert(products)
          .values(unique)
          .onConflictDoNothing({ target: products.id })
          .returning({ id: products.id });
        if (batchId !== null)
          await recordDeliveredRows(transaction, { batchId, table: 'products', rows: rows.map((row) => ({ id: row.id, created: true })) });
        return rows;
      },
      (rows) => {
        const created = new Set(rows.map((row) => row.id));
        const createdKeys = new Set<string>();
        for (const item of chunk) {
          resolved.set(item.key, item.row.id);
          if (created.delete(item.row.id)) createdKeys.add(item.key); // the first medication with that code gets the credit
        }
        options.onCreated(createdKeys);
      },
    );
  }
  // Products matched (or created above, which stay recorded as created): the batch delivered them too.
  if (batchId !== null && resolved.size > 0)
    await inChunkTransaction(
      (transaction) =>
        recordDeliveredRows(transaction, {
          batchId,
          table: 'products',
          rows: [...new Set(resolved.values())].map((id) => ({ id, created: false })),
        }),
      () => undefined,
    );
  return resolved;
}
