import type { DateFormat } from './calendar-date';
import {
  type DispensingCsvChecks,
  type DispensingCsvColumns,
  type DispensingCsvMapping,
  DispensingCsvReader,
  csvHeaderOf,
} from './dispensing-csv';
import { type DateFormatGuess, guessDateFormat } from './guess-date-format';
import { type ImportProblem, ImportProblemsError } from './import-problems';

/** One row of the preview as it would be stored (the date as ISO, so it cannot be misread), or as written when bad. */
export type DispensingPreviewRow = {
  line: number;
  patientId: string;
  /** The date as read (ISO), or null when it is not a date in the format used. */
  dispensedOn: string | null;
  dateText: string;
  daysSupply: string;
  dosesPerDay: string | null;
  medication: string | null;
  /** False when the row has a problem (listed with its line in `problems`). */
  valid: boolean;
};

export type DispensingCsvPreview = {
  header: string[];
  /** Columns read (the mapping over AdhereR's defaults); null when the header lacks a required one. */
  columns: DispensingCsvColumns | null;
  /** The format the dates were read in: the one asked for, else the guess. */
  dateFormat: DateFormat;
  /** What the file's dates suggest (two candidates: no day above 12, the user must say). */
  dateFormatGuess: DateFormatGuess;
  rows: DispensingPreviewRow[];
  /** Data rows in the file. */
  rowCount: number;
  problems: ImportProblem[];
  totalProblems: number;
};

/** Rows read between two pauses of the caller; the preview reads the whole file to find every problem. */
const batchRows = 10_000;

/**
 * What an import of this CSV would store, without storing anything: the first rows as read, the date format
 * guessed from every date of the file (unless the mapping says it), and every problem (up to the cap). Pure.
 */
export function previewDispensingCsv(
  text: string,
  mapping: DispensingCsvMapping,
  checks: DispensingCsvChecks,
  options: { rows?: number } = {},
): DispensingCsvPreview {
  const shown = options.rows ?? 10;
  let guess: DateFormatGuess;
  try {
    const scan = new DispensingCsvReader(text, { ...mapping, dateFormat: 'iso', medicationCodes: 'names' }, checks);
    const dates: string[] = [];
    while (!scan.done) for (const row of scan.readRawRows(batchRows)) if (row.syntaxProblem === null) dates.push(scan.fieldOf(row, 'date'));
    guess = guessDateFormat(dates);
  } catch (error) {
    if (!(error instanceof ImportProblemsError)) throw error;
    return {
      header: csvHeaderOf(text),
      columns: null,
      dateFormat: mapping.dateFormat ?? 'iso',
      dateFormatGuess: { format: null, candidates: [], sampled: 0 },
      rows: [],
      rowCount: 0,
      problems: error.problems,
      totalProblems: error.total,
    };
  }
  const dateFormat = mapping.dateFormat ?? guess.format ?? guess.candidates[0] ?? 'iso';
  const reader = new DispensingCsvReader(text, { ...mapping, dateFormat }, checks);
  const rows: DispensingPreviewRow[] = [];
  let rowCount = 0;
  while (!reader.done) {
    for (const raw of reader.readRawRows(batchRows)) {
      rowCount += 1;
      const row = reader.rowOf(raw);
      if (rows.length < shown) {
        rows.push({
          line: raw.line,
          patientId: reader.fieldOf(raw, 'patientId'),
          dispensedOn: row?.dispensedOn ?? null,
          dateText: reader.fieldOf(raw, 'date'),
          daysSupply: reader.fieldOf(raw, 'daysSupply'),
          dosesPerDay: reader.hasColumn('dosesPerDay') ? reader.fieldOf(raw, 'dosesPerDay') : null,
          medication: reader.hasColumn('medicationClass') ? reader.fieldOf(raw, 'medicationClass') : null,
          valid: row !== null,
        });
      }
    }
  }
  return {
    header: reader.header,
    columns: reader.columnNames,
    dateFormat,
    dateFormatGuess: guess,
    rows,
    rowCount,
    problems: reader.problems.listed,
    totalProblems: reader.problems.total,
  };
}
