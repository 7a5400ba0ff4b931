/**
 * `npm run --silent cli -- adherence …`: adherence measures for analysts from a CSV of dispensings,
 * modelled on AdhereR's parameters (see `--help`). Reads the whole file, computes every patient, and
 * only then writes the result (stdout or `--output`), so bad input leaves nothing half-written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  CMA_TYPES,
  DEFAULT_CMA_SETTINGS,
  MPR_FORMS,
  computeCma,
  computeCmaPerEpisode,
  computeMpr,
  computePatientWindows,
  computePqaPdc,
  computeSlidingWindowCma,
  dayNumberFromCivil,
  isoFromDayNumber,
  sortEventsByDay,
  type CmaSettings,
  type CmaType,
  type MedicationEvent,
  type MprForm,
} from '@/engine/adherence';
import { type DateFormat, dateFormatDescriptions, dateFormats, parseCivilDate } from '@/engine/ingestion/calendar-date';

const USAGE = `Usage: npm run --silent cli -- adherence --input FILE.csv --cma CMA1..CMA9|PDC|MPR [options]

Columns (defaults in brackets; dose and class columns are optional unless an option needs them):
  --id-col NAME [PATIENT_ID]  --date-col NAME [DATE]  --duration-col NAME [DURATION]
  --dose-col NAME [PERDAY]    --class-col NAME [CATEGORY]
  --date-format iso|mdy|dmy [iso]        YYYY-MM-DD, MM/DD/YYYY or DD/MM/YYYY (or DD.MM.YYYY)
Windows, in days (follow-up from each patient's first event, observation from the follow-up start):
  --followup-start 0 --followup-duration 730 --observation-start 0 --observation-duration 730
Carry-over (CMA5–CMA9):
  --carry-only-same-medication           discard leftover supply when the medication class changes
  --consider-dosage-change               rescale leftover supply by old dose / new dose
Per treatment episode (CMA1–CMA9):
  --episodes --max-gap 90 [--max-gap-unit days|percent] [--medication-change-new-episode]
In sliding windows (CMA1–CMA9), laid from the observation window start:
  --sliding --window-duration 90 --window-step 30 [--window-start 0]
Other measures:
  PDC   PQA proportion of days covered over the observation window (the class column names the drug:
        shift within a drug, union across drugs; without it all fills are one drug); NA unless the
        patient has fills on 2 different days in the window
  MPR   --mpr-form fixed-period|refill-interval|to-window-end [fixed-period]
--print-resource-usage reports peak memory (maxRSS, KB) and CPU time on stderr (used by npm run bench).
Output: --output FILE.csv (default stdout). patient_id,value; with --episodes patient_id,episode,start,end,value;
with --sliding patient_id,window,start,end,value. Undefined values are NA, dates ISO.`;

/** Bad input or options: reported as one line, exit code 2. */
class InputError extends Error {}

type Measure = CmaType | 'PDC' | 'MPR';

type Options = {
  input: string;
  output: string | undefined;
  measure: Measure;
  columns: { id: string; date: string; duration: string; dose: string; medicationClass: string };
  explicitColumns: { dose: boolean; medicationClass: boolean };
  dateFormat: DateFormat;
  settings: CmaSettings;
  mprForm: MprForm;
  episodes: {
    maximumPermissibleGap: number;
    maximumPermissibleGapUnit: 'days' | 'percent';
    medicationChangeMeansNewEpisode: boolean;
  } | null;
  sliding: { start: number; duration: number; step: number } | null;
  printResourceUsage: boolean;
};

