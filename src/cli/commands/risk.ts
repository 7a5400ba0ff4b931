/**
 * `npm run --silent cli -- risk train|evaluate [--simulate N --seed S] [--weeks W] [--json]` (issue 18):
 * trains the risk models on the earlier weeks and evaluates them on the later weeks, on the configured
 * database's records or, with --simulate, on a freshly simulated cohort of N patients (labelled simulated).
 * `evaluate` prints the evaluation; `train` also stores the trained models as a new version in the configured
 * database (what the neural-network-effect page and the scoring read) and simulates the targeting effect.
 */
import { parseArgs } from 'node:util';
import { type DatabaseConnection, closeDatabaseConnection, getDatabaseConnection } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { simulateHistories, trainAndEvaluate, type RiskEvaluation } from '@/engine/risk';
import { riskModelLabels, riskTrainingInputSchema, type RiskTrainingInput } from '@/features/risk/schemas';
import { loadHistories } from '@/features/risk/server/train-risk-model';
import { trainRiskModel } from '@/features/risk/server/train-risk-model';
import { isAppError } from '@/lib/errors';
import { type CommandIo, processIo } from './command-io';

const usage = `Usage: npm run --silent cli -- risk train|evaluate [--simulate N --seed S] [--weeks W] [--json]

Train the non-adherence risk models (neural network, logistic regression, last-30-day rule) on the earlier
weeks and evaluate them on the later weeks (AUC with DeLong 95% CI, Brier score).

  evaluate      print the evaluation
  train         also store the models as a new version in the configured database

Options:
  --simulate N  a freshly simulated cohort of N patients (100 to 5000) instead of the database's records
  --seed S      the simulation's and the network's seed (default 1)
  --weeks W     weeks of history (12 to 52; default 26)
  --json        print {"models":[{"name","auc","aucLow","aucHigh","brier"}…],"testPatients","testWeeks"}
  --help        show this help
`;

class UsageError extends Error {}

export async function run(argv: string[], io: CommandIo = processIo, connection?: DatabaseConnection): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand === undefined || subcommand === '--help' || subcommand === '-h') {
    io.stdout.write(usage);
    return subcommand === undefined ? 2 : 0;
  }
  if (subcommand !== 'train' && subcommand !== 'evaluate') {
    io.stderr.write(`risk: unknown subcommand "${subcommand}"; the ones there are: train, evaluate. See --help.\n`);
    return 2;
  }
  let options: { input: RiskTrainingInput; json: boolean } | null;
  try {
    options = parseOptions(rest);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`risk ${subcommand}: ${error.message}\n`);
    return 2;
  }
  if (options === null) {
    io.stdout.write(usage);
    return 0;
  }
  const { input, json } = options;
  const needsDatabase = subcommand === 'train' || input.source === 'database';
  const database = needsDatabase ? (connection ?? getDatabaseConnection()) : null;
  try {
    if (database !== null && connection === undefined) await migrateDatabase(database);
    let evaluation: RiskEvaluation;
    let version: number | null = null;
    if (subcommand === 'train') {
      const trained = await trainRiskModel({ database: database!.database, input, createdBy: null });
      evaluation = trained.evaluation;
      version = trained.version;
    } else {
      const histories =
        input.source === 'simulation'
          ? simulateHistories({ patients: input.patients, weeks: input.weeks, seed: input.seed })
          : await loadHistories(database!.database, input);
      evaluation = (await trainAndEvaluate({ histories, seed: input.seed })).evaluation;
    }
    io.stdout.write(json ? `${JSON.stringify(toJson(evaluation))}\n` : formatTable(evaluation, input, version));
    return 0;
  } catch (error) {
    if (isAppError(error) || error instanceof RangeError) {
      io.stderr.write(`risk ${subcommand}: ${error.message}\n`);
      return 2;
    }
    throw error;
  } finally {
    if (database !== null && connection === undefined) await closeDatabaseConnection();
  }
}

function parseOptions(argv: string[]): { input: RiskTrainingInput; json: boolean } | null {
  let values;
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        simulate: { type: 'string' },
        seed: { type: 'string' },
        weeks: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message.split('\n')[0]! : String(error)} (see --help)`);
  }
  if (values.help) return null;
  const integer = (name: string, text: string | undefined) => {
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text.trim())) throw new UsageError(`--${name} must be a whole number, got "${text}"`);
    return Number(text);
  };
  if (values.seed !== undefined && values.simulate === undefined) throw new UsageError('--seed applies with --simulate N (see --help)');
  const parsed = riskTrainingInputSchema.safeParse({
    source: values.simulate === undefined ? 'database' : 'simulation',
    patients: integer('simulate', values.simulate),
    seed: integer('seed', values.seed),
    weeks: integer('weeks', values.weeks),
  });
  if (!parsed.success) {
    const names: Record<string, string> = { patients: '--simulate', seed: '--seed', weeks: '--weeks' };
    throw new UsageError(
      parsed.error.issues.map((issue) => `${names[String(issue.path[0])] ?? String(issue.path[0])}: ${issue.message}`).join('; '),
    );
  }
  return { input: parsed.data, json: values.json };
}

function toJson(evaluation: RiskEvaluation) {
  return {
    models: evaluation.models.map((model) => ({
      name: model.name,
      auc: model.auc,
      aucLow: model.aucLow,
      aucHigh: model.aucHigh,
      brier: model.brier,
    })),
    testPatients: evaluation.testPatients,
    testWeeks: evaluation.testWeeks,
  };
}

function formatTable(evaluation: RiskEvaluation, input: RiskTrainingInput, version: number | null): string {
  const header = ['Model', 'AUC', '95% CI (DeLong)', 'Brier'];
  const rows = evaluation.models.map((model) => [
    riskModelLabels[model.name] ?? model.name,
    model.auc.toFixed(3),
    `${model.aucLow.toFixed(3)} to ${model.aucHigh.toFixed(3)}`,
    model.brier.toFixed(4),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  const source =
    input.source === 'simulation' ? `a simulated cohort of ${input.patients} patients (seed ${input.seed})` : 'the database records';
  return [
    `Risk of adherence < 0.8 over the next 7 days, from ${source}, ${input.weeks} weeks.`,
    `Trained on ${evaluation.trainWeeks} earlier weeks (${evaluation.trainRows} patient-weeks); tested on the ${evaluation.testWeeks} later weeks: ${evaluation.testRows} patient-weeks of ${evaluation.testPatients} patients, ${(evaluation.testPrevalence * 100).toFixed(1)}% below 0.8.`,
    '',
    line(header),
    ...rows.map(line),
    '',
    evaluation.networkBeatsLogistic
      ? 'The network beats logistic regression: its AUC interval lies above the logistic AUC.'
      : 'The network does not beat logistic regression on these weeks (its AUC interval does not lie above the logistic AUC).',
    ...(version === null ? [] : [`Stored as risk model version ${version}.`]),
    '',
  ].join('\n');
}
