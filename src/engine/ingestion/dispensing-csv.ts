/**
 * Pharmacy dispensing CSV → dispensing rows (pure). One row is one fill: patient, date, days supply, and
 * optionally doses a day and the medication (class or code). The default columns are AdhereR's layout
 * (`PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION`); any other layout is mapped column by column.
 */
import Papa from 'papaparse';
import { type DateFormat, dateFormatDescriptions, parseCivilDate } from './calendar-date';

/** Bad input: the import stops, and the message names the line (1-based, the header is line 1). */
export class CsvInputError extends Error {
  override readonly name = 'CsvInputError';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

export type DispensingCsvColumns = {
  patientId: string;
  date: string;
  daysSupply: string;
  /** null: not read. */
  dosesPerDay: string | null;
  medicationClass: string | null;
};

export const adhereRColumns: DispensingCsvColumns = {
  patientId: 'PATIENT_ID',
  date: 'DATE',
  daysSupply: 'DURATION',
  dosesPerDay: 'PERDAY',
  medicationClass: 'CATEGORY',
};

/**
 * Which columns to read. A column left undefined takes its AdhereR name; the optional ones (dose, class)
 * are then read only when the header has them, while a column named explicitly must be there.
 */
export type DispensingCsvMapping = {
  columns?: Partial<DispensingCsvColumns>;
  dateFormat?: DateFormat;
};

export type DispensingCsvRow = {
  /** Line the row starts on. */
  line: number;
  patientId: string;
  dispensedOn: string;
  daysSupply: number;
  dosesPerDay: number | null;
  medicationClass: string | null;
  /** The row's idempotency key: its content plus its occurrence among identical rows. */
  sourceRecordId: string;
};

type ColumnIndexes = { patientId: number; date: number; daysSupply: number; dosesPerDay: number; medicationClass: number };

const columnOptions: Record<keyof DispensingCsvColumns, string> = {
  patientId: '--id-col',
  date: '--date-col',
  daysSupply: '--duration-col',
  dosesPerDay: '--dose-col',
  medicationClass: '--class-col',
};

/**
 * Reads rows a batch at a time, so a caller can yield to the event loop between batches of a large file.
 * Batches end on row boundaries found by quote parity: a line break ends a row only outside quotes, and
 * RFC 4180 quotes (doubled inside fields) keep an even count outside them.
 */
export class DispensingCsvReader {
  readonly header: string[];
  readonly dateFormat: DateFormat;
  private readonly columns: ColumnIndexes;
  private readonly names: DispensingCsvColumns;
  private readonly delimiter: string;
  private readonly newline: '\n' | '\r\n';
  private position: number;
  /** Line at `position` (1-based). */
  private line: number;
  private readonly occurrences = new Map<string, number>();
  /** Data rows in the file, counting line breaks (quoted ones make it an upper bound). */
  readonly estimatedRowCount: number;

  constructor(
    private readonly text: string,
    mapping: DispensingCsvMapping = {},
  ) {
    this.dateFormat = mapping.dateFormat ?? 'iso';
    const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    const headerEnd = this.rowEnd(start, 1);
    const headerText = text.slice(start, headerEnd);
    if (headerText.trim() === '') throw new CsvInputError(1, 'the file is empty; expected a header row');
    this.newline = /\r\n$/.test(headerText) || (!headerText.includes('\n') && headerText.endsWith('\r')) ? '\r\n' : '\n';
    this.delimiter = detectDelimiter(headerText);
    const parsedHeader = Papa.parse<string[]>(headerText, { delimiter: this.delimiter, newline: this.newline });
    this.header = (parsedHeader.data[0] ?? []).map((name) => name.trim());
    this.names = { ...adhereRColumns, ...definedOnly(mapping.columns ?? {}) };
    const indexOf = (key: keyof DispensingCsvColumns, required: boolean): number => {
      const name = this.names[key];
      if (name === null) return -1;
      const index = this.header.indexOf(name);
      if (index < 0 && required) {
        throw new CsvInputError(1, `column "${name}" (${columnOptions[key]}) is missing; the header has ${this.header.join(', ')}`);
      }
      return index;
    };
    const explicit = mapping.columns ?? {};
    this.columns = {
      patientId: indexOf('patientId', true),
      date: indexOf('date', true),
      daysSupply: indexOf('daysSupply', true),
      dosesPerDay: indexOf('dosesPerDay', explicit.dosesPerDay !== undefined),
      medicationClass: indexOf('medicationClass', explicit.medicationClass !== undefined),
    };
    this.position = headerEnd;
    this.line = 1 + countLineBreaks(text, start, headerEnd);
    this.estimatedRowCount = Math.max(countLineBreaks(text, headerEnd, text.length) + (text.endsWith('\n') ? 0 : 1), 0);
  }

  get done(): boolean {
    return this.position >= this.text.length;
  }

