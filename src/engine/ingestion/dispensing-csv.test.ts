import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DispensingCsvReader, parseDispensingCsv } from './dispensing-csv';
import { ImportProblemsError } from './import-problems';

// AdhereR's example dates run 2030–2044: checked as of a later day. Other tests use a fixed "today".
const after = { today: '2045-01-01' };
const today = { today: '2026-11-24' };

const medicationEvents = fs.readFileSync(path.resolve(process.cwd(), '../shared/testdata/adherer/med_events.csv'), 'utf8');
const medicationEventsIso = fs.readFileSync(path.resolve(process.cwd(), '../shared/testdata/adherer/med_events_iso.csv'), 'utf8');

describe('dispensing CSV', () => {
  it("reads AdhereR's med_events the same in MM/DD/YYYY and ISO", () => {
    const rows = parseDispensingCsv(medicationEvents, { dateFormat: 'mdy' }, after);
    expect(rows).toHaveLength(1080);
    expect(rows[0]).toEqual({
      line: 2,
      patientId: '1',
      dispensedOn: '2033-04-26',
      daysSupply: 50,
      dosesPerDay: 4,
      medicationClass: 'medA',
      sourceRecordId: '1|2033-04-26|medA|50|4|1',
    });
    expect(parseDispensingCsv(medicationEventsIso, {}, after).map((row) => row.sourceRecordId)).toEqual(
      rows.map((row) => row.sourceRecordId),
    );
    // Two identical rows of patient 26 are two fills with two keys.
    expect(rows.filter((row) => row.sourceRecordId.startsWith('26|2039-02-11|medB|30|2|')).map((row) => row.sourceRecordId)).toEqual([
      '26|2039-02-11|medB|30|2|1',
      '26|2039-02-11|medB|30|2|2',
    ]);
  });

  it('gives the same rows and line numbers whatever the batch size, across quoted line breaks, CRLF, a BOM and blank lines', () => {
    const text =
      '\ufeffid,date,days,drug\r\n1,2024-01-01,30,"a\r\nb"\r\n\r\n2,2024-01-02,30,"say ""hi"""\r\n3,2024-01-03,30,c\r\n"4\r\n",2024-01-04,30,d';
    const mapping = { columns: { patientId: 'id', date: 'date', daysSupply: 'days', medicationClass: 'drug' } };
    const expected = parseDispensingCsv(text, mapping, today).map((row) => [row.line, row.patientId, row.medicationClass]);
    expect(expected).toEqual([
      [2, '1', 'a\r\nb'],
      [5, '2', 'say "hi"'],
      [6, '3', 'c'],
      [7, '4', 'd'],
    ]);
    for (const batch of [1, 2, 3]) {
      const reader = new DispensingCsvReader(text, mapping, today);
      const rows = [];
      while (!reader.done) rows.push(...reader.readRows(batch));
      expect(rows.map((row) => [row.line, row.patientId, row.medicationClass])).toEqual(expected);
    }
  });

  it('names the line of a bad row, after a quoted line break', () => {
    const text = 'PATIENT_ID,DATE,DURATION,CATEGORY\n1,2024-01-01,30,"two\nlines"\n2,2024-02-30,30,x\n';
    const error = (() => {
      try {
        parseDispensingCsv(text, {}, today);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ImportProblemsError);
    expect((error as ImportProblemsError).problems).toEqual([
      { line: 4, resource: null, field: 'DATE', setting: 'dateFormat', message: 'DATE "2024-02-30" is not a date in YYYY-MM-DD format' },
    ]);
    expect((error as ImportProblemsError).message).toBe(
      'The file has 1 problem; nothing was imported:\nline 4: DATE "2024-02-30" is not a date in YYYY-MM-DD format',
    );
  });

  it('reads optional columns only when present, and requires those named explicitly', () => {
    expect(parseDispensingCsv('PATIENT_ID,DATE,DURATION\n7,2024-01-01,28\n', {}, today)[0]).toMatchObject({
      dosesPerDay: null,
      medicationClass: null,
      daysSupply: 28,
    });
    expect(() => parseDispensingCsv('PATIENT_ID,DATE,DURATION\n7,2024-01-01,28\n', { columns: { dosesPerDay: 'PERDAY' } }, today)).toThrow(
      'line 1: column "PERDAY" is missing; the header has PATIENT_ID, DATE, DURATION',
    );
    expect(() => parseDispensingCsv('', {}, today)).toThrow('line 1: the file is empty; expected a header row');
  });

  it('lists every problem of every row: future and pre-1900 dates, absurd supplies, bad doses, bad fields', () => {
    const text = [
      'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION',
      '1,2026-11-25,1,a,30', // tomorrow: accepted (a source a time zone ahead)
      '2,2026-11-26,1,a,30', // after tomorrow
      '3,2035-01-01,0,a,400', // three problems on one line
      '4,1899-12-31,1,a,30',
      '5,2024-01-01,-1,a,-5',
      ',2024-01-01,1,a,30',
      '7,2024-01-01,1,a',
    ].join('\n');
    const error = (() => {
      try {
        parseDispensingCsv(text, {}, today);
      } catch (caught) {
        return caught as ImportProblemsError;
      }
    })();
    expect(error).toBeInstanceOf(ImportProblemsError);
    expect(error?.problems.map((problem) => [problem.line, problem.field, problem.message])).toEqual([
      [3, 'DATE', 'DATE "2026-11-26": 2026-11-26 is in the future (after 2026-11-25)'],
      [4, 'DATE', 'DATE "2035-01-01": 2035-01-01 is in the future (after 2026-11-25)'],
      [4, 'DURATION', 'DURATION "400" is more than 365 days'],
      [4, 'PERDAY', 'PERDAY "0" is not a daily dose (a number > 0)'],
      [5, 'DATE', 'DATE "1899-12-31": 1899-12-31 is before 1900-01-01'],
      [6, 'DURATION', 'DURATION "-5" is not a days supply (a number of days > 0)'],
      [6, 'PERDAY', 'PERDAY "-1" is not a daily dose (a number > 0)'],
      [7, 'PATIENT_ID', 'PATIENT_ID is empty'],
      [8, 'row', 'the row has 4 fields, the header 5'],
    ]);
    expect(error?.total).toBe(9);
  });

  it('caps the list at 100 problems and says how many more there are', () => {
    const rows = Array.from({ length: 130 }, (_, index) => `${index},2030-01-01,1,a,30`);
    const error = (() => {
      try {
        parseDispensingCsv(['PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION', ...rows].join('\n'), {}, today);
      } catch (caught) {
        return caught as ImportProblemsError;
      }
    })();
    expect(error?.problems).toHaveLength(100);
    expect(error?.total).toBe(130);
    expect(error?.message.split('\n').at(-1)).toBe('and 30 more');
    expect(error?.message).not.toMatch(/--/);
  });

  it('with medicationCodes "catalogue", refuses a medication no product has', () => {
    const text = 'PATIENT_ID,DATE,DURATION,CATEGORY\n1,2024-01-01,30,atorvastatin\n2,2024-01-01,30,medZ\n3,2024-01-01,30,\n';
    const isCatalogueProduct = (value: string) => value === 'atorvastatin';
    expect(() => parseDispensingCsv(text, { medicationCodes: 'catalogue' }, { ...today, isCatalogueProduct })).toThrow(
      'line 3: CATEGORY "medZ" is not a product of the catalogue (no product has this code or name)\nline 4: CATEGORY is empty; the medication must be a product of the catalogue',
    );
    expect(
      parseDispensingCsv(text.split('\n').slice(0, 2).join('\n'), { medicationCodes: 'catalogue' }, { ...today, isCatalogueProduct }),
    ).toHaveLength(1);
  });
});
