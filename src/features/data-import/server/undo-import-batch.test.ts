import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, authUsers, dataSources, importBatches, patients, userProfiles } from '@/db/schema';
import type { Database } from '@/db/client';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { AppError } from '@/lib/errors';
import { claimNextJob, getJob, registerJobHandler, runClaimedJob } from '@/lib/server/jobs';
import { getImportBatch } from './get-import-batch';
import { withImportBatchContext } from './import-batch-context';
import { openImportBatch } from './import-batch-lifecycle';
import { importDispensingCsv } from './import-dispensing-csv';
import { importFhir } from './import-fhir';
import { createImportJobHandlers } from './import-job-handlers';
import { listImportBatches } from './list-import-batches';
import { tablesReferringToPatients, tablesReferringToProducts } from './remove-import-batch-rows';
import { importUndoJobKind, undoImportBatch } from './undo-import-batch';

const clinician = { id: 'clinician-1', role: 'clinician' as const };
const otherClinician = { id: 'clinician-2', role: 'clinician' as const };
const admin = { id: 'admin-1', role: 'admin' as const };
const patientUser = { id: 'patient-1', role: 'patient' as const };
const now = new Date('2025-06-01T12:00:00Z');

const rxnorm = (code: string, display: string) => ({
  coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code, display }],
});
const patient = (id: string) => ({ resourceType: 'Patient', id, gender: 'female', birthDate: '1960-05-01' });
const request = (id: string, subject: string, code: string) => ({
  resourceType: 'MedicationRequest',
  id,
  status: 'active',
  intent: 'order',
  subject: { reference: `Patient/${subject}` },
  authoredOn: '2024-02-01',
  medicationCodeableConcept: rxnorm(code, `Testamab ${code}`),
});
const dispense = (id: string, subject: string, code: string, day: string) => ({
  resourceType: 'MedicationDispense',
  id,
  status: 'completed',
  subject: { reference: `Patient/${subject}` },
  whenHandedOver: `2024-03-${day}`,
  daysSupply: { value: 30, unit: 'days' },
  medicationCodeableConcept: rxnorm(code, `Testamab ${code}`),
});
const administration = (id: string, subject: string, code: string) => ({
  resourceType: 'MedicationAdministration',
  id,
  status: 'completed',
  subject: { reference: `Patient/${subject}` },
  effectiveDateTime: '2024-03-02T08:00:00Z',
  medicationCodeableConcept: rxnorm(code, `Testamab ${code}`),
});
const ndjson = (resources: object[]) => `${resources.map((resource) => JSON.stringify(resource)).join('\n')}\n`;

// A: describes p1 and p2, a new medication (a product), a regimen, fills and a dose for both.
const fileA = ndjson([
  patient('p1'),
  patient('p2'),
  request('r1', 'p1', '990001'),
  dispense('d1', 'p1', '990001', '01'),
  dispense('d2', 'p2', '990001', '02'),
  administration('a1', 'p1', '990001'),
  administration('a2', 'p2', '990001'),
]);
// B overlaps A: p1 again with the same regimen and first fill, a new fill of p1, a new patient p3, the
// pre-existing patient p0 (there before any batch, only referred to), and a second new medication.
// (A file may refer only to patients it describes or that were imported before: decision 015.)
const fileB = ndjson([
  patient('p1'),
  patient('p3'),
  request('r1', 'p1', '990001'),
  dispense('d1', 'p1', '990001', '01'),
  dispense('d3', 'p1', '990001', '03'),
  dispense('d4', 'p3', '990002', '04'),
  administration('a3', 'p0', '990002'),
]);

/**
 * The database, with `first` run (once, to completion) just before the first statement through `method` is sent:
 * another instance's work landing between two statements of the code under test, deterministically.
 */
