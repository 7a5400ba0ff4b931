/**
 * `npm run --silent cli -- trial analyse --input outcomes.csv [--json]`: the trial's analysis (issue 14) from
 * a CSV of the analysis dataset, with the engine functions the trial page uses, so the two always agree.
 * `--json` prints analyseTrialOutcomes' result as it is (undefined values become null); without it, a table.
 * Bad input lists every problem with its line and field on stderr and exits 2.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { analyseTrialOutcomes, type Interval, type TrialAnalysis } from '@/engine/statistics/trial';
import { parseTrialOutcomesCsv, trialOutcomesCsvColumns } from '@/features/trials/parse-trial-outcomes-csv';
import { type CommandIo, processIo } from './command-io';

const usage = `Usage: npm run --silent cli -- trial analyse --input FILE.csv [--json]

Analyse a trial's outcomes, intervention against control (difference = intervention − control, 95% CIs,
two-sided p-values, intention to treat: every row as randomised).

The CSV has a header and the columns ${trialOutcomesCsvColumns.join(',')} in any order:
arm is control or intervention; baseline and outcome are adherence in [0, 1]; adherent is 0 or 1.

Options:
  --input FILE  the CSV to analyse
  --json        print the result as JSON (the trial page's figures) instead of a table
  --help        show this help
`;

class InputError extends Error {}

export async function run(argv: string[], io: CommandIo = processIo): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand === undefined || subcommand === '--help' || subcommand === '-h') {
    io.stdout.write(usage);
    return subcommand === undefined ? 2 : 0;
  }
  if (subcommand !== 'analyse') {
    io.stderr.write(`trial: unknown subcommand "${subcommand}"; the one there is: analyse. See --help.\n`);
    return 2;
  }
  try {
    const options = parseOptions(rest);
    if (options === null) {
      io.stdout.write(usage);
      return 0;
    }
    const parsed = parseTrialOutcomesCsv(readInput(options.input));
    if ('problems' in parsed) {
      io.stderr.write(`trial analyse: ${options.input} has ${parsed.problems.length} problem${parsed.problems.length === 1 ? '' : 's'}:\n`);
      for (const problem of parsed.problems) io.stderr.write(`  ${problem.message}\n`);
      return 2;
    }
    let analysis: TrialAnalysis;
    try {
      analysis = analyseTrialOutcomes(parsed.rows);
    } catch (error) {
      // The engine refuses data it cannot compare (an arm with under 2 participants, a baseline that never varies).
      if (error instanceof RangeError) throw new InputError(`${options.input}: ${error.message}`);
      throw error;
    }
    io.stdout.write(options.json ? `${JSON.stringify(analysis)}\n` : formatTable(analysis));
    return 0;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    io.stderr.write(`trial analyse: ${error.message}\n`);
    return 2;
  }
}

function parseOptions(argv: string[]): { input: string; json: boolean } | null {
  let values;
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: { input: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
    }).values;
  } catch (error) {
    throw new InputError(`${error instanceof Error ? error.message.split('\n')[0]! : String(error)} (see --help)`);
  }
  if (values.help) return null;
  if (values.input === undefined || values.input.trim() === '') throw new InputError('--input FILE.csv is required (see --help)');
  return { input: values.input, json: values.json };
}

function readInput(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : code;
    throw new InputError(`cannot read ${file}: ${reason || 'unreadable'}`);
  }
}

const number = (value: number, digits = 4) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const pValue = (value: number) => (!Number.isFinite(value) ? 'n/a' : value < 0.0001 ? '< 0.0001' : value.toFixed(4));
const interval = (value: Interval | null, digits = 4, whyNull = ''): [string, string] =>
  value === null
    ? ['not estimable', whyNull]
    : [number(value.estimate, digits), `${number(value.ciLow, digits)} to ${number(value.ciHigh, digits)}`];

function formatTable(analysis: TrialAnalysis): string {
  const rows: [string, string, string, string][] = [
    ['Mean outcome difference (Welch)', ...interval(analysis.meanDifference), pValue(analysis.meanDifference.p)],
    ['Adjusted for baseline (ANCOVA)', ...interval(analysis.ancova), pValue(analysis.ancova.p)],
    ['Adherent ≥ 0.8: risk difference (Newcombe)', ...interval(analysis.riskDifference), ''],
    ['Adherent ≥ 0.8: risk ratio (Katz)', ...interval(analysis.riskRatio, 3, 'no one adherent in an arm'), ''],
    ['Adherent ≥ 0.8: odds ratio (Woolf)', ...interval(analysis.oddsRatio, 3, 'a 2 × 2 cell is 0'), ''],
    ["Adherent ≥ 0.8: Fisher's exact test", '', '', pValue(analysis.fisherP)],
    ['Adherent ≥ 0.8: Pearson χ² (no correction)', '', '', pValue(analysis.chiSquareP)],
  ];
  const header: [string, string, string, string] = ['Comparison', 'Estimate', '95% CI', 'p'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 0 || column === 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [
    `Trial analysis: ${analysis.n.intervention} intervention, ${analysis.n.control} control (intention to treat)`,
    'Difference = intervention − control; 95% confidence intervals; two-sided p-values.',
    '',
    line(header),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map(line),
    '',
    `Welch–Satterthwaite df ${number(analysis.meanDifference.df, 1)}. Outcome: dose-level adherence over the follow-up, in [0, 1].`,
    '',
  ].join('\n');
}
