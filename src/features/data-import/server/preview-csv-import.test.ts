import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, dataSources, dispensings, patients, products } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { AppError } from '@/lib/errors';
import { previewCsvImport } from './preview-csv-import';

const clinician = { id: 'clinician-1', role: 'clinician' as const };
const now = new Date('2026-11-24T12:00:00Z');

describe.each(testDatabaseBackends())('previewCsvImport on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  async function countRows() {
    const db = database.database;
    return {
      patients: (await db.select({ id: patients.id }).from(patients)).length,
      dispensings: (await db.select({ id: dispensings.id }).from(dispensings)).length,
      dataSources: (await db.select({ id: dataSources.id }).from(dataSources)).length,
    };
  }

  it('reads the file as an import would, guessing the date format, and writes nothing', async () => {
    const text = 'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION\n1,25/10/2026,1,statin,30\n2,03/11/2026,2,statin,28\n3,02/01/2027,1,statin,30\n';
    const preview = await previewCsvImport({ database: database.database, actor: clinician, input: { text, mapping: {} }, now });
    expect(preview.dateFormat).toBe('dmy');
    expect(preview.rows.map((row) => [row.patientId, row.dispensedOn, row.valid])).toEqual([
      ['1', '2026-10-25', true],
      ['2', '2026-11-03', true],
      ['3', null, false],
    ]);
    expect(preview.problems).toEqual([
      {
        line: 4,
        resource: null,
        field: 'DATE',
        setting: 'date',
        message: 'DATE "02/01/2027": 2027-01-02 is in the future (after 2026-11-25)',
      },
    ]);
    expect(await countRows()).toEqual({ patients: 0, dispensings: 0, dataSources: 0 });
  });

  it('checks catalogue codes against the product catalogue when the mapping says so', async () => {
    await database.database.insert(products).values({ id: 'catalogue-metformin', name: 'Glucohal', genericName: 'metformin' });
    const text = 'PATIENT_ID,DATE,DURATION,CATEGORY\n1,2026-01-01,30,Metformin\n2,2026-01-01,30,medX\n';
    const preview = await previewCsvImport({
      database: database.database,
      actor: clinician,
      input: { text, mapping: { medicationCodes: 'catalogue' } },
      now,
    });
    expect(preview.problems.map((problem) => [problem.line, problem.setting])).toEqual([[3, 'medicationCodes']]);
    expect(await countRows()).toEqual({ patients: 0, dispensings: 0, dataSources: 0 });
  });

  it('refuses a patient (audited) and an invalid mapping', async () => {
    const refusal = await previewCsvImport({
      database: database.database,
      actor: { id: 'patient-1', role: 'patient' },
      input: { text: 'PATIENT_ID,DATE,DURATION\n', mapping: {} },
    }).catch((error: unknown) => error);
    expect((refusal as AppError).code).toBe('forbidden');
    const audit = await database.database
      .select({ outcome: auditLog.outcome })
      .from(auditLog)
      .where(eq(auditLog.action, 'data-import.preview'));
    expect(audit).toEqual([{ outcome: 'denied' }]);
    const invalid = await previewCsvImport({
      database: database.database,
      actor: clinician,
      input: { text: 'PATIENT_ID,DATE,DURATION\n', mapping: { dateFormat: 'ymd' } },
    }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(AppError);
    expect((invalid as AppError).fieldErrors).toEqual({ mapping: 'Date format must be iso, mdy or dmy.' });
  });
});
