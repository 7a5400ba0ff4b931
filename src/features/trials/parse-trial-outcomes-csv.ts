/**
 * Reads the analysis dataset of `trial analyse` (and of the trial page's CSV export):
 * `patient_id,arm,baseline,outcome,adherent`, a header row first, columns in any order. Browser-safe (no
 * server-only), so a page could check a file before sending it. Returns every problem at once, each naming
 * its line (1 = the header; a quoted field spanning lines counts them all) and field, never just the first.
 */
import Papa from 'papaparse';
import type { TrialOutcomeRow } from '@/engine/statistics/trial';

export type TrialOutcomesCsvProblem = { line: number; field: string; message: string };
export type ParsedTrialOutcomesCsv = { rows: TrialOutcomeRow[] } | { problems: TrialOutcomesCsvProblem[] };

export const trialOutcomesCsvColumns = ['patient_id', 'arm', 'baseline', 'outcome', 'adherent'] as const;
type Column = (typeof trialOutcomesCsvColumns)[number];

/** Decimal notation only: Number() would also take '', '0x1', 'Infinity' and ' '. */
const decimalPattern = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const shown = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);

export function parseTrialOutcomesCsv(text: string): ParsedTrialOutcomesCsv {
  const problems: TrialOutcomesCsvProblem[] = [];
  const problem = (line: number, field: string, detail: string) =>
    problems.push({ line, field, message: `line ${line}, ${field === 'row' ? 'row' : `field ${field}`}: ${detail}` });

  const records = readRecords(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, problem);
  const header = records[0];
  if (header === undefined) {
    problem(1, 'header', `the file is empty; expected the header ${trialOutcomesCsvColumns.join(',')}`);
    return { problems };
  }
  if (header.broken) return { problems };
  const names = header.fields.map((name) => name.trim().toLowerCase());
  const columnIndex = new Map<Column, number>();
  names.forEach((name, index) => {
    if (!(trialOutcomesCsvColumns as readonly string[]).includes(name)) {
      problem(
        header.line,
        name === '' ? `column ${index + 1}` : name,
        `unexpected column; the columns are ${trialOutcomesCsvColumns.join(', ')}`,
      );
    } else if (columnIndex.has(name as Column)) {
      problem(header.line, name, 'the column appears twice');
    } else {
      columnIndex.set(name as Column, index);
    }
  });
  for (const column of trialOutcomesCsvColumns) {
    if (!columnIndex.has(column)) problem(header.line, column, 'the column is missing from the header');
  }
  if (problems.length > 0) return { problems };

  const rows: TrialOutcomeRow[] = [];
  const firstLineOfPatient = new Map<string, number>();
  for (const record of records.slice(1)) {
    if (record.broken) continue;
    if (record.fields.length !== names.length) {
      problem(record.line, 'row', `${record.fields.length} fields where the header has ${names.length}`);
      continue;
    }
    const field = (column: Column) => record.fields[columnIndex.get(column)!]!.trim();
    const before = problems.length;

    const patientId = field('patient_id');
    if (patientId === '') problem(record.line, 'patient_id', 'empty; every row needs a patient identifier');
    else if (firstLineOfPatient.has(patientId))
      problem(record.line, 'patient_id', `${shown(patientId)} already appears on line ${firstLineOfPatient.get(patientId)}`);
    else firstLineOfPatient.set(patientId, record.line);

    const arm = field('arm');
    if (arm !== 'control' && arm !== 'intervention')
      problem(record.line, 'arm', arm === '' ? 'empty, expected control or intervention' : `${shown(arm)} is not control or intervention`);

    const share = (column: 'baseline' | 'outcome') => {
      const value = field(column);
      const number = decimalPattern.test(value) ? Number(value) : NaN;
      if (!(number >= 0 && number <= 1))
        problem(record.line, column, `${value === '' ? 'empty' : shown(value)}, expected a number in [0, 1]`);
      return number;
    };
    const baseline = share('baseline');
    const outcome = share('outcome');

    const adherent = field('adherent');
    if (adherent !== '0' && adherent !== '1')
      problem(record.line, 'adherent', `${adherent === '' ? 'empty' : shown(adherent)}, expected 0 or 1`);

    if (problems.length === before)
      rows.push({ patientId, arm: arm as TrialOutcomeRow['arm'], baseline, outcome, adherent: adherent === '1' ? 1 : 0 });
  }
  if (problems.length === 0 && rows.length === 0) problem(header.line, 'row', 'the file has a header but no participants');
  return problems.length > 0 ? { problems } : { rows };
}

/** `broken`: papaparse found a syntax error in it (already reported), so its fields are not checked. */
type CsvRecord = { line: number; fields: string[]; broken: boolean };

/**
 * The file's non-blank records with the line each starts on. papaparse reports where each record ends
 * (meta.cursor, past its line break), so a record starts where the previous one ended; counting line breaks
 * up to there gives its line, also after quoted fields that contain line breaks.
 */
function readRecords(text: string, problem: (line: number, field: string, detail: string) => void): CsvRecord[] {
  const records: CsvRecord[] = [];
  let line = 1;
  let counted = 0;
  let start = 0;
  Papa.parse<string[]>(text, {
    header: false,
    delimiter: ',',
    skipEmptyLines: false,
    step: (result) => {
      for (; counted < start; counted += 1) {
        if (text[counted] === '\n' || (text[counted] === '\r' && text[counted + 1] !== '\n')) line += 1;
      }
      for (const error of result.errors) problem(line, 'row', `${error.message.replace(/\.$/, '')} (CSV syntax)`);
      const fields = result.data;
      if (!(fields.length === 1 && fields[0]!.trim() === '')) records.push({ line, fields, broken: result.errors.length > 0 });
      start = result.meta.cursor;
    },
  });
  return records;
}
