/**
 * Pharmacy dispensing CSV → dispensing rows (pure). One row is one fill: patient, date, days supply, and
 * optionally doses a day and the medication (class or code). The default columns are AdhereR's layout
 * (`PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION`); any other layout is mapped column by column.
 */
import Papa from 'papaparse';
import { type DateFormat, dateFormatDescriptions, parseCivilDate } from './calendar-date';
import { type ImportSetting, ImportProblemsError, ProblemList, implausibleDateReason, maximumDaysSupply } from './import-problems';

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
  /**
   * What the medication column holds: 'names' (default) — any class, name or code, kept as written and linked
   * to a product when one has that name; 'catalogue' — codes or names of the product catalogue, so a value no
   * product has is a mistake and refuses the row.
   */
  medicationCodes?: MedicationCodes;
};

export const medicationCodesOptions = ['names', 'catalogue'] as const;
export type MedicationCodes = (typeof medicationCodesOptions)[number];

/** What rows are checked against besides their own shape (the engine stays pure: the caller says what today is). */
export type DispensingCsvChecks = {
  /** Today's date (ISO): dates after tomorrow are refused. */
  today: string;
  /** With `medicationCodes: 'catalogue'`: whether the catalogue has a product with this code or name. */
  isCatalogueProduct?: (value: string) => boolean;
};

