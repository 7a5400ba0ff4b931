import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CsvInputError, DispensingCsvReader, parseDispensingCsv } from './dispensing-csv';

const medicationEvents = fs.readFileSync(path.resolve(process.cwd(), '../shared/testdata/adherer/med_events.csv'), 'utf8');
const medicationEventsIso = fs.readFileSync(path.resolve(process.cwd(), '../shared/testdata/adherer/med_events_iso.csv'), 'utf8');

describe('dispensing CSV', () => {
  it("reads AdhereR's med_events the same in MM/DD/YYYY and ISO", () => {
    const rows = parseDispensingCsv(medicationEvents, { dateFormat: 'mdy' });
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
    expect(parseDispensingCsv(medicationEventsIso).map((row) => row.sourceRecordId)).toEqual(rows.map((row) => row.sourceRecordId));
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
    const expected = parseDispensingCsv(text, mapping).map((row) => [row.line, row.patientId, row.medicationClass]);
    expect(expected).toEqual([
      [2, '1', 'a\r\nb'],
      [5, '2', 'say "hi"'],
      [6, '3', 'c'],
      [7, '4', 'd'],
    ]);
    for (const batch of [1, 2, 3]) {
      const reader = new DispensingCsvReader(text, mapping);
      const rows = [];
      while (!reader.done) rows.push(...reader.readRows(batch));
      expect(rows.map((row) => [row.line, row.patientId, row.medicationClass])).toEqual(expected);
    }
  });

  it('names the line of a bad row, after a quoted line break', () => {
    const text = 'PATIENT_ID,DATE,DURATION,CATEGORY\n1,2024-01-01,30,"two\nlines"\n2,2024-02-30,30,x\n';
    const error = (() => {
      try {
        parseDispensingCsv(text);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(CsvInputError);
    expect((error as CsvInputError).line).toBe(4);
    expect((error as CsvInputError).message).toBe('line 4: DATE "2024-02-30" is not a date in YYYY-MM-DD format (--date-format iso)');
  });

  it('reads optional columns only when present, and requires those named explicitly', () => {
    expect(parseDispensingCsv('PATIENT_ID,DATE,DURATION\n7,2024-01-01,28\n')[0]).toMatchObject({
      dosesPerDay: null,
      medicationClass: null,
      daysSupply: 28,
    });
    expect(() => parseDispensingCsv('PATIENT_ID,DATE,DURATION\n7,2024-01-01,28\n', { columns: { dosesPerDay: 'PERDAY' } })).toThrow(
      'line 1: column "PERDAY" (--dose-col) is missing; the header has PATIENT_ID, DATE, DURATION',
    );
    expect(() => parseDispensingCsv('')).toThrow('line 1: the file is empty; expected a header row');
  });
});
