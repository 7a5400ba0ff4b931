/**
 * `npm run --silent cli -- import fhir|csv FILE …`: brings a FHIR R4 file or a pharmacy dispensing CSV into
 * the configured database (DATABASE_URL, else the embedded one under DATA_DIR), as the operator. Prints a
 * summary, or with `--json` exactly the import report.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type DatabaseConnection, closeDatabaseConnection, getDatabaseConnection } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { type ImportProblem, type ImportReport, describeProblems } from '@/engine/ingestion';
import { withImportBatchContext } from '@/features/data-import/server/import-batch-context';
import { importDispensingCsv } from '@/features/data-import/server/import-dispensing-csv';
import { importFhir } from '@/features/data-import/server/import-fhir';
import { ImportRefusedError } from '@/features/data-import/server/import-refused';
import { isAppError } from '@/lib/errors';
import { type CommandIo, processIo } from './command-io';

const USAGE = `Usage:
  npm run --silent cli -- import fhir FILE [--source NAME] [--json]
  npm run --silent cli -- import csv FILE [column options] [--date-format iso|mdy|dmy] [--medication-codes names|catalogue]
                                         [--source NAME] [--json]

fhir  a FHIR R4 Bundle (transaction, batch, collection, searchset), NDJSON (one resource per line) or one
      resource: Patient, Medication, MedicationRequest, MedicationDispense, MedicationStatement,
      MedicationAdministration, pharmacy Claim / ExplanationOfBenefit.
csv   a pharmacy dispensing CSV, one fill per row. Columns (AdhereR's layout by default):
        --id-col NAME [PATIENT_ID]  --date-col NAME [DATE]  --duration-col NAME [DURATION] (days supply)
        --dose-col NAME [PERDAY]    --class-col NAME [CATEGORY] (medication class, name or code)
      The dose and class columns are read when present; named explicitly, they are required.
      --date-format iso|mdy|dmy [iso]   YYYY-MM-DD, MM/DD/YYYY or DD/MM/YYYY
      --medication-codes names|catalogue [names]   catalogue: the class column holds product ids, codes or
                                        names of the catalogue, and a value no product has refuses the row
Every row or resource is checked first: a date after tomorrow, before 1900 or before the patient's birth, a
days supply over 365, a dose or quantity <= 0, a FHIR reference to a patient neither in the file nor imported
before from that source refuses the whole file, every problem listed (up to 100), and nothing is stored.
--source NAME  the data source rows are keyed under [fhir | pharmacy-csv]; the same record from two
               sources is two records.
--json         print only the report: {"resources","created","unchanged","skipped"}.
Importing the same file again creates nothing (every row is keyed by source and record id).`;

export type { CommandIo } from './command-io';

/** Bad arguments: one line on stderr, exit code 2. */
class UsageError extends Error {}

type ImportCommand = {
  format: 'fhir' | 'csv';
  file: string;
  json: boolean;
  source: string | undefined;
  mapping: { columns: Record<string, string>; dateFormat?: string; medicationCodes?: string };
};

export async function run(
  argv: string[],
  io: CommandIo = processIo,
  /** Tests pass their own database; otherwise the configured one is opened, migrated and closed. */
  connection?: DatabaseConnection,
  /** "Today" for the date checks (tests fix it). */
  now?: Date,
): Promise<number> {
  let command: ImportCommand | null;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`Error: ${error.message}\n`);
    return 2;
  }
  if (command === null) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }

  let text: string;
  try {
    text = fs.readFileSync(command.file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    io.stderr.write(`Error: cannot read ${command.file} (${code})\n`);
    return 2;
  }

  const database = connection ?? getDatabaseConnection();
  let importing = false;
  try {
    if (connection === undefined) await migrateDatabase(database);
    importing = true;
    // The batch the import is recorded as (decision 013) carries the file's name, not its path.
    const report = await withImportBatchContext({ fileName: path.basename(command.file) }, () =>
      command.format === 'fhir'
        ? importFhir({ database: database.database, actor: 'operator', text, source: command.source, now })
        : importDispensingCsv({
            database: database.database,
            actor: 'operator',
            text,
            mapping: command.mapping,
            source: command.source,
            now,
          }),
    );
    io.stdout.write(command.json ? `${JSON.stringify(report)}\n` : summarise(command, report));
    return 0;
  } catch (error) {
    if (error instanceof ImportRefusedError) {
      io.stderr.write(`Error: ${command.file}: ${describeProblems(error.problems, error.totalProblems, flagHint(command))}\n`);
      return 2;
    }
    if (isAppError(error) && error.code === 'validation') {
      io.stderr.write(`Error: ${command.file}: ${error.message}\n`);
      return 2;
    }
    // Validation errors store nothing; a failure while writing keeps the committed chunks (docs/decisions/004).
    if (importing)
      io.stderr.write(
        `Error: the import of ${command.file} stopped while writing. Rows already written are kept; run the same command again to complete it (nothing is imported twice).\n`,
      );
    throw error;
  } finally {
    if (connection === undefined) await closeDatabaseConnection();
  }
}