export async function run(argv: string[]): Promise<number> {
  try {
    const options = parseOptions(argv);
    if (options === null) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const table = readEventTable(fs.readFileSync(options.input), options);
    const csv = computeOutput(table, options);
    if (options.output === undefined) {
      await writeToStdout(csv);
    } else {
      writeAtomically(options.output, csv);
    }
    if (options.printResourceUsage) {
      const usage = process.resourceUsage();
      process.stderr.write(`resource-usage maxRSS=${usage.maxRSS} userCPU=${usage.userCPUTime} systemCPU=${usage.systemCPUTime}\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof InputError) {
      process.stderr.write(`Error: ${error.message}\n`);
      return 2;
    }
    if (isNodeError(error) && (error.code === 'ENOENT' || error.code === 'EACCES' || error.code === 'EISDIR')) {
      process.stderr.write(`Error: cannot ${error.syscall ?? 'open'} ${error.path ?? 'file'} (${error.code})\n`);
      return 2;
    }
    throw error;
  }
}

function isNodeError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && 'code' in error;
}

/** Writes beside the target and renames, so readers never see a half-written file. */
function writeAtomically(file: string, text: string): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    fs.writeFileSync(temporary, text);
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw new InputError(`cannot write ${file}${isNodeError(error) && error.code ? ` (${error.code})` : ''}`);
  }
}

function writeToStdout(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (error) => (error ? reject(error) : resolve()));
  });
}

// ---------------------------------------------------------------------------------------------------
// Options

function parseOptions(argv: string[]): Options | null {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        input: { type: 'string' },
        output: { type: 'string' },
        cma: { type: 'string' },
        'id-col': { type: 'string', default: 'PATIENT_ID' },
        'date-col': { type: 'string', default: 'DATE' },
        'duration-col': { type: 'string', default: 'DURATION' },
        'dose-col': { type: 'string' },
        'class-col': { type: 'string' },
        'date-format': { type: 'string', default: 'iso' },
        'followup-start': { type: 'string', default: '0' },
        'followup-duration': { type: 'string', default: '730' },
        'observation-start': { type: 'string', default: '0' },
        'observation-duration': { type: 'string', default: '730' },
        'carry-only-same-medication': { type: 'boolean', default: false },
        'consider-dosage-change': { type: 'boolean', default: false },
        episodes: { type: 'boolean', default: false },
        'max-gap': { type: 'string', default: '90' },
        'max-gap-unit': { type: 'string', default: 'days' },
        'medication-change-new-episode': { type: 'boolean', default: false },
        sliding: { type: 'boolean', default: false },
        'window-start': { type: 'string', default: '0' },
        'window-duration': { type: 'string', default: '90' },
        'window-step': { type: 'string', default: '30' },
        'mpr-form': { type: 'string', default: 'fixed-period' },
        'print-resource-usage': { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new InputError(`${error instanceof Error ? error.message : String(error)} (see --help)`);
  }
  const values = parsed.values;
  if (values.help) return null;
  if (values.input === undefined) throw new InputError('--input FILE.csv is required (see --help)');
  const measure = values.cma?.toUpperCase();
  if (measure === undefined) throw new InputError('--cma is required: CMA1 … CMA9, PDC or MPR (see --help)');
  if (!isMeasure(measure)) throw new InputError(`--cma must be CMA1 … CMA9, PDC or MPR, not "${values.cma}"`);
  const dateFormat = values['date-format'];
  if (!isDateFormat(dateFormat)) throw new InputError(`--date-format must be iso, mdy or dmy, not "${dateFormat}"`);
  const mprForm = values['mpr-form'];
  if (!(MPR_FORMS as readonly string[]).includes(mprForm))
    throw new InputError(`--mpr-form must be ${MPR_FORMS.join(', ')}, not "${mprForm}"`);
  const maxGapUnit = values['max-gap-unit'];
  if (maxGapUnit !== 'days' && maxGapUnit !== 'percent')
    throw new InputError(`--max-gap-unit must be days or percent, not "${maxGapUnit}"`);
  if (values.episodes && values.sliding) throw new InputError('--episodes and --sliding cannot be combined');
  if ((values.episodes || values.sliding) && (measure === 'PDC' || measure === 'MPR')) {
    throw new InputError(`--${values.episodes ? 'episodes' : 'sliding'} works with CMA1 … CMA9, not ${measure}`);
  }

  const settings: CmaSettings = {
    ...DEFAULT_CMA_SETTINGS,
    followUpStart: wholeDays(values['followup-start'], '--followup-start', 0),
    followUpDuration: wholeDays(values['followup-duration'], '--followup-duration', 1),
    observationStart: wholeDays(values['observation-start'], '--observation-start', 0),
    observationDuration: wholeDays(values['observation-duration'], '--observation-duration', 1),
    carryOnlyForSameMedication: values['carry-only-same-medication'],
    considerDosageChange: values['consider-dosage-change'],
  };
  if ((settings.observationStart as number) + (settings.observationDuration as number) > (settings.followUpDuration as number)) {
    throw new InputError('the observation window must lie inside the follow-up window (observation start + duration ≤ follow-up duration)');
  }
  const sliding = values.sliding
    ? {
        start: wholeDays(values['window-start'], '--window-start', 0),
        duration: wholeDays(values['window-duration'], '--window-duration', 1),
        step: wholeDays(values['window-step'], '--window-step', 1),
      }
    : null;
  if (sliding && sliding.start + sliding.duration > (settings.observationDuration as number)) {
    throw new InputError('no sliding window fits: --window-start + --window-duration exceeds the observation window');
  }
  return {
    input: values.input,
    output: values.output,
    measure,
    columns: {
      id: values['id-col'],
      date: values['date-col'],
      duration: values['duration-col'],
      dose: values['dose-col'] ?? 'PERDAY',
      medicationClass: values['class-col'] ?? 'CATEGORY',
    },
    explicitColumns: { dose: values['dose-col'] !== undefined, medicationClass: values['class-col'] !== undefined },
    dateFormat,
    settings,
    mprForm: mprForm as MprForm,
    episodes: values.episodes
      ? {
          maximumPermissibleGap: nonNegativeNumber(values['max-gap'], '--max-gap'),
          maximumPermissibleGapUnit: maxGapUnit,
          medicationChangeMeansNewEpisode: values['medication-change-new-episode'],
        }
      : null,
    sliding,
    printResourceUsage: values['print-resource-usage'],
  };
}

function isMeasure(text: string): text is Measure {
  return text === 'PDC' || text === 'MPR' || (CMA_TYPES as readonly string[]).includes(text);
}

function isDateFormat(text: string): text is DateFormat {
  return (dateFormats as readonly string[]).includes(text);
}

function wholeDays(text: string, option: string, minimum: number): number {
  if (!/^\d+$/.test(text) || Number(text) < minimum)
    throw new InputError(`${option} must be a whole number of days ≥ ${minimum}, not "${text}"`);
  return Number(text);
}

function nonNegativeNumber(text: string, option: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) throw new InputError(`${option} must be a number ≥ 0, not "${text}"`);
  return value;
}

// ---------------------------------------------------------------------------------------------------
// Reading the CSV

/** All events in columns, patients in order of first appearance, rows in file order. */
type EventTable = {
  patientIds: string[];
  patientOfRow: Int32Array;
  day: Int32Array;
  duration: Float64Array;
  dose: Float64Array | null;
  classOfRow: Int32Array | null;
  classNames: string[];
  rowCount: number;
};

const COMMA = 0x2c;
const QUOTE = 0x22;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * A byte-level CSV reader (RFC 4180: quoted fields, doubled quotes, CRLF) that extracts only the
 * columns it needs straight from the buffer. Hand-written rather than papaparse: building a string
 * (or object) per field of a million rows costs more than the whole computation, and the benchmark
 * target counts parsing.
 */
function readEventTable(buffer: Buffer, options: Options): EventTable {
  const reader = new RowReader(buffer);
  if (!reader.nextRow()) throw new InputError('line 1: the file is empty; expected a header row');
  const header = Array.from({ length: reader.fieldCount }, (_, column) => reader.text(column).trim());
  const columnIndex = (name: string, required: boolean, option: string): number => {
    const index = header.indexOf(name);
    if (index < 0 && required) throw new InputError(`line 1: column "${name}" (${option}) is missing; the header has ${header.join(', ')}`);
    return index;
  };
  const medicationChangeMatters = options.episodes?.medicationChangeMeansNewEpisode === true;
  const needsClass = options.settings.carryOnlyForSameMedication || medicationChangeMatters || options.measure === 'PDC';
  const idColumn = columnIndex(options.columns.id, true, '--id-col');
  const dateColumn = columnIndex(options.columns.date, true, '--date-col');
  const durationColumn = columnIndex(options.columns.duration, true, '--duration-col');
  const doseColumn = columnIndex(options.columns.dose, options.settings.considerDosageChange || options.explicitColumns.dose, '--dose-col');
  const classColumn = columnIndex(
    options.columns.medicationClass,
    options.settings.carryOnlyForSameMedication || medicationChangeMatters || options.explicitColumns.medicationClass,
    '--class-col',
  );
  // Only the columns a measure uses are read (and checked).
  const readDose = doseColumn >= 0 && (options.settings.considerDosageChange || options.explicitColumns.dose);
  const readClass = classColumn >= 0 && (needsClass || options.explicitColumns.medicationClass);
  const dateExpectation = `a date in ${dateFormatDescriptions[options.dateFormat]} format (--date-format ${options.dateFormat})`;
  const dates = new DateReader(options.dateFormat);

  // One slot per line is enough (quoted line breaks only make it generous); counting newlines is a
  // native scan, far cheaper than growing the arrays.
  const capacity = countNewlines(buffer) + 1;
  const patientOfRow = new Int32Array(capacity);
  const day = new Int32Array(capacity);
  const duration = new Float64Array(capacity);
  const dose = readDose ? new Float64Array(capacity) : null;
  const classOfRow = readClass ? new Int32Array(capacity) : null;
  const patientIds: string[] = [];
  const patientIndexById = new Map<string, number>();
  const classNames: string[] = [];
  const classIndexByName = new Map<string, number>();
  let previousIdStart = -1;
  let previousIdEnd = -1;
  let previousPatient = -1;
  let rowCount = 0;

  while (reader.nextRow()) {
    if (reader.fieldCount !== header.length)
      throw new InputError(`line ${reader.rowLine}: the row has ${reader.fieldCount} fields, the header ${header.length}`);
    // Consecutive rows usually share the patient: compare bytes before decoding a string.
    if (previousPatient >= 0 && reader.equalsBytes(idColumn, previousIdStart, previousIdEnd)) {
      patientOfRow[rowCount] = previousPatient;
    } else {
      const id = reader.text(idColumn);
      if (id.trim() === '') throw new InputError(`line ${reader.rowLine}: field ${options.columns.id} is empty`);
      let patient = patientIndexById.get(id);
      if (patient === undefined) {
        patient = patientIds.length;
        patientIds.push(id);
        patientIndexById.set(id, patient);
      }
      patientOfRow[rowCount] = patient;
      previousPatient = reader.isQuoted(idColumn) ? -1 : patient;
      previousIdStart = reader.starts[idColumn]!;
      previousIdEnd = reader.ends[idColumn]!;
    }
    const dayNumber = dates.read(reader, dateColumn);
    if (Number.isNaN(dayNumber)) throw badField(reader, dateColumn, options.columns.date, dateExpectation);
    day[rowCount] = dayNumber;
    const supply = parseNumber(reader, durationColumn);
    if (!(supply >= 0)) throw badField(reader, durationColumn, options.columns.duration, 'a duration ≥ 0 days');
    duration[rowCount] = supply;
    if (dose) {
      const value = parseNumber(reader, doseColumn);
      if (!(value > 0)) throw badField(reader, doseColumn, options.columns.dose, 'a daily dose > 0');
      dose[rowCount] = value;
    }
    if (classOfRow) {
      const name = reader.text(classColumn);
      let index = classIndexByName.get(name);
      if (index === undefined) {
        index = classNames.length;
        classNames.push(name);
        classIndexByName.set(name, index);
      }
      classOfRow[rowCount] = index;
    }
    rowCount += 1;
  }
  return { patientIds, patientOfRow, day, duration, dose, classOfRow, classNames, rowCount };
}

function countNewlines(buffer: Buffer): number {
  let count = 0;
  for (let index = buffer.indexOf(NEWLINE); index >= 0; index = buffer.indexOf(NEWLINE, index + 1)) count += 1;
  return count;
}

/**
 * Reads a CSV buffer row by row without allocating: each field is a byte range [start, end) of the
 * buffer (a trailing CR dropped), or, when quoted, a decoded string. Rows without quotes take a tight
 * loop that only looks for commas and the line end; a quote sends the row through the RFC 4180 path.
 */
class RowReader {
  /** Field byte ranges of the current row (grown for wide rows). */
  starts = new Int32Array(64);
  ends = new Int32Array(64);
  /** Decoded quoted fields of the current row (null: use the byte range). */
  private quoted: (string | null)[] = [];
  private rowHasQuotes = false;
  fieldCount = 0;
  /** Line on which the current row starts (1-based). */
  rowLine = 0;
  private position: number;
  private line = 1;

  constructor(readonly buffer: Buffer) {
    this.position = buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0; // byte-order mark
  }

  /** Reads the next non-blank row; false at the end of the buffer. */
  nextRow(): boolean {
    const buffer = this.buffer;
    for (;;) {
      if (this.position >= buffer.length) return false;
      if (buffer[this.position] === NEWLINE) this.position += 1;
      else if (buffer[this.position] === CARRIAGE_RETURN && buffer[this.position + 1] === NEWLINE) this.position += 2;
      else break;
      this.line += 1;
    }
    this.rowLine = this.line;
    if (this.rowHasQuotes) {
      this.quoted.fill(null);
      this.rowHasQuotes = false;
    }
    let cursor = this.position;
    let fieldStart = cursor;
    let fieldCount = 0;
    for (;;) {
      const byte = cursor < buffer.length ? buffer[cursor] : NEWLINE;
      if (byte === COMMA || byte === NEWLINE) {
        this.setField(
          fieldCount,
          fieldStart,
          byte === NEWLINE && cursor > fieldStart && buffer[cursor - 1] === CARRIAGE_RETURN ? cursor - 1 : cursor,
        );
        fieldCount += 1;
        if (byte === NEWLINE) break;
        fieldStart = cursor + 1;
      } else if (byte === QUOTE) {
        this.readQuotedRow();
        return true;
      }
      cursor += 1;
    }
    this.fieldCount = fieldCount;
    this.position = Math.min(cursor + 1, buffer.length);
    this.line += 1;
    return true;
  }

  private setField(index: number, start: number, end: number): void {
    if (index >= this.starts.length) {
      const starts = new Int32Array(this.starts.length * 2);
      const ends = new Int32Array(this.ends.length * 2);
      starts.set(this.starts);
      ends.set(this.ends);
      this.starts = starts;
      this.ends = ends;
    }
    this.starts[index] = start;
    this.ends[index] = end;
  }

  /** The current row again, from its start, with quoted fields (doubled quotes, line breaks inside). */
  private readQuotedRow(): void {
    const buffer = this.buffer;
    let cursor = this.position;
    let fieldCount = 0;
    this.rowHasQuotes = true;
    for (;;) {
      if (buffer[cursor] === QUOTE) {
        let text = '';
        let chunkStart = cursor + 1;
        cursor = chunkStart;
        for (;;) {
          if (cursor >= buffer.length) throw new InputError(`line ${this.rowLine}: a quoted field is not closed`);
          const byte = buffer[cursor];
          if (byte === NEWLINE) this.line += 1;
          if (byte !== QUOTE) {
            cursor += 1;
            continue;
          }
          text += buffer.toString('utf8', chunkStart, cursor);
          if (buffer[cursor + 1] !== QUOTE) break;
          text += '"';
          cursor += 2;
          chunkStart = cursor;
        }
        cursor += 1; // past the closing quote
        this.setField(fieldCount, cursor, cursor);
        this.quoted[fieldCount] = text;
        const after = cursor < buffer.length ? buffer[cursor] : NEWLINE;
        const atLineEnd = after === NEWLINE || (after === CARRIAGE_RETURN && buffer[cursor + 1] === NEWLINE);
        if (after !== COMMA && !atLineEnd) throw new InputError(`line ${this.line}: unexpected character after a quoted field`);
        fieldCount += 1;
        if (atLineEnd) {
          cursor += after === CARRIAGE_RETURN ? 2 : 1;
          break;
        }
        cursor += 1;
        continue;
      }
      const fieldStart = cursor;
      while (cursor < buffer.length && buffer[cursor] !== COMMA && buffer[cursor] !== NEWLINE) cursor += 1;
      const atLineEnd = cursor >= buffer.length || buffer[cursor] === NEWLINE;
      this.setField(
        fieldCount,
        fieldStart,
        atLineEnd && cursor > fieldStart && buffer[cursor - 1] === CARRIAGE_RETURN ? cursor - 1 : cursor,
      );
      this.quoted[fieldCount] = null;
      fieldCount += 1;
      cursor += 1;
      if (atLineEnd) break;
    }
    this.fieldCount = fieldCount;
    this.position = Math.min(cursor, buffer.length);
    this.line += 1;
  }

  isQuoted(column: number): boolean {
    return this.rowHasQuotes && this.quoted[column] != null;
  }

  quotedText(column: number): string | null {
    return this.rowHasQuotes ? (this.quoted[column] ?? null) : null;
  }

  text(column: number): string {
    return this.quotedText(column) ?? this.buffer.toString('utf8', this.starts[column]!, this.ends[column]!);
  }

  byteAt(index: number): number {
    return this.buffer[index] ?? -1;
  }

  /** Whether an unquoted field holds the same bytes as buffer[otherStart, otherEnd). */
  equalsBytes(column: number, otherStart: number, otherEnd: number): boolean {
    const start = this.starts[column]!;
    if (this.isQuoted(column) || otherEnd - otherStart !== this.ends[column]! - start) return false;
    for (let offset = 0; offset < otherEnd - otherStart; offset += 1) {
      if (this.buffer[otherStart + offset] !== this.buffer[start + offset]) return false;
    }
    return true;
  }
}

function badField(reader: RowReader, column: number, name: string, expected: string): InputError {
  const text = reader.text(column);
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return new InputError(
    `line ${reader.rowLine}: field ${name}: ${text.trim() === '' ? `empty, expected ${expected}` : `"${shown}" is not ${expected}`}`,
  );
}

/** Plain decimal integers are read from the bytes; anything else goes through Number(). */
function parseNumber(reader: RowReader, column: number): number {
  const start = reader.starts[column]!;
  const end = reader.ends[column]!;
  if (!reader.isQuoted(column) && end > start && end - start <= 9) {
    let value = 0;
    let cursor = start;
    for (; cursor < end; cursor += 1) {
      const digit = reader.byteAt(cursor) - 0x30;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
    }
    if (cursor === end) return value;
  }
  const text = reader.text(column).trim();
  return text === '' ? NaN : Number(text);
}

/**
 * Reads the field's date with the engine's CSV date parser (the one the web import uses, so both accept
 * the same dates), as a day number, or NaN. A million rows hold few distinct dates: results are cached
 * under a number packed from the field's bytes, so most rows decode no string and run no regular expression.
 */
class DateReader {
  private readonly dayByKey = new Map<number, number>();

  constructor(private readonly format: DateFormat) {}

  read(reader: RowReader, column: number): number {
    const key = reader.isQuoted(column) ? -1 : dateKey(reader, reader.starts[column]!, reader.ends[column]!);
    if (key < 0) return this.parse(reader.text(column));
    let dayNumber = this.dayByKey.get(key);
    if (dayNumber === undefined) {
      dayNumber = this.parse(reader.text(column));
      if (this.dayByKey.size < MAX_CACHED_DATES) this.dayByKey.set(key, dayNumber);
    }
    return dayNumber;
  }

  private parse(text: string): number {
    const iso = parseCivilDate(text, this.format);
    if (iso === null) return NaN;
    return dayNumberFromCivil(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)), Number(iso.slice(8, 10)));
  }
}

const MAX_CACHED_DATES = 100_000;
/** Bytes a date field may hold, numbered from 1 (so keys of different lengths never collide). */
const DATE_BYTE_CODES = new Int8Array(256).fill(-1);
for (const [index, character] of [...'0123456789-/. \t'].entries()) DATE_BYTE_CODES[character.charCodeAt(0)] = index + 1;

/** The field's bytes as one number (4 bits a byte, at most 13 bytes), or -1 when they cannot be packed. */
function dateKey(reader: RowReader, start: number, end: number): number {
  if (end - start > 13) return -1;
  let key = 0;
  for (let cursor = start; cursor < end; cursor += 1) {
    const code = DATE_BYTE_CODES[reader.byteAt(cursor)] ?? -1;
    if (code < 0) return -1;
    key = key * 16 + code;
  }
  return key;
}

// ---------------------------------------------------------------------------------------------------
// Computing and formatting

function computeOutput(table: EventTable, options: Options): string {
  const { rowsInPatientOrder, firstRowOfPatient } = groupRowsByPatient(table);
  const lines: string[] = [
    options.episodes ? 'patient_id,episode,start,end,value' : options.sliding ? 'patient_id,window,start,end,value' : 'patient_id,value',
  ];
  for (let patient = 0; patient < table.patientIds.length; patient += 1) {
    const id = csvField(table.patientIds[patient]!);
    const events = patientEvents(table, rowsInPatientOrder, firstRowOfPatient[patient]!, firstRowOfPatient[patient + 1]!);
    try {
      if (options.episodes) {
        for (const episode of computeCmaPerEpisode(options.measure as CmaType, events, options.settings, {
          ...options.episodes,
          appendMaximumGapToEpisode: false,
        })) {
          lines.push(`${id},${episode.episode},${formatDay(episode.start)},${formatDay(episode.end)},${formatValue(episode.value)}`);
        }
      } else if (options.sliding) {
        for (const window of computeSlidingWindowCma(options.measure as CmaType, events, options.settings, options.sliding)) {
          lines.push(`${id},${window.window},${formatDay(window.start)},${formatDay(window.end)},${formatValue(window.value)}`);
        }
      } else {
        lines.push(`${id},${formatValue(computePatientValue(events, options))}`);
      }
    } catch (error) {
      if (error instanceof RangeError) throw new InputError(`patient ${table.patientIds[patient]}: ${error.message}`);
      throw error;
    }
  }
  lines.push('');
  return lines.join('\n');
}

function computePatientValue(events: readonly MedicationEvent[], options: Options): number | null {
  if (options.measure === 'MPR') return computeMpr(events, options.settings, { form: options.mprForm });
  if (options.measure !== 'PDC') return computeCma(options.measure, events, options.settings);
  const sorted = sortEventsByDay(events);
  const windows = computePatientWindows(sorted[0]!.day, options.settings);
  const fills = sorted.map((event) => ({ day: event.day, daysSupply: event.duration, drug: event.medicationClass }));
  const result = computePqaPdc({ fills, periodStart: windows.observationStart, periodEnd: windows.observationEnd });
  return result.eligible ? result.pdc : null;
}

/**
 * Row numbers grouped by patient (patients in order of first appearance, rows in file order): a
 * counting sort over the patient index, so event objects are only made one patient at a time and die
 * young (a million long-lived objects would cost more in garbage collection than the computation).
 */
function groupRowsByPatient(table: EventTable): { rowsInPatientOrder: Int32Array; firstRowOfPatient: Int32Array } {
  const firstRowOfPatient = new Int32Array(table.patientIds.length + 1);
  for (let row = 0; row < table.rowCount; row += 1) firstRowOfPatient[table.patientOfRow[row]! + 1]! += 1;
  for (let patient = 0; patient < table.patientIds.length; patient += 1) firstRowOfPatient[patient + 1]! += firstRowOfPatient[patient]!;
  const next = firstRowOfPatient.slice(0, table.patientIds.length);
  const rowsInPatientOrder = new Int32Array(table.rowCount);
  for (let row = 0; row < table.rowCount; row += 1) rowsInPatientOrder[next[table.patientOfRow[row]!]!++] = row;
  return { rowsInPatientOrder, firstRowOfPatient };
}

function patientEvents(table: EventTable, rowsInPatientOrder: Int32Array, from: number, to: number): MedicationEvent[] {
  const events = new Array<MedicationEvent>(to - from);
  for (let index = from; index < to; index += 1) {
    const row = rowsInPatientOrder[index]!;
    events[index - from] = {
      day: table.day[row]!,
      duration: table.duration[row]!,
      dose: table.dose ? table.dose[row]! : 1,
      medicationClass: table.classOfRow ? table.classNames[table.classOfRow[row]!]! : '',
    };
  }
  return events;
}

/** Full precision (shortest round-trip); NA for undefined; Inf as R writes it. */
function formatValue(value: number | null): string {
  if (value === null || Number.isNaN(value)) return 'NA';
  if (value === Infinity) return 'Inf';
  return String(value);
}

/** Episode ends can fall inside a day (dose-rescaled supply); a date shows the day it falls in. */
function formatDay(day: number): string {
  return isoFromDayNumber(Math.floor(day));
}

function csvField(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
