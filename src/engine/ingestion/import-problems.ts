import { addDays } from './calendar-date';

/**
 * A reason a file is refused (issue 11 item 2), located and named so each caller can say it in its own terms:
 * the web names its form fields, the command line its flags. The message itself names neither.
 */
export type ImportProblem = {
  /** CSV: the line (1-based; the header is line 1). Null for FHIR. */
  line: number | null;
  /** FHIR: the resource as `Type/id` (or "entry N"). Null for CSV. */
  resource: string | null;
  /** The field at fault: the CSV column as the file names it, or the FHIR element. */
  field: string;
  /** The import setting that may explain it (the CSV date format or a column's mapping), for the caller to name. */
  setting: ImportSetting | null;
  message: string;
};

export type ImportSetting = 'dateFormat' | 'patientId' | 'date' | 'daysSupply' | 'dosesPerDay' | 'medicationClass' | 'medicationCodes';

/** Problems kept per file: enough to see the pattern, bounded whatever the file's size. */
export const maximumListedProblems = 100;

/** Collects every problem of a file, keeping the first `cap` and counting the rest. */
export class ProblemList {
  readonly listed: ImportProblem[] = [];
  total = 0;

  constructor(private readonly cap: number = maximumListedProblems) {}

  add(problem: Omit<ImportProblem, 'setting' | 'line' | 'resource'> & Partial<ImportProblem>): void {
    this.total += 1;
    if (this.listed.length < this.cap)
      this.listed.push({
        line: problem.line ?? null,
        resource: problem.resource ?? null,
        field: problem.field,
        setting: problem.setting ?? null,
        message: problem.message,
      });
  }

  get empty(): boolean {
    return this.total === 0;
  }
}

/** The problems of a file that cannot be imported as it is; nothing of it is stored. */
export class ImportProblemsError extends Error {
  override readonly name = 'ImportProblemsError';
  constructor(
    readonly problems: ImportProblem[],
    readonly total: number,
  ) {
    super(describeProblems(problems, total));
  }
}

/** "line 4" or "MedicationDispense/x": where a problem is. */
export function problemLocation(problem: ImportProblem): string {
  if (problem.line !== null) return `line ${problem.line}`;
  return problem.resource ?? 'the file';
}

/**
 * One text for all problems, one per line, with "and N more" past the list. `hint` lets a caller append its own
 * way of changing a setting (the command line names its flag).
 */
export function describeProblems(
  problems: readonly ImportProblem[],
  total: number,
  hint: (problem: ImportProblem) => string = () => '',
): string {
  const head =
    total === 1
      ? 'The file has 1 problem; nothing was imported:'
      : `The file has ${total.toLocaleString('en-US')} problems; nothing was imported:`;
  const lines = problems.map((problem) => `${problemLocation(problem)}: ${problem.message}${hint(problem)}`);
  if (total > problems.length) lines.push(`and ${(total - problems.length).toLocaleString('en-US')} more`);
  return [head, ...lines].join('\n');
}

/** Dates before this are refused: no dispensing record of a living patient is that old. */
export const earliestPlausibleDate = '1900-01-01';

/** Days supply above this is refused as absurd (no fill covers more than a year). */
export const maximumDaysSupply = 365;

/** Latest acceptable date: today plus one day (a source a time zone ahead may already be tomorrow). */
export function latestPlausibleDate(today: string): string {
  return addDays(today, 1);
}

/**
 * Why a calendar date (ISO) cannot be a record's date, or null when it can: after tomorrow, before 1900, or
 * before the patient's birth when the birth date is known.
 */
export function implausibleDateReason(date: string, bounds: { today: string; birthDate?: string | null }): string | null {
  const latest = latestPlausibleDate(bounds.today);
  if (date > latest) return `${date} is in the future (after ${latest})`;
  if (date < earliestPlausibleDate) return `${date} is before ${earliestPlausibleDate}`;
  if (bounds.birthDate !== undefined && bounds.birthDate !== null && date < bounds.birthDate) {
    return `${date} is before the patient's birth (${bounds.birthDate})`;
  }
  return null;
}