  /** The next rows (at most `maxRows` lines' worth); an empty list at the end of the file. */
  readRows(maxRows: number): DispensingCsvRow[] {
    if (this.done) return [];
    const start = this.position;
    const end = this.rowEnd(start, maxRows);
    const chunk = this.text.slice(start, end);
    const rows: DispensingCsvRow[] = [];
    let rowStart = 0;
    let lineAtRowStart = this.line;
    Papa.parse<string[]>(chunk, {
      delimiter: this.delimiter,
      newline: this.newline,
      step: (result) => {
        const line = lineAtRowStart;
        const fields = result.data;
        const rowEnd = result.meta.cursor;
        lineAtRowStart += countLineBreaks(chunk, rowStart, rowEnd);
        rowStart = rowEnd;
        if (fields.length === 1 && (fields[0] ?? '').trim() === '') return; // a blank line
        const problem = result.errors[0];
        if (problem !== undefined) throw new CsvInputError(line, problem.message);
        rows.push(this.rowOf(fields, line));
      },
    });
    this.position = end;
    this.line += countLineBreaks(this.text, start, end);
    return rows;
  }

  private rowOf(fields: string[], line: number): DispensingCsvRow {
    if (fields.length !== this.header.length) {
      throw new CsvInputError(line, `the row has ${fields.length} fields, the header ${this.header.length}`);
    }
    const field = (index: number): string => (fields[index] ?? '').replace(/\r$/, '').trim();
    const patientId = field(this.columns.patientId);
    if (patientId === '') throw new CsvInputError(line, `${this.names.patientId} is empty`);
    const dateText = field(this.columns.date);
    const dispensedOn = parseCivilDate(dateText, this.dateFormat);
    if (dispensedOn === null) {
      throw new CsvInputError(
        line,
        `${this.names.date} "${dateText}" is not a date in ${dateFormatDescriptions[this.dateFormat]} format (--date-format ${this.dateFormat})`,
      );
    }
    const supplyText = field(this.columns.daysSupply);
    const supply = Number(supplyText);
    if (supplyText === '' || !Number.isFinite(supply) || supply <= 0) {
      throw new CsvInputError(line, `${this.names.daysSupply} "${supplyText}" is not a days supply (a number of days > 0)`);
    }
    let dosesPerDay: number | null = null;
    if (this.columns.dosesPerDay >= 0) {
      const doseText = field(this.columns.dosesPerDay);
      const dose = Number(doseText);
      if (doseText !== '' && (!Number.isFinite(dose) || dose <= 0)) {
        throw new CsvInputError(line, `${this.names.dosesPerDay} "${doseText}" is not a daily dose (a number > 0)`);
      }
      dosesPerDay = doseText === '' ? null : dose;
    }
    const medicationClass = this.columns.medicationClass >= 0 ? field(this.columns.medicationClass) || null : null;
    const daysSupply = Math.max(1, Math.round(supply));
    // Identical rows (a fill recorded twice) are distinct fills: the n-th copy gets its own key.
    const content = [patientId, dispensedOn, medicationClass ?? '', daysSupply, dosesPerDay ?? ''].join('|');
    const occurrence = (this.occurrences.get(content) ?? 0) + 1;
    this.occurrences.set(content, occurrence);
    return { line, patientId, dispensedOn, daysSupply, dosesPerDay, medicationClass, sourceRecordId: `${content}|${occurrence}` };
  }

  /** The offset after `rows` complete rows from `start` (or the end of the text). */
  private rowEnd(start: number, rows: number): number {
    const text = this.text;
    let position = start;
    let quotesOdd = false;
    let complete = 0;
    // Searched once and kept: looking for a quote from every line of a file without any would rescan to its end.
    let nextQuote = text.indexOf('"', start);
    while (position < text.length && complete < rows) {
      const newline = text.indexOf('\n', position);
      const end = newline < 0 ? text.length : newline + 1;
      while (nextQuote >= 0 && nextQuote < end) {
        quotesOdd = !quotesOdd;
        nextQuote = text.indexOf('"', nextQuote + 1);
      }
      position = end;
      if (!quotesOdd) complete += 1;
    }
    return position;
  }
}

function definedOnly(columns: Partial<DispensingCsvColumns>): Partial<DispensingCsvColumns> {
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

function countLineBreaks(text: string, start: number, end: number): number {
  let count = 0;
  for (let index = text.indexOf('\n', start); index >= 0 && index < end; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}

/** Comma unless the header clearly uses semicolons or tabs (spreadsheet exports in many locales). */
function detectDelimiter(header: string): string {
  const counts = [',', ';', '\t'].map((delimiter) => ({ delimiter, count: header.split(delimiter).length - 1 }));
  const best = counts.reduce((left, right) => (right.count > left.count ? right : left));
  return best.count > 0 ? best.delimiter : ',';
}

/** Reads every row at once (tests, small files). */
export function parseDispensingCsv(text: string, mapping: DispensingCsvMapping = {}): DispensingCsvRow[] {
  const reader = new DispensingCsvReader(text, mapping);
  const rows: DispensingCsvRow[] = [];
  while (!reader.done) for (const row of reader.readRows(10_000)) rows.push(row);
  return rows;
}