function parseCommand(argv: string[]): ImportCommand | null {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        json: { type: 'boolean', default: false },
        source: { type: 'string' },
        'id-col': { type: 'string' },
        'date-col': { type: 'string' },
        'duration-col': { type: 'string' },
        'dose-col': { type: 'string' },
        'class-col': { type: 'string' },
        'date-format': { type: 'string' },
        'medication-codes': { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)} (see --help)`);
  }
  const { values, positionals } = parsed;
  if (values.help) return null;
  const [format, file, ...extra] = positionals;
  if (format !== 'fhir' && format !== 'csv')
    throw new UsageError(`expected "import fhir FILE" or "import csv FILE"${format === undefined ? '' : `, not "${format}"`} (see --help)`);
  if (file === undefined) throw new UsageError(`import ${format} needs a FILE (see --help)`);
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" (see --help)`);
  const csvOptions = ['id-col', 'date-col', 'duration-col', 'dose-col', 'class-col', 'date-format', 'medication-codes'] as const;
  const misplaced = csvOptions.find((name) => values[name] !== undefined);
  if (format === 'fhir' && misplaced !== undefined) throw new UsageError(`--${misplaced} applies to import csv, not import fhir`);
  const dateFormat = values['date-format'];
  if (dateFormat !== undefined && dateFormat !== 'iso' && dateFormat !== 'mdy' && dateFormat !== 'dmy') {
    throw new UsageError(`--date-format must be iso, mdy or dmy, not "${dateFormat}"`);
  }
  const medicationCodes = values['medication-codes'];
  if (medicationCodes !== undefined && medicationCodes !== 'names' && medicationCodes !== 'catalogue') {
    throw new UsageError(`--medication-codes must be names or catalogue, not "${medicationCodes}"`);
  }
  const columns: Record<string, string> = {};
  const columnOptions = {
    'id-col': 'patientId',
    'date-col': 'date',
    'duration-col': 'daysSupply',
    'dose-col': 'dosesPerDay',
    'class-col': 'medicationClass',
  } as const;
  for (const [option, column] of Object.entries(columnOptions) as [keyof typeof columnOptions, string][]) {
    const value = values[option];
    if (value !== undefined) columns[column] = value;
  }
  return {
    format,
    file,
    json: values.json,
    source: values.source,
    mapping: {
      columns,
      ...(dateFormat === undefined ? {} : { dateFormat }),
      ...(medicationCodes === undefined ? {} : { medicationCodes }),
    },
  };
}

const settingFlags: Record<string, string> = {
  patientId: '--id-col',
  date: '--date-col',
  daysSupply: '--duration-col',
  dosesPerDay: '--dose-col',
  medicationClass: '--class-col',
  medicationCodes: '--medication-codes',
};

/** The flag that changes the setting a problem depends on (the engine's messages name none). */
function flagHint(command: ImportCommand): (problem: ImportProblem) => string {
  return (problem) => {
    if (problem.setting === 'dateFormat') return ` (--date-format ${command.mapping.dateFormat ?? 'iso'})`;
    // A column's name matters only when the column is missing; a bad value in it is the file's.
    if (problem.setting !== null && problem.line === 1) return ` (${settingFlags[problem.setting]})`;
    if (problem.setting === 'medicationCodes') return ' (--medication-codes)';
    return '';
  };
}

function formatCounts(counts: Record<string, number>): string {
  const parts = Object.entries(counts).map(([type, count]) => `${type} ${count}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

/** A few lines for a person: counts by type, skipped entries grouped by type and reason. */
function summarise(command: ImportCommand, report: ImportReport): string {
  const lines = [
    `Imported ${command.file}: ${report.resources} ${command.format === 'csv' ? 'rows' : 'resources'}.`,
    `  created:   ${formatCounts(report.created)}`,
    `  unchanged: ${formatCounts(report.unchanged)}`,
    `  skipped:   ${report.skipped.length}`,
  ];
  const groups = new Map<string, number>();
  for (const skipped of report.skipped) {
    const key = `${skipped.resourceType}: ${skipped.reason}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  for (const [key, count] of [...groups].sort((left, right) => right[1] - left[1])) lines.push(`    ${String(count).padStart(5)} × ${key}`);
  if (report.skipped.length > 0) lines.push('  (--json lists every skipped entry with its id)');
  return `${lines.join('\n')}\n`;
}
