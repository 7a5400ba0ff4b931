/**
 * Test-only: reads AdhereR's reference files from ../shared/testdata/adherer (never copied into the
 * repository). The one module under src/engine that touches the file system; only *.test.ts import it.
 */
import fs from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import { dayNumberFromCivil } from '../day-number';

export type ReferenceRow = Record<string, string>;

export function referencePath(file: string): string {
  return path.resolve(process.cwd(), '../shared/testdata/adherer', file);
}

export function readReference(file: string): ReferenceRow[] {
  const parsed = Papa.parse<ReferenceRow>(fs.readFileSync(referencePath(file), 'utf8'), { header: true, skipEmptyLines: true });
  if (parsed.errors.length > 0) throw new Error(`${file}: ${parsed.errors[0]?.message}`);
  return parsed.data;
}

/** Day number of `YYYY-MM-DD`, `YYYY/MM/DD` or `MM/DD/YYYY`. */
export function referenceDay(text: string): number {
  const iso = /^(\d{4})[-/](\d{2})[-/](\d{2})$/.exec(text);
  if (iso) return dayNumberFromCivil(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const monthFirst = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (monthFirst) return dayNumberFromCivil(Number(monthFirst[3]), Number(monthFirst[1]), Number(monthFirst[2]));
  throw new Error(`not a date: ${text}`);
}

/** `NA` → null, `Inf` → Infinity, else the number. */
export function referenceValue(text: string | undefined): number | null {
  if (text === undefined) throw new Error('missing reference value');
  if (text === 'NA') return null;
  if (text === 'Inf') return Infinity;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`not a number: ${text}`);
  return value;
}

export type ReferenceEvent = { patientId: string; day: number; dose: number; medicationClass: string; duration: number };

/** AdhereR's med.events in file order. */
export function readMedicationEvents(): ReferenceEvent[] {
  return readReference('med_events.csv').map((row) => ({
    patientId: field(row, 'PATIENT_ID'),
    day: referenceDay(field(row, 'DATE')),
    dose: Number(field(row, 'PERDAY')),
    medicationClass: field(row, 'CATEGORY'),
    duration: Number(field(row, 'DURATION')),
  }));
}

export function field(row: ReferenceRow, name: string): string {
  const value = row[name];
  if (value === undefined) throw new Error(`reference row lacks ${name}`);
  return value;
}

/** Groups rows by a key, keeping first-appearance order of keys and file order within a key. */
export function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const name = key(row);
    const group = groups.get(name);
    if (group === undefined) groups.set(name, [row]);
    else group.push(row);
  }
  return groups;
}
