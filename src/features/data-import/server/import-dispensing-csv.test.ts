import fs from 'node:fs';
import path from 'node:path';
import { and, desc, eq } from 'drizzle-orm';
import type pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispensings, importBatches, patients, products } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { AppError } from '@/lib/errors';
import { importDispensingCsv } from './import-dispensing-csv';
import { ImportRefusedError } from './import-refused';

const medicationEvents = fs.readFileSync(path.resolve(process.cwd(), '../shared/testdata/adherer/med_events.csv'), 'utf8');
const clinician = { id: 'clinician-1', role: 'clinician' as const };
// AdhereR's example dates run 2030–2044: imported as of 2045 unless a test says otherwise.
const after = new Date('2045-01-01T00:00:00Z');

describe.each(testDatabaseBackends())('importDispensingCsv on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  const importText = (text: string, overrides: Partial<Parameters<typeof importDispensingCsv>[0]> = {}) =>
    importDispensingCsv({ database: database.database, actor: clinician, text, mapping: { dateFormat: 'mdy' }, now: after, ...overrides });

  async function countRows() {
    return {
      patients: (await database.database.select({ id: patients.id }).from(patients)).length,
      dispensings: (await database.database.select({ id: dispensings.id }).from(dispensings)).length,
    };
  }

  it("imports AdhereR's med_events (1,080 rows, 100 patients, duplicate rows kept); a second import creates nothing", async () => {
    const first = await importText(medicationEvents);
    expect(first).toEqual({ resources: 1080, created: { Dispensing: 1080 }, unchanged: {}, skipped: [] });
    expect(await countRows()).toEqual({ patients: 100, dispensings: 1080 });

    const [patient] = await database.database
      .select({ id: patients.id })
      .from(patients)
      .where(and(eq(patients.source, 'pharmacy-csv'), eq(patients.sourceRecordId, '1')));
    const fills = await database.database
      .select({
        dispensedOn: dispensings.dispensedOn,
        daysSupply: dispensings.daysSupply,
        dosesPerDay: dispensings.dosesPerDay,
        medicationCode: dispensings.medicationCode,
        productId: dispensings.productId,
      })
      .from(dispensings)
      .where(eq(dispensings.patientId, patient?.id ?? ''))
      .orderBy(dispensings.dispensedOn);
    expect(fills[0]).toEqual({ dispensedOn: '2033-04-26', daysSupply: 50, dosesPerDay: 4, medicationCode: 'medA', productId: null });

    const second = await importText(medicationEvents);
    expect(second).toEqual({ resources: 1080, created: {}, unchanged: { Dispensing: 1080 }, skipped: [] });
    expect(await countRows()).toEqual({ patients: 100, dispensings: 1080 });
  });

  it('a re-export with rows added creates only the new rows', async () => {
    await importText(medicationEvents);
    const report = await importText(`${medicationEvents.trimEnd()}\n101,01/02/2040,1,medA,30\n`);
    expect(report.created).toEqual({ Dispensing: 1 });
    expect(report.unchanged).toEqual({ Dispensing: 1080 });
  });

  it('stops at a bad row, naming its line, and stores nothing', async () => {
    const lines = medicationEvents.split('\n');
    lines[600] = '58,13/45/2036,2,medA,30';
    const failure = await importText(lines.join('\n')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).code).toBe('validation');
    expect((failure as AppError).message).toBe(
      'The file has 1 problem; nothing was imported:\nline 601: DATE "13/45/2036" is not a date in MM/DD/YYYY format',
    );
    expect(await countRows()).toEqual({ patients: 0, dispensings: 0 });

    for (const [row, message] of [
      ['58,01/02/2036,2,medA,0', 'line 3: DURATION "0" is not a days supply (a number of days > 0)'],
      ['58,01/02/2036,two,medA,30', 'line 3: PERDAY "two" is not a daily dose (a number > 0)'],
      [',01/02/2036,2,medA,30', 'line 3: PATIENT_ID is empty'],
      ['58,01/02/2036,2,medA', 'line 3: the row has 4 fields, the header 5'],
    ] as const) {
      const text = `PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION\n1,04/26/2033,4,medA,50\n${row}\n`;
      const error = await importText(text).catch((caught: unknown) => caught);
      expect((error as AppError).message).toBe(`The file has 1 problem; nothing was imported:\n${message}`);
    }
    expect(await countRows()).toEqual({ patients: 0, dispensings: 0 });
  });

  it('a failure part-way keeps the chunks committed; importing again completes it and creates each row once', async () => {
    let calls = 0;
    // Progress calls: patients (1), medications (2), then one per 1,000-row chunk of dispensings (3, 4).
    const failure = await importText(medicationEvents, {
      onProgress: () => {
        calls += 1;
        if (calls === 3) throw new Error('the process stopped');
      },
    }).catch((error: unknown) => error);
    expect((failure as Error).message).toBe('the process stopped');
    expect(await countRows()).toEqual({ patients: 100, dispensings: 1000 });

    const again = await importText(medicationEvents);
    expect(again).toEqual({ resources: 1080, created: { Dispensing: 80 }, unchanged: { Dispensing: 1000 }, skipped: [] });
    expect(await countRows()).toEqual({ patients: 100, dispensings: 1080 });
  });

  it('resumes from a checkpoint: skips the chunks it records and counts their rows as created', async () => {
    const checkpoints: { createdEntries: [number, number][]; written: Record<string, number> }[] = [];
    const report = await importText(medicationEvents, {
      resumeFrom: { createdEntries: [[0, 999]], written: { regimens: 0, dispensings: 1000, doseEvents: 0 } },
      saveCheckpoint: async (_transaction, checkpoint) => void checkpoints.push(checkpoint),
    });
    // Only the last 80 rows were written by this run (the database was empty), yet the report counts all.
    expect(await countRows()).toEqual({ patients: 100, dispensings: 80 });
    expect(report).toEqual({ resources: 1080, created: { Dispensing: 1080 }, unchanged: {}, skipped: [] });
    expect(checkpoints.at(-1)).toEqual({ createdEntries: [[0, 1079]], written: { regimens: 0, dispensings: 1080, doseEvents: 0 } });
  });

  it('does not hold the embedded database: other statements run between chunks', async () => {
    const header = 'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION\n';
    const body = Array.from(
      { length: 5_000 },
      (_, index) => `${index % 300},${String((index % 12) + 1).padStart(2, '0')}/15/2030,1,medA,30`,
    ).join('\n');
    const seenDuringImport: number[] = [];
    await importText(header + body, {
      onProgress: async (done) => {
        if (done < 5_300) seenDuringImport.push((await database.database.select({ id: dispensings.id }).from(dispensings)).length);
      },
    });
    // A statement outside the import sees each chunk as soon as it is committed.
    expect(seenDuringImport.filter((count) => count > 0 && count < 5_000).length).toBeGreaterThan(2);
  });

  it('maps other layouts: column names, day-first dates, semicolons, quoted fields, a matching product', async () => {
    await database.database
      .insert(products)
      .values({ id: 'catalogue-metformin', name: 'Glucohal', genericName: 'metformin', atcCode: 'A10BA02' });
    const text =
      'Member;Fill date;Days;Drug\r\nA-1;31/01/2024;30;Metformin\r\nA-1;01/03/2024;30;"Metformin"\r\n"A;2";15/02/2024;90;Other\r\n';
    const report = await importText(text, {
      mapping: { columns: { patientId: 'Member', date: 'Fill date', daysSupply: 'Days', medicationClass: 'Drug' }, dateFormat: 'dmy' },
      source: 'pharmacy-north',
    });
    expect(report).toEqual({ resources: 3, created: { Dispensing: 3 }, unchanged: {}, skipped: [] });
    const rows = await database.database
      .select({
        source: dispensings.source,
        dispensedOn: dispensings.dispensedOn,
        daysSupply: dispensings.daysSupply,
        dosesPerDay: dispensings.dosesPerDay,
        productId: dispensings.productId,
      })
      .from(dispensings)
      .orderBy(dispensings.dispensedOn);
    expect(rows).toEqual([
      { source: 'pharmacy-north', dispensedOn: '2024-01-31', daysSupply: 30, dosesPerDay: null, productId: 'catalogue-metformin' },
      { source: 'pharmacy-north', dispensedOn: '2024-02-15', daysSupply: 90, dosesPerDay: null, productId: null },
      { source: 'pharmacy-north', dispensedOn: '2024-03-01', daysSupply: 30, dosesPerDay: null, productId: 'catalogue-metformin' },
    ]);
    const patientIds = await database.database
      .select({ sourceRecordId: patients.sourceRecordId })
      .from(patients)
      .orderBy(patients.sourceRecordId);
    expect(patientIds).toEqual([{ sourceRecordId: 'A-1' }, { sourceRecordId: 'A;2' }]);
  });

  it('names a missing column and an invalid mapping', async () => {
    const missing = await importText(medicationEvents, { mapping: { columns: { daysSupply: 'DAYS' } } }).catch((error: unknown) => error);
    expect((missing as AppError).message).toBe(
      'The file has 1 problem; nothing was imported:\nline 1: column "DAYS" is missing; the header has PATIENT_ID, DATE, PERDAY, CATEGORY, DURATION',
    );
    const invalid = await importText(medicationEvents, { mapping: { dateFormat: 'ymd' } }).catch((error: unknown) => error);
    expect((invalid as AppError).message).toBe('The import is not valid: mapping.dateFormat: Date format must be iso, mdy or dmy.');
    expect((invalid as AppError).fieldErrors).toEqual({ mapping: 'Date format must be iso, mdy or dmy.' });
  });

  it('refuses a patient', async () => {
    const refusal = await importText(medicationEvents, { actor: { id: 'patient-1', role: 'patient' } }).catch((error: unknown) => error);
    expect((refusal as AppError).code).toBe('forbidden');
    expect(await countRows()).toEqual({ patients: 0, dispensings: 0 });
  });

  it('yields to the event loop while it works, and reports progress', async () => {
    const header = 'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION\n';
    const body = Array.from(
      { length: 12_000 },
      (_, index) => `${index % 700},${String((index % 12) + 1).padStart(2, '0')}/15/2030,1,medA,30`,
    ).join('\n');
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 1);
    const progress: number[] = [];
    try {
      const report = await importText(header + body, { onProgress: (done) => void progress.push(done) });
      expect(report.created).toEqual({ Dispensing: 12_000 });
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(3);
    expect(progress.length).toBeGreaterThan(10);
  });

  it('refuses a future-dated file listing every bad line (the first 100, then how many more), storing nothing', async () => {
    // The case: AdhereR's example file, dated 2030–2044, imported today.
    const failure = await importText(medicationEvents, { now: new Date('2026-11-24T12:00:00Z') }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ImportRefusedError);
    const refused = failure as ImportRefusedError;
    expect(refused.totalProblems).toBe(1080);
    expect(refused.problems).toHaveLength(100);
    expect(refused.problems.map((problem) => problem.line)).toEqual(Array.from({ length: 100 }, (_, index) => index + 2));
    expect(refused.problems[0]).toEqual({
      line: 2,
      resource: null,
      field: 'DATE',
      setting: 'date',
      message: 'DATE "04/26/2033": 2033-04-26 is in the future (after 2026-11-25)',
    });
    const lines = refused.message.split('\n');
    expect(lines[0]).toBe('The file has 1,080 problems; nothing was imported:');
    expect(lines.at(-1)).toBe('and 980 more');
    expect(refused.message).not.toMatch(/--/);
    expect(await countRows()).toEqual({ patients: 0, dispensings: 0 });

    // Tomorrow is accepted (a source ahead of UTC), the day after is not.
    const edge = 'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION\n1,2026-11-25,1,a,30\n2,2026-11-26,1,a,30\n3,2026-11-27,1,a,30\n';
    const edgeFailure = (await importText(edge, { mapping: {}, now: new Date('2026-11-24T23:00:00Z') }).catch(
      (error: unknown) => error,
    )) as ImportRefusedError;
    expect(edgeFailure.problems.map((problem) => problem.line)).toEqual([3, 4]);
    expect(await countRows()).toEqual({ patients: 0, dispensings: 0 });
  });

  it('with medicationCodes "catalogue", links rows to the catalogue product and refuses codes it lacks', async () => {
    await database.database
      .insert(products)
      .values({ id: 'catalogue-metformin', name: 'Glucohal', genericName: 'metformin', atcCode: 'A10BA02', rxnormCode: '860975' });
    const header = 'PATIENT_ID,DATE,DURATION,CATEGORY\n';
    const refused = (await importText(`${header}1,2024-01-01,30,860975\n2,2024-01-02,30,A10BB01\n`, {
      mapping: { medicationCodes: 'catalogue' },
    }).catch((error: unknown) => error)) as ImportRefusedError;
    expect(refused.problems.map((problem) => [problem.line, problem.message])).toEqual([
      [3, 'CATEGORY "A10BB01" is not a product of the catalogue (no product has this code or name)'],
    ]);
    expect(await countRows()).toEqual({ patients: 0, dispensings: 0 });

    const report = await importText(`${header}1,2024-01-01,30,860975\n2,2024-01-02,30,a10ba02\n3,2024-01-03,30,catalogue-metformin\n`, {
      mapping: { medicationCodes: 'catalogue' },
    });
    expect(report.created).toEqual({ Dispensing: 3 });
    const rows = await database.database.select({ productId: dispensings.productId }).from(dispensings);
    expect(rows.map((row) => row.productId)).toEqual(['catalogue-metformin', 'catalogue-metformin', 'catalogue-metformin']);
    expect(await database.database.select({ id: products.id }).from(products)).toHaveLength(1);
  });

  const twoPatients = 'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION\n1,2024-01-01,1,medA,30\n2,2024-01-05,1,medA,30\n';
  async function fillsOf(sourceRecordId: string) {
    return database.database
      .select({ patientId: dispensings.patientId, pseudonym: patients.pseudonym })
      .from(dispensings)
      .innerJoin(patients, eq(patients.id, dispensings.patientId))
      .where(and(eq(patients.source, 'pharmacy-csv'), eq(patients.sourceRecordId, sourceRecordId)));
  }
  async function latestBatchRows() {
    const [batch] = await database.database
      .select({ createdRows: importBatches.createdRows, deliveredRows: importBatches.deliveredRows })
      .from(importBatches)
      .orderBy(desc(importBatches.startedAt));
    return batch;
  }

  it('a patient already there and a new one come back from one statement: the existing row kept as it was, only the new one created', async () => {
    const [existing] = await database.database
      .insert(patients)
      .values({ pseudonym: 'P-EXISTING', source: 'pharmacy-csv', sourceRecordId: '1', region: 'NSW', persona: 'steady' })
      .returning();
    const report = await importText(twoPatients, { mapping: {} });
    expect(report.created).toEqual({ Dispensing: 2 });
    const [after] = await database.database.select().from(patients).where(eq(patients.id, existing!.id));
    expect(after).toEqual(existing);
    expect(await fillsOf('1')).toEqual([{ patientId: existing!.id, pseudonym: 'P-EXISTING' }]);
    expect(await fillsOf('2')).toHaveLength(1);
    expect(await latestBatchRows()).toMatchObject({ createdRows: { patients: 1 }, deliveredRows: { patients: 2 } });
  });

  // The interleaving needs a second connection: PGlite has one, so it runs on PostgreSQL only (TEST_DATABASE_URL).
  it.runIf(backend.name === 'postgres')(
    'a patient a concurrent import inserts while this one waits on it is found, not "missing"',
    async () => {
      const pool = database.driver as pg.Pool;
      const racer = await pool.connect();
      try {
        await racer.query('begin');
        const inserted = await racer.query<{ id: string }>(
          "insert into patients (pseudonym, source, source_record_id) values ('P-RACER', 'pharmacy-csv', '1') returning id",
        );
        // This import's patient statement starts (its snapshot without P-RACER) and waits on the racer's key.
        const importing = importText(twoPatients, { mapping: {} });
        const deadline = Date.now() + 20_000;
        for (;;) {
          // From the pool, not the racer: inside its transaction the statistics views would stay as first read.
          const waiting = await pool.query<{ waiting: number }>(
            "select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
          );
          if (waiting.rows[0]!.waiting > 0) break;
          if (Date.now() > deadline) throw new Error('The import never waited on the concurrent patient insert.');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await racer.query('commit');
        const report = await importing;
        expect(report.created).toEqual({ Dispensing: 2 });
        expect(await fillsOf('1')).toEqual([{ patientId: inserted.rows[0]!.id, pseudonym: 'P-RACER' }]);
        expect(await latestBatchRows()).toMatchObject({ createdRows: { patients: 1 }, deliveredRows: { patients: 2 } });
      } finally {
        await racer.query('rollback').catch(() => undefined);
        racer.release();
      }
    },
    30_000,
  );
});