/** One row as the file has it, before its fields are read; `syntaxProblem` when the CSV itself is broken there. */
export type RawCsvRow = { line: number; fields: string[]; syntaxProblem: string | null };

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
  /** Every problem of the rows read so far (a bad row is reported here and not returned). */
  readonly problems = new ProblemList();
  readonly medicationCodes: MedicationCodes;
  /** Data rows in the file, counting line breaks (quoted ones make it an upper bound). */
  readonly estimatedRowCount: number;

  constructor(
    private readonly text: string,
    mapping: DispensingCsvMapping,
    private readonly checks: DispensingCsvChecks,
  ) {
    this.dateFormat = mapping.dateFormat ?? 'iso';
    this.medicationCodes = mapping.medicationCodes ?? 'names';
    if (this.medicationCodes === 'catalogue' && checks.isCatalogueProduct === undefined) {
      throw new Error('medicationCodes "catalogue" needs isCatalogueProduct');
    }
    const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    const headerEnd = this.rowEnd(start, 1);
    const headerText = text.slice(start, headerEnd);
    if (headerText.trim() === '') {
      throw new ImportProblemsError(
        [{ line: 1, resource: null, field: 'header', setting: null, message: 'the file is empty; expected a header row' }],
        1,
      );
    }
    this.newline = /\r\n$/.test(headerText) || (!headerText.includes('\n') && headerText.endsWith('\r')) ? '\r\n' : '\n';
    this.delimiter = detectDelimiter(headerText);
    const parsedHeader = Papa.parse<string[]>(headerText, { delimiter: this.delimiter, newline: this.newline });
    this.header = (parsedHeader.data[0] ?? []).map((name) => name.trim());
    this.names = { ...adhereRColumns, ...definedOnly(mapping.columns ?? {}) };
    const headerProblems = new ProblemList();
    const indexOf = (key: keyof DispensingCsvColumns, required: boolean): number => {
      const name = this.names[key];
      if (name === null) return -1;
      const index = this.header.indexOf(name);
      if (index < 0 && required) {
        headerProblems.add({
          line: 1,
          field: name,
          setting: key,
          message: `column "${name}" is missing; the header has ${this.header.join(', ')}`,
        });
      }
      return index;
    };
    const explicit = mapping.columns ?? {};
    this.columns = {
      patientId: indexOf('patientId', true),
      date: indexOf('date', true),
      daysSupply: indexOf('daysSupply', true),
      dosesPerDay: indexOf('dosesPerDay', explicit.dosesPerDay !== undefined),
      medicationClass: indexOf('medicationClass', explicit.medicationClass !== undefined || this.medicationCodes === 'catalogue'),
    };
    if (!headerProblems.empty) throw new ImportProblemsError(headerProblems.listed, headerProblems.total);
    this.position = headerEnd;
    this.line = 1 + countLineBreaks(text, start, headerEnd);
    this.estimatedRowCount = Math.max(countLineBreaks(text, headerEnd, text.length) + (text.endsWith('\n') ? 0 : 1), 0);
  }

  get done(): boolean {
    return this.position >= this.text.length;
  }

  /** The column names the reader uses (the mapping over AdhereR's defaults). */
  get columnNames(): DispensingCsvColumns {
    return { ...this.names };
  }

  /** Whether the file has this column (optional ones may be absent). */
  hasColumn(key: keyof DispensingCsvColumns): boolean {
    return this.columns[key] >= 0;
  }

  /** A field of a raw row, trimmed ('' when the column is absent). */
  fieldOf(row: RawCsvRow, key: keyof DispensingCsvColumns): string {
    const index = this.columns[key];
    return index < 0 ? '' : (row.fields[index] ?? '').replace(/\r$/, '').trim();
  }

  /**
   * The next rows as the file has them (at most `maxRows` lines' worth), blank lines left out; an empty list at
   * the end of the file. `rowOf` reads and checks one.
   */
  readRawRows(maxRows: number): RawCsvRow[] {
    if (this.done) return [];
    const start = this.position;
    const end = this.rowEnd(start, maxRows);
    const chunk = this.text.slice(start, end);
    const rows: RawCsvRow[] = [];
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
        const syntaxProblem =
          problem !== undefined
            ? problem.message
            : fields.length !== this.header.length
              ? `the row has ${fields.length} fields, the header ${this.header.length}`
              : null;
        rows.push({ line, fields, syntaxProblem });
      },
    });
    this.position = end;
    this.line += countLineBreaks(this.text, start, end);
    return rows;
  }

  /** The next rows read and checked (at most `maxRows` lines' worth); a bad row goes to `problems` instead. */
  readRows(maxRows: number): DispensingCsvRow[] {
    const rows: DispensingCsvRow[] = [];
    for (const raw of this.readRawRows(maxRows)) {
      const row = this.rowOf(raw);
      if (row !== null) rows.push(row);
    }
    return rows;
  }

  /** Reads a raw row's fields, reporting every problem of the row (not only the first); null when it has any. */
  rowOf(raw: RawCsvRow): DispensingCsvRow | null {
    const { line } = raw;
    if (raw.syntaxProblem !== null) {
      this.problems.add({ line, field: 'row', message: raw.syntaxProblem });
      return null;
    }
    const before = this.problems.total;
    const problem = (key: ImportSetting, field: string, message: string) => this.problems.add({ line, field, setting: key, message });
    const names = this.names;
    const patientId = this.fieldOf(raw, 'patientId');
    if (patientId === '') problem('patientId', names.patientId, `${names.patientId} is empty`);
    const dateText = this.fieldOf(raw, 'date');
    const dispensedOn = parseCivilDate(dateText, this.dateFormat);
    if (dispensedOn === null) {
      problem('dateFormat', names.date, `${names.date} "${dateText}" is not a date in ${dateFormatDescriptions[this.dateFormat]} format`);
    } else {
      const reason = implausibleDateReason(dispensedOn, { today: this.checks.today });
      if (reason !== null) problem('date', names.date, `${names.date} "${dateText}": ${reason}`);
    }
    const supplyText = this.fieldOf(raw, 'daysSupply');
    const supply = Number(supplyText);
    if (supplyText === '' || !Number.isFinite(supply) || supply <= 0) {
      problem('daysSupply', names.daysSupply, `${names.daysSupply} "${supplyText}" is not a days supply (a number of days > 0)`);
    } else if (supply > maximumDaysSupply) {
      problem('daysSupply', names.daysSupply, `${names.daysSupply} "${supplyText}" is more than ${maximumDaysSupply} days`);
    }
    let dosesPerDay: number | null = null;
    if (this.columns.dosesPerDay >= 0) {
      const doseText = this.fieldOf(raw, 'dosesPerDay');
      const dose = Number(doseText);
      if (doseText !== '' && (!Number.isFinite(dose) || dose <= 0)) {
        problem('dosesPerDay', names.dosesPerDay ?? '', `${names.dosesPerDay} "${doseText}" is not a daily dose (a number > 0)`);
      }
      dosesPerDay = doseText === '' ? null : dose;
    }
    const medicationClass = this.columns.medicationClass >= 0 ? this.fieldOf(raw, 'medicationClass') || null : null;
    if (this.medicationCodes === 'catalogue') {
      const column = names.medicationClass ?? '';
      if (medicationClass === null)
        problem('medicationClass', column, `${column} is empty; the medication must be a product of the catalogue`);
      else if (!this.checks.isCatalogueProduct?.(medicationClass)) {
        problem(
          'medicationCodes',
          column,
          `${column} "${medicationClass}" is not a product of the catalogue (no product has this code or name)`,
        );
      }
    }
    if (this.problems.total > before || dispensedOn === null) return null;
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

/** Reads every row at once (tests, small files); throws ImportProblemsError listing every problem. */
export function parseDispensingCsv(text: string, mapping: DispensingCsvMapping, checks: DispensingCsvChecks): DispensingCsvRow[] {
  const reader = new DispensingCsvReader(text, mapping, checks);
  const rows: DispensingCsvRow[] = [];
  while (!reader.done) for (const row of reader.readRows(10_000)) rows.push(row);
  if (!reader.problems.empty) throw new ImportProblemsError(reader.problems.listed, reader.problems.total);
  return rows;
}

/** The header's column names (for a form that maps columns), even when the mapping does not fit the file. */
export function csvHeaderOf(text: string): string[] {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const end = text.indexOf('\n', start);
  const headerText = text.slice(start, end < 0 ? text.length : end).replace(/\r$/, '');
  const parsed = Papa.parse<string[]>(headerText, { delimiter: detectDelimiter(headerText) });
  return (parsed.data[0] ?? []).map((name) => name.trim()).filter((name) => name !== '');
}