function interleavedBefore(database: Database, method: 'update' | 'execute', first: () => Promise<unknown>): Database {
  let pending = true;
  const once = async () => {
    if (!pending) return;
    pending = false;
    await first();
  };
  return new Proxy(database, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === 'execute' && method === 'execute')
        return async (...args: Parameters<Database['execute']>) => {
          await once();
          return target.execute(...args);
        };
      if (property === 'update' && method === 'update')
        return (table: Parameters<Database['update']>[0]) => {
          const builder = target.update(table);
          return {
            set: (values: Parameters<typeof builder.set>[0]) => {
              const query = builder.set(values);
              const execute = query.execute.bind(query);
              query.execute = async (...args) => {
                await once();
                return execute(...args);
              };
              return query;
            },
          };
        };
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe.each(testDatabaseBackends())('import batches and their undo on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
    const users = [clinician, otherClinician, admin, patientUser];
    await database.database
      .insert(authUsers)
      .values(users.map((user) => ({ id: user.id, name: user.id, email: `${user.id}@example.org` })));
    await database.database.insert(userProfiles).values(users.map((user) => ({ uid: user.id, role: user.role, updatedUnix: 1 })));
    await importedBeforeBatches(database);
  });

  /** A source and a patient from before import batches existed, keyed like FHIR's: B matches them and must never delete them. */
  async function importedBeforeBatches(db: TestDatabase) {
    await db.database.insert(dataSources).values({ id: 'fhir', kind: 'fhir', name: 'FHIR import (fhir)' });
    await db.database.insert(patients).values({ pseudonym: 'P-BEFOREBATCH', source: 'fhir', sourceRecordId: 'Patient/p0' });
  }
  afterEach(async () => {
    await database.dispose();
  });

  async function countRows(db = database) {
    const result = (await db.database.execute(sql`
      select (select count(*)::int from patients) as patients, (select count(*)::int from regimens) as regimens,
        (select count(*)::int from dispensings) as dispensings, (select count(*)::int from dose_events) as "doseEvents",
        (select count(*)::int from products) as products, (select count(*)::int from data_sources) as "dataSources"`)) as unknown as {
      rows: { patients: number; regimens: number; dispensings: number; doseEvents: number; products: number; dataSources: number }[];
    };
    return result.rows[0]!;
  }

  const importAs = (actor: typeof clinician | typeof admin, text: string, db = database) =>
    withImportBatchContext({ fileName: 'bundle.ndjson' }, () => importFhir({ database: db.database, actor, text, now }));

  async function latestBatchId(): Promise<string> {
    const [batch] = await listImportBatches({ database: database.database, actor: admin, limit: 1 });
    return batch!.id;
  }

  it('undoing A after an overlapping B leaves what importing only B leaves; undoing B then leaves what was there before both', async () => {
    const before = await countRows();
    await importAs(clinician, fileA);
    const batchA = await latestBatchId();
    await importAs(clinician, fileB);
    const batchB = await latestBatchId();
    expect(batchB).not.toBe(batchA);
    const afterBoth = await countRows();
    expect(afterBoth).toMatchObject({ patients: before.patients + 3, regimens: 1, dispensings: 4, doseEvents: 3 });

    // What removing A would do, before doing it: p2, its fill and dose, p1's dose; p1, r1, d1 and the product stay (B delivers them).
    const details = await getImportBatch({ database: database.database, actor: clinician, batchId: batchA });
    expect(details.batch).toMatchObject({
      status: 'completed',
      fileName: 'bundle.ndjson',
      via: 'web',
      ranBy: 'clinician-1',
      format: 'fhir',
    });
    expect(details.batch.createdRows).toMatchObject({ patients: 2, regimens: 1, dispensings: 2, doseEvents: 2, products: 1 });
    expect(details.removable).toEqual({ patients: 1, dispensings: 1, doseEvents: 2 });
    expect(details.kept).toBe(5); // p1, r1, d1, the product and the source
    expect(details.sample.patients).toHaveLength(2);
    expect(details.sample.patients[0]!.pseudonym).toMatch(/^P-/);
    expect(details.sample.dispensings.map((row) => row.dispensedOn)).toEqual(['2024-03-01', '2024-03-02']);
    expect(JSON.stringify(details)).not.toMatch(/Patient\/p\d/); // no source identifiers

    const undoneA = await undoImportBatch({ database: database.database, actor: clinician, batchId: batchA });
    expect(undoneA).toMatchObject({ status: 'undone', jobId: null, removedRows: { patients: 1, dispensings: 1, doseEvents: 2 } });
    const afterUndoA = await countRows();

    const onlyB = await backend.create();
    try {
      await importedBeforeBatches(onlyB);
      await importAs(clinician, fileB, onlyB);
      expect(afterUndoA).toEqual(await countRows(onlyB));
    } finally {
      await onlyB.dispose();
    }

    await undoImportBatch({ database: database.database, actor: clinician, batchId: batchB });
    expect(await countRows()).toEqual(before);
    const [kept] = await database.database.select({ id: patients.id }).from(patients).where(eq(patients.pseudonym, 'P-BEFOREBATCH'));
    expect(kept).toBeDefined();

    // Both stay listed as undone; undoing again changes nothing and answers the same.
    const listed = await listImportBatches({ database: database.database, actor: clinician });
    expect(listed.map((batch) => [batch.id, batch.status])).toEqual([
      [batchB, 'undone'],
      [batchA, 'undone'],
    ]);
    const again = await undoImportBatch({ database: database.database, actor: clinician, batchId: batchA });
    expect(again).toEqual(undoneA);
    expect(await countRows()).toEqual(before);
    const audited = await database.database
      .select({ actor: auditLog.actorUserId, outcome: auditLog.outcome, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.action, 'data-import.undo'));
    expect(audited).toHaveLength(2);
    expect(audited[0]).toMatchObject({ actor: 'clinician-1', outcome: 'success', details: { batchId: batchA } });
  });

  it('a CSV imported twice under two batches: undoing one removes nothing the other delivered', async () => {
    const csv = 'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION\n1,2024-01-01,1,medA,30\n2,2024-01-05,1,medA,30\n';
    const before = await countRows();
    await importDispensingCsv({ database: database.database, actor: clinician, text: csv });
    const first = await latestBatchId();
    const afterFirst = await countRows();
    await importDispensingCsv({ database: database.database, actor: admin, text: `${csv}3,2024-02-01,1,medA,30\n` });
    const second = await latestBatchId();
    await undoImportBatch({ database: database.database, actor: clinician, batchId: first });
    expect(await countRows()).toEqual({ ...afterFirst, patients: afterFirst.patients + 1, dispensings: afterFirst.dispensings + 1 });
    await undoImportBatch({ database: database.database, actor: admin, batchId: second });
    expect(await countRows()).toEqual(before);
  });

  it('only an administrator or the clinician who ran a batch sees and removes it; other attempts are refused and audited', async () => {
    await importAs(clinician, fileA);
    const batchId = await latestBatchId();
    const refusal = async (work: Promise<unknown>) => {
      const error = await work.then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(AppError);
      return (error as AppError).code;
    };
    expect(await listImportBatches({ database: database.database, actor: otherClinician })).toEqual([]);
    expect(await refusal(getImportBatch({ database: database.database, actor: otherClinician, batchId }))).toBe('forbidden');
    expect(await refusal(undoImportBatch({ database: database.database, actor: otherClinician, batchId }))).toBe('forbidden');
    expect(await refusal(undoImportBatch({ database: database.database, actor: patientUser, batchId }))).toBe('forbidden');
    expect(await refusal(listImportBatches({ database: database.database, actor: patientUser }))).toBe('forbidden');
    expect(await refusal(undoImportBatch({ database: database.database, actor: null, batchId }))).toBe('unauthenticated');
    expect(await refusal(undoImportBatch({ database: database.database, actor: admin, batchId: 'not-an-id' }))).toBe('validation');
    const denied = await database.database
      .select({ action: auditLog.action, actor: auditLog.actorUserId })
      .from(auditLog)
      .where(eq(auditLog.outcome, 'denied'));
    expect(denied).toEqual(
      expect.arrayContaining([
        { action: 'data-import.batch', actor: 'clinician-2' },
        { action: 'data-import.undo', actor: 'clinician-2' },
        { action: 'data-import.undo', actor: 'patient-1' },
        { action: 'data-import.batches', actor: 'patient-1' },
      ]),
    );
    const [batch] = await database.database.select({ status: importBatches.status }).from(importBatches);
    expect(batch?.status).toBe('completed');

    // The administrator may remove any batch.
    expect(await listImportBatches({ database: database.database, actor: admin })).toHaveLength(1);
    expect((await undoImportBatch({ database: database.database, actor: admin, batchId })).status).toBe('undone');
  });

  it('a command-line import is a batch of the operator: listed for administrators, who may remove it, not for clinicians', async () => {
    const csv = 'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION\n1,2024-01-01,1,medA,30\n';
    await withImportBatchContext({ fileName: 'fills.csv' }, () =>
      importDispensingCsv({ database: database.database, actor: 'operator', text: csv }),
    );
    const [batch] = await listImportBatches({ database: database.database, actor: admin });
    expect(batch).toMatchObject({ via: 'cli', ranBy: null, fileName: 'fills.csv', status: 'completed', resources: 1, skipped: 0 });
    expect(batch?.createdRows).toMatchObject({ patients: 1, dispensings: 1 });
    expect(await listImportBatches({ database: database.database, actor: clinician })).toEqual([]);
    expect((await undoImportBatch({ database: database.database, actor: admin, batchId: batch!.id })).removedRows).toMatchObject({
      patients: 1,
      dispensings: 1,
    });
  });

  it('a running batch cannot be undone', async () => {
    const [running] = await database.database
      .insert(importBatches)
      .values({ format: 'csv', source: 'pharmacy-csv', via: 'web', createdBy: clinician.id })
      .returning({ id: importBatches.id });
    const error = await undoImportBatch({ database: database.database, actor: clinician, batchId: running!.id }).catch((caught) => caught);
    expect(error).toMatchObject({ code: 'conflict' });
  });

  it('a large batch is undone by a background job, a chunk per transaction, with progress', async () => {
    const before = await countRows();
    await importAs(clinician, fileA);
    const batchId = await latestBatchId();
    const kind = `${importUndoJobKind}-test-${backend.name}`;
    registerJobHandler(kind, createImportJobHandlers(() => database.database).undo);
    const queued = await undoImportBatch({ database: database.database, actor: clinician, batchId, maximumRowsAtOnce: 1 });
    expect(queued).toMatchObject({ status: 'undoing', jobId: expect.any(String) });
    // Asked again while it runs: the same job.
    expect(await undoImportBatch({ database: database.database, actor: clinician, batchId })).toMatchObject({ jobId: queued.jobId });
    await database.database.execute(sql`update jobs set kind = ${kind} where id = ${queued.jobId}`);
    const job = await claimNextJob({ database: database.database, kinds: [kind] });
    await runClaimedJob({ database: database.database, job: job! });
    const finished = await getJob({ database: database.database, id: queued.jobId! });
    expect(finished).toMatchObject({ status: 'succeeded' });
    expect(finished?.progressDone).toBe(finished?.progressTotal);
    expect(await countRows()).toEqual(before);
    const [batch] = await listImportBatches({ database: database.database, actor: clinician });
    expect(batch).toMatchObject({
      status: 'undone',
      removedRows: { patients: 2, regimens: 1, dispensings: 2, doseEvents: 2, products: 1 },
    });
  });

  /** A batch of a background import job whose run failed: its job will retry, the user may remove it meanwhile. */
  async function failedJobBatch(): Promise<{ batchId: string; jobId: string }> {
    const jobId = randomUUID();
    await withImportBatchContext({ fileName: 'bundle.ndjson', jobId }, () =>
      importFhir({ database: database.database, actor: clinician, text: fileA, now }),
    );
    const batchId = await latestBatchId();
    await database.database.update(importBatches).set({ status: 'failed' }).where(eq(importBatches.id, batchId));
    return { batchId, jobId };
  }
  const retryOpens = (db: Database, jobId: string) =>
    withImportBatchContext({ fileName: 'bundle.ndjson', jobId }, () =>
      openImportBatch({ database: db, actor: clinician, format: 'fhir', source: 'fhir' }),
    );
  const statusOf = async (batchId: string) =>
    (await database.database.select({ status: importBatches.status }).from(importBatches).where(eq(importBatches.id, batchId)))[0]?.status;

  it("an undo committed between the retry's read of its failed batch and its reopening keeps the batch undone", async () => {
    const before = await countRows();
    const { batchId, jobId } = await failedJobBatch();
    // The retry read `failed`; the user's undo commits before the retry's update reaches the row.
    const racing = interleavedBefore(database.database, 'update', () =>
      undoImportBatch({ database: database.database, actor: clinician, batchId }),
    );
    const error = await retryOpens(racing, jobId).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'conflict' });
    expect(await statusOf(batchId)).toBe('undone');
    expect(await countRows()).toEqual(before);
  });

  it("a retry reopening the failed batch between an undo's read and its removal keeps it: nothing removed, the answer says running", async () => {
    const { batchId, jobId } = await failedJobBatch();
    const imported = await countRows();
    const racing = interleavedBefore(database.database, 'execute', () => retryOpens(database.database, jobId));
    const error = await undoImportBatch({ database: racing, actor: clinician, batchId }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'conflict', message: expect.stringContaining('still running') });
    expect(await statusOf(batchId)).toBe('running');
    expect(await countRows()).toEqual(imported);
  });

  it('a retry reopening the failed batch before a large undo marks it: no undo job is queued, the batch stays running', async () => {
    const { batchId, jobId } = await failedJobBatch();
    const racing = interleavedBefore(database.database, 'execute', () => retryOpens(database.database, jobId));
    const error = await undoImportBatch({ database: racing, actor: clinician, batchId, maximumRowsAtOnce: 1 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'conflict', message: expect.stringContaining('still running') });
    const [batch] = await database.database
      .select({ status: importBatches.status, undoJobId: importBatches.undoJobId })
      .from(importBatches)
      .where(eq(importBatches.id, batchId));
    expect(batch).toEqual({ status: 'running', undoJobId: null });
    const queued = (await database.database.execute(
      sql`select count(*)::int as jobs from jobs where kind = ${importUndoJobKind}`,
    )) as unknown as {
      rows: { jobs: number }[];
    };
    expect(queued.rows[0]!.jobs).toBe(0);
  });

  it('the tables an undo checks before deleting a patient or a product are every table that refers to them', async () => {
    const referring = async (table: string) =>
      (
        (await database.database.execute(sql`
          select distinct source.relname as name from pg_constraint c
          join pg_class source on source.oid = c.conrelid join pg_class target on target.oid = c.confrelid
          where c.contype = 'f' and target.relname = ${table} order by 1`)) as unknown as { rows: { name: string }[] }
      ).rows.map((row) => row.name);
    expect(await referring('patients')).toEqual([...tablesReferringToPatients]);
    expect(await referring('products')).toEqual([...tablesReferringToProducts]);
  });
});
