/**
 * `npm run --silent cli -- seed [--patients N] [--seed S]` loads the synthetic demo dataset (demo companies
 * and products, about 2,000 patients with a year of history, trial cohort A) into the configured database
 * (DATABASE_URL, or the embedded one under DATA_DIR), after applying migrations. A database that already
 * holds synthetic patients is left as it is. The demo accounts are not created here: `npm start` does that.
 */
import { parseArgs } from 'node:util';
import { withAdvisoryLock } from '@/db/advisory-lock';
import { type DatabaseConnection, closeDatabaseConnection, getDatabaseConnection } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { describeDemoDataset } from '@/features/demo-data/server/describe-demo-dataset';
import { demoDatasetDefaults, demoDatasetLockId, seedDemoDataset } from '@/features/demo-data/server/seed-demo-dataset';
import { type CommandIo, processIo } from './command-io';

export type { CommandIo } from './command-io';

const usage = `Usage: npm run --silent cli -- seed [options]

Load the synthetic demo dataset: the demo drug companies and their products, simulated patients with a
year of regimens, dispensings, dose events and messages, and trial cohort A (enrolled and randomised).
Migrations are applied first. Nothing happens if the database already holds synthetic patients.

Options:
  --patients N     simulated patients (default ${demoDatasetDefaults.patientCount}, at most 100000)
  --seed S         random seed, 0–4294967295 (default ${demoDatasetDefaults.seed}); the same seed loads the same data
  --help           show this help
`;

function wholeNumber(option: string, value: string | undefined, fallback: number, minimum: number, maximum: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new RangeError(`--${option} must be a whole number (got "${value}")`);
  const parsed = Number(value);
  if (parsed < minimum || parsed > maximum) throw new RangeError(`--${option} must be from ${minimum} to ${maximum} (got ${value})`);
  return parsed;
}

export type SeedDependencies = { openConnection: () => DatabaseConnection; closeConnection: () => Promise<void> };

const defaultDependencies: SeedDependencies = { openConnection: getDatabaseConnection, closeConnection: closeDatabaseConnection };

export async function run(
  argv: string[],
  io: CommandIo = processIo,
  dependencies: SeedDependencies = defaultDependencies,
): Promise<number> {
  let options: { patients: number; seed: number };
  try {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: { patients: { type: 'string' }, seed: { type: 'string' }, help: { type: 'boolean' } },
    });
    if (values.help === true) {
      io.stdout.write(usage);
      return 0;
    }
    options = {
      patients: wholeNumber('patients', values.patients, demoDatasetDefaults.patientCount, 1, 100_000),
      seed: wholeNumber('seed', values.seed, demoDatasetDefaults.seed, 0, 0xffffffff),
    };
  } catch (error) {
    io.stderr.write(`seed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}. See --help.\n`);
    return 2;
  }

  const connection = dependencies.openConnection();
  try {
    await migrateDatabase(connection);
    // The trial enrols a fifth of the cohort (400 of 2,000 by default).
    const trialSize = Math.round((options.patients * demoDatasetDefaults.trialSize) / demoDatasetDefaults.patientCount);
    const result = await withAdvisoryLock(connection, demoDatasetLockId, () =>
      seedDemoDataset({ database: connection.database, patientCount: options.patients, seed: options.seed, trialSize }),
    );
    io.stdout.write(`${describeDemoDataset(result)}\n`);
    return 0;
  } finally {
    await dependencies.closeConnection();
  }
}
