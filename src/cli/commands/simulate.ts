/**
 * `npm run --silent cli -- simulate --patients N --days D --seed S --policy P --out DIR --decisions FILE`
 * simulates a synthetic cohort and writes the records the product stores (patients, dispensings in the
 * AdhereR-like layout that `cli adherence` reads, dose events, messages) as CSV, plus summary.json, and
 * with --decisions the policy's decision log (the simulated policy_decisions, for off-policy evaluation).
 * `--report` prints the calibration against the literature instead (DESIGN.md §9).
 *
 * Day numbers and minutes become ISO dates and local times here, at the edge, and nowhere in the engine.
 * Files are written under temporary names and renamed when complete, so a failed run leaves nothing
 * half-written in place of an earlier result.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from '@/lib/zod';
import { dayNumberFromCivil, isoFromDayNumber, isValidCivil } from '@/engine/adherence/day-number';
import { arms, runPolicyResults } from '@/engine/policy/personalised';
import {
  calibrationDays,
  proximalEffectByWeek,
  runCalibration,
  type CalibrationCheck,
  type CalibrationReport,
} from '@/engine/simulation/calibration';
import type { CohortSummary } from '@/engine/simulation/cohort-summary';
import { findDemoProduct } from '@/engine/simulation/demo-catalogue';
import { personas } from '@/engine/simulation/personas';
import { recordDecisions, type DecisionLogEntry } from '@/engine/policy/decision-log';
import { messageCategories, messageFramings } from '@/engine/policy/message-arms';
import { createPolicy, isPolicyName, policyNames } from '@/engine/simulation/policies/policy-registry';
import type { Dispensing, DoseEvent, Message, SimulatedPatient, SimulationSink } from '@/engine/simulation/records';
import { simulateCohort, simulationLimits } from '@/engine/simulation/simulate-cohort';
import { type CommandIo, processIo } from './command-io';

export type { CommandIo } from './command-io';

const defaults = { patients: '1000', days: '365', seed: '1', policy: 'none', start: '2025-01-01', reportPatients: '4000' } as const;

const usage = `Usage: npm run --silent cli -- simulate [options]

Simulate a synthetic cohort under a messaging policy and write its records as CSV.

Options:
  --patients N     patients in the cohort (default ${defaults.patients}; ${defaults.reportPatients} with --report)
  --days D         days to simulate (default ${defaults.days})
  --seed S         random seed, 0–4294967295 (default ${defaults.seed}); the same seed gives identical files
  --policy P       ${policyNames.join(' | ')} (default ${defaults.policy})
  --start DATE     first simulated day, YYYY-MM-DD (default ${defaults.start})
  --out DIR        folder for patients.csv, dispensings.csv, dose_events.csv, messages.csv, summary.json
  --decisions FILE write the policy's decision log as CSV: patient_id, day, action (none or category.framing),
                   propensity, reward (what the product observed), policy_version; --out may then be left out
  --report         print the calibration report (a year, without messages and with daily reminders) and the
                   personalised policy against daily reminders on the same cohort, instead
  --help           show this help
`;

class OptionError extends Error {}

function wholeNumber(option: string, minimum: number, maximum: number) {
  return z
    .string()
    .regex(/^\d+$/, `--${option} must be a whole number`)
    .transform(Number)
    .pipe(z.number().min(minimum, `--${option} must be at least ${minimum}`).max(maximum, `--${option} must be at most ${maximum}`));
}

const optionSchemas = {
  patients: wholeNumber('patients', 1, simulationLimits.maximumPatients),
  days: wholeNumber('days', 1, simulationLimits.maximumDays),
  seed: wholeNumber('seed', 0, 0xffffffff),
};

function parseOption<T>(schema: z.ZodType<T>, value: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new OptionError(`${result.error.issues[0]?.message ?? 'invalid value'} (got "${value}")`);
}

function parseStartDay(value: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const [year, month, day] = match === null ? [NaN, NaN, NaN] : [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!isValidCivil(year, month, day) || year < 1900)
    throw new OptionError(`--start must be a date as YYYY-MM-DD from 1900 on (got "${value}")`);
  return dayNumberFromCivil(year, month, day);
}

type SimulateCommand =
  | { kind: 'help' }
  | { kind: 'report'; patients: number; seed: number; startDay: number }
  | {
      kind: 'simulate';
      patients: number;
      days: number;
      seed: number;
      policy: (typeof policyNames)[number];
      startDay: number;
      /** Folder for the record files, or null to write only the decision log. */
      out: string | null;
      /** File for the decision log, or null. */
      decisions: string | null;
    };

function parseCommand(argv: string[]): SimulateCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        patients: { type: 'string' },
        days: { type: 'string' },
        seed: { type: 'string' },
        policy: { type: 'string' },
        start: { type: 'string' },
        out: { type: 'string' },
        decisions: { type: 'string' },
        report: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new OptionError(error instanceof Error ? error.message.split('\n')[0]! : String(error));
  }
  const values = parsed.values;
  if (values.help === true) return { kind: 'help' };
  const seed = parseOption(optionSchemas.seed, values.seed ?? defaults.seed);
  const startDay = parseStartDay(values.start ?? defaults.start);
  if (values.report === true) {
    for (const option of ['days', 'policy', 'out', 'decisions'] as const) {
      if (values[option] !== undefined)
        throw new OptionError(
          `--${option} cannot be used with --report (it runs a year without messages and with daily reminders, and writes no files)`,
        );
    }
    return { kind: 'report', patients: parseOption(optionSchemas.patients, values.patients ?? defaults.reportPatients), seed, startDay };
  }
  const policy = values.policy ?? defaults.policy;
  if (!isPolicyName(policy)) throw new OptionError(`--policy must be one of ${policyNames.join(', ')} (got "${policy}")`);
  const decisions = parseDecisionsFile(values.decisions);
  if ((values.out === undefined || values.out.trim() === '') && decisions === null)
    throw new OptionError('--out is required: the folder to write the CSV files and summary.json to (or --decisions FILE alone)');
  const out = values.out === undefined || values.out.trim() === '' ? null : path.resolve(values.out);
  if (out !== null && fs.existsSync(out) && !fs.statSync(out).isDirectory())
    throw new OptionError(`--out must be a folder, but ${values.out} is a file`);
  return {
    kind: 'simulate',
    patients: parseOption(optionSchemas.patients, values.patients ?? defaults.patients),
    days: parseOption(optionSchemas.days, values.days ?? defaults.days),
    seed,
    policy,
    startDay,
    out,
    decisions,
  };
}

function parseDecisionsFile(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (value.trim() === '') throw new OptionError('--decisions must name a file');
  const file = path.resolve(value);
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) throw new OptionError(`--decisions must be a file, but ${value} is a folder`);
  return file;
}

export async function run(argv: string[], io: CommandIo = processIo): Promise<number> {
  let command: SimulateCommand;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof OptionError)) throw error;
    io.stderr.write(`simulate: ${error.message}. See --help.\n`);
    return 2;
  }
  switch (command.kind) {
    case 'help':
      io.stdout.write(usage);
      return 0;
    case 'report':
      return printReport(command, io);
    case 'simulate':
      return writeSimulation(command, io);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The calibration report
// ---------------------------------------------------------------------------------------------------------

function formatBand(check: CalibrationCheck): string {
  const format = (value: number) => (Math.abs(value) < 0.1 && value !== 0 ? value.toFixed(3) : value.toFixed(2));
  if (check.minimum !== null && check.maximum !== null) return `${format(check.minimum)}–${format(check.maximum)}`;
  if (check.minimum !== null) return `≥ ${format(check.minimum)}`;
  if (check.maximum !== null) return `≤ ${format(check.maximum)}`;
  return 'any';
}

function personaLines(report: CalibrationReport): string[] {
  const header = ['Persona', 'Patients', 'Mean PDC', 'PDC ≥ 0.8', 'Persisting', 'Lapse', 'Unexplained lapse'];
  const rows = personas.map((persona) => {
    const figures = report.withoutMessages.byPersona[persona];
    return [
      persona,
      String(figures.patients),
      figures.meanPdc.toFixed(3),
      figures.shareAdherent.toFixed(3),
      figures.persistence.toFixed(3),
      figures.longLapseShare.toFixed(3),
      figures.unexplainedLongLapseShare.toFixed(3),
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  return [line(header), ...rows.map(line)];
}

function printReport(command: Extract<SimulateCommand, { kind: 'report' }>, io: CommandIo): number {
  const report = runCalibration({ patientCount: command.patients, seed: command.seed, startDay: command.startDay });
  const rows = report.checks.map((check) => [
    check.label,
    check.value.toFixed(3),
    formatBand(check),
    check.passed ? 'ok' : 'OUT OF BAND',
    check.source,
  ]);
  const header = ['Check', 'Value', 'Target', 'Result', 'Source'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 1 ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  const withoutMessages = report.withoutMessages;
  const lines = [
    `Simulator calibration: ${report.patients} synthetic patients × ${report.days} days, seed ${report.seed}`,
    '',
    line(header),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map(line),
    '',
    `Share at PDC ≥ 0.8 by month, no messages:  ${withoutMessages.shareAdherentByMonth.map((share) => share.toFixed(2)).join(' ')}`,
    `Share at PDC ≥ 0.8 by month, daily:        ${report.dailyReminders.shareAdherentByMonth.map((share) => share.toFixed(2)).join(' ')}`,
    `12-month share at PDC ≥ 0.8: ${withoutMessages.shareAdherent.toFixed(3)} without messages, ${report.dailyReminders.shareAdherent.toFixed(3)} with daily reminders`,
    `Persistence at 12 months (per patient; no gap over 60 days since the first fill): ${withoutMessages.persistence.toFixed(3)} without messages, ${report.dailyReminders.persistence.toFixed(3)} with daily reminders`,
    `Reminder effect on doses taken, weeks 1–8: ${proximalEffectByWeek(report.dailyReminders, withoutMessages)
      .slice(0, 8)
      .map((effect) => effect.toFixed(3))
      .join(' ')}`,
    '',
    'By persona, no messages (lapse: 90 days or more without a dose taken; unexplained: no life event before it):',
    ...personaLines(report),
  ];
  io.stdout.write(`${[...lines, '', ...policyResultLines(command)].join('\n')}\n`);
  // The exit status is the calibration's: a policy that misses its targets is a finding, not a broken simulator.
  return report.checks.every((check) => check.passed) ? 0 : 1;
}

/** The personalised policy against fixed daily reminders on the same cohort (issue 13's targets). */
function policyResultLines(command: Extract<SimulateCommand, { kind: 'report' }>): string[] {
  const results = runPolicyResults({ patients: command.patients, days: calibrationDays, seed: command.seed, startDay: command.startDay });
  const { fixedDaily, personalised, targets } = results;
  const verdict = (met: boolean) => (met ? 'met' : 'NOT MET');
  const outcomeLine = (label: string, outcome: typeof fixedDaily) =>
    `  ${label.padEnd(14)} PDC ≥ 0.8: ${outcome.shareAdherent.toFixed(3)}   mean PDC: ${outcome.meanPdc.toFixed(3)}   messages per patient: ${outcome.messagesPerPatient.toFixed(1)}   opted out: ${outcome.optOutRate.toFixed(3)}`;
  const armLabel = (arm: number) => {
    const { category, framing } = arms[arm - 1]!;
    return `${category}.${framing}`;
  };
  const armRows = results.arms.map((result) => [
    result.persona,
    result.mostChosenArm === null ? 'none sent' : `${armLabel(result.mostChosenArm)} (${(result.share * 100).toFixed(0)}%)`,
    result.truthBestArms.map(armLabel).join(' or '),
    result.matches ? 'match' : 'differs',
  ]);
  const header = ['Persona', 'Most chosen, week 12', 'Simulator best', ''];
  const widths = header.map((title, column) => Math.max(title.length, ...armRows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [
    `Personalised policy vs fixed daily reminders: the same ${results.patients} synthetic patients × ${results.days} days, seed ${results.seed} (PDC over the whole period)`,
    outcomeLine('fixed-daily', fixedDaily),
    outcomeLine('personalised', personalised),
    `Target: PDC ≥ 0.8 share at least fixed daily's: ${verdict(targets.adherence)}; at most half its messages (${(personalised.messagesPerPatient / fixedDaily.messagesPerPatient).toFixed(2)} of them): ${verdict(targets.messages)}`,
    `Most-chosen arm per persona in week ${results.armWeek.endDayIndex / 7} (days ${results.armWeek.startDayIndex + 1}–${results.armWeek.endDayIndex}; share of that persona's messages) vs the simulator's best-fitting arm (evaluation only):`,
    line(header),
    ...armRows.map(line),
    `Target: the best arm for at least 5 of 6 personas: ${targets.matchingPersonas} of ${results.arms.length}, ${verdict(targets.armsMatch)}`,
  ];
}

// ---------------------------------------------------------------------------------------------------------
// CSV output
// ---------------------------------------------------------------------------------------------------------

/** RFC 4180: quote a field holding a comma, quote or line break; double the quotes inside. */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLine(fields: readonly (string | number | boolean | null)[]): string {
  return `${fields.map(csvField).join(',')}\n`;
}

/**
 * Appends text to a file in large synchronous writes (the simulation itself is synchronous). Text is
 * encoded into one reusable buffer at once, so the millions of row strings die young instead of piling
 * up for the garbage collector until the next write.
 */
class BufferedFile {
  private readonly descriptor: number;
  private readonly buffer = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  private open = true;

  constructor(
    readonly temporaryPath: string,
    readonly finalPath: string,
  ) {
    this.descriptor = fs.openSync(temporaryPath, 'w');
  }

  write(text: string): void {
    // A UTF-16 code unit never takes more than three bytes in UTF-8.
    if (this.used + text.length * 3 > this.buffer.length) this.flush();
    if (text.length * 3 > this.buffer.length) fs.writeSync(this.descriptor, text);
    else this.used += this.buffer.write(text, this.used, 'utf8');
  }

  flush(): void {
    let written = 0;
    while (written < this.used) written += fs.writeSync(this.descriptor, this.buffer, written, this.used - written);
    this.used = 0;
  }

  close(): void {
    this.flush();
    fs.closeSync(this.descriptor);
    this.open = false;
  }

  /** After a failure: close without writing what is buffered, and remove the temporary file. */
  discard(): void {
    if (this.open) fs.closeSync(this.descriptor);
    this.open = false;
    fs.rmSync(this.temporaryPath, { force: true });
  }
}

/** Local wall-clock times, formatted once per day and minute. */
class TimeFormatter {
  private readonly dates = new Map<number, string>();
  private readonly times: string[] = Array.from(
    { length: 1440 },
    (_, minute) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`,
  );

  date(day: number): string {
    let iso = this.dates.get(day);
    if (iso === undefined) {
      iso = isoFromDayNumber(day);
      this.dates.set(day, iso);
    }
    return iso;
  }

  time(minute: number): string {
    return this.times[minute] ?? '00:00';
  }

  dateTime(day: number, minute: number): string {
    return `${this.date(day)}T${this.time(minute)}`;
  }
}

const headers = {
  patients: [
    'patient_id',
    'persona',
    'age_band',
    'sex',
    'region',
    'language',
    'timezone',
    'preferred_channel',
    'consent_sms',
    'consent_whatsapp',
    'consent_app',
    'conditions',
    'product_ids',
    'dose_observer',
    'morning_dose_times',
    'evening_dose_times',
  ],
  // The layout of AdhereR's med.events (PATIENT_ID, DATE, PERDAY, CATEGORY, DURATION), with ISO dates.
  dispensings: ['PATIENT_ID', 'DATE', 'PERDAY', 'CATEGORY', 'DURATION'],
  doseEvents: ['patient_id', 'product_id', 'scheduled_at', 'confirmed_at', 'status', 'source'],
  messages: [
    'message_id',
    'patient_id',
    'at',
    'channel',
    'direction',
    'category',
    'framing',
    'template_id',
    'status_history',
    'reply_text',
    'reply_intent',
    'in_reply_to',
  ],
} as const;

function createCsvSink(files: Record<keyof typeof headers, BufferedFile>, counts: Record<keyof typeof headers, number>): SimulationSink {
  const time = new TimeFormatter();
  for (const [name, file] of Object.entries(files) as [keyof typeof headers, BufferedFile][]) file.write(csvLine(headers[name]));
  return {
    patient: (patient: SimulatedPatient) => {
      counts.patients += 1;
      files.patients.write(
        csvLine([
          patient.id,
          patient.persona,
          patient.ageBand,
          patient.sex,
          patient.region,
          patient.language,
          patient.timezone,
          patient.preferredChannel,
          patient.consent.sms,
          patient.consent.whatsapp,
          patient.consent.app,
          patient.conditions.join(';'),
          patient.productIds.join(';'),
          patient.doseObserver,
          patient.routine.morning.map((minute) => time.time(minute)).join(';'),
          patient.routine.evening.map((minute) => time.time(minute)).join(';'),
        ]),
      );
    },
    // Ids, enums, numbers and formatted times never hold a comma, quote or line break, so only free
    // text (reply texts) goes through csvField: this runs millions of times for a large cohort.
    dispensing: (dispensing: Dispensing) => {
      counts.dispensings += 1;
      const perDay = findDemoProduct(dispensing.productId)?.doseOccasions.length ?? 1;
      files.dispensings.write(
        `${dispensing.patientId},${time.date(dispensing.day)},${perDay},${dispensing.productId},${dispensing.daysSupply}\n`,
      );
    },
    doseEvent: (event: DoseEvent) => {
      counts.doseEvents += 1;
      const confirmed =
        event.confirmedDay === null || event.confirmedMinute === null ? '' : time.dateTime(event.confirmedDay, event.confirmedMinute);
      files.doseEvents.write(
        `${event.patientId},${event.productId},${time.dateTime(event.scheduledDay, event.scheduledMinute)},${confirmed},${event.status},${event.source}\n`,
      );
    },
    message: (message: Message) => {
      counts.messages += 1;
      let statusHistory = '';
      for (const change of message.statusHistory)
        statusHistory += `${statusHistory === '' ? '' : '|'}${change.status}@${time.dateTime(change.day, change.minute)}`;
      files.messages.write(
        `${message.id},${message.patientId},${time.dateTime(message.day, message.minute)},${message.channel},${message.direction},${message.category},` +
          `${message.framing ?? ''},${message.templateId ?? ''},${statusHistory},${csvField(message.replyText)},${message.replyIntent ?? ''},${message.inReplyToId ?? ''}\n`,
      );
    },
  };
}

/** Figures rounded for the file: six decimals are plenty and keep the JSON readable. */
function rounded(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? value : Math.round(value * 1e6) / 1e6;
  if (Array.isArray(value)) return value.map(rounded);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, rounded(entry)]));
  return value;
}

function summaryDocument(summary: CohortSummary, counts: Record<keyof typeof headers, number>): unknown {
  const { startDay, ...figures } = summary;
  return rounded({
    description:
      'Synthetic demo data from the Medaptive cohort simulator; refill-based PDC per PQA, averaged over each patient’s products.',
    startDate: isoFromDayNumber(startDay),
    ...figures,
    records: { patients: counts.patients, dispensings: counts.dispensings, doseEvents: counts.doseEvents, messages: counts.messages },
  });
}

/** The decision log's action names: index 0 'none', then 'category.framing' in armIndex order (category-major). */
const actionNames = ['none', ...messageCategories.flatMap((category) => messageFramings.map((framing) => `${category}.${framing}`))];

const decisionHeader = ['patient_id', 'day', 'action', 'propensity', 'reward', 'policy_version'] as const;

function writeSimulation(command: Extract<SimulateCommand, { kind: 'simulate' }>, io: CommandIo): number {
  const suffix = `.partial-${process.pid}`;
  const open: BufferedFile[] = [];
  const summaryPath = command.out === null ? null : path.join(command.out, 'summary.json');
  try {
    let files: Record<keyof typeof headers, BufferedFile> | null = null;
    if (command.out !== null) {
      const out = command.out;
      fs.mkdirSync(out, { recursive: true });
      const fileNames = {
        patients: 'patients.csv',
        dispensings: 'dispensings.csv',
        doseEvents: 'dose_events.csv',
        messages: 'messages.csv',
      } as const;
      files = Object.fromEntries(
        Object.entries(fileNames).map(([name, fileName]) => {
          const file = new BufferedFile(path.join(out, fileName + suffix), path.join(out, fileName));
          open.push(file);
          return [name, file];
        }),
      ) as Record<keyof typeof headers, BufferedFile>;
    }
    const counts = { patients: 0, dispensings: 0, doseEvents: 0, messages: 0 };

    let policy = createPolicy(command.policy);
    let decisionCount = 0;
    if (command.decisions !== null) {
      fs.mkdirSync(path.dirname(command.decisions), { recursive: true });
      const decisionFile = new BufferedFile(command.decisions + suffix, command.decisions);
      open.push(decisionFile);
      decisionFile.write(csvLine(decisionHeader));
      const time = new TimeFormatter();
      // Ids, action names and numbers never hold a comma, quote or line break; the version comes from the policy.
      const onDecision = (entry: DecisionLogEntry) => {
        decisionCount += 1;
        decisionFile.write(
          `${entry.patientId},${time.date(entry.context.day)},${actionNames[entry.action]},${entry.propensity},${entry.observedReward},${csvField(entry.policyVersion)}\n`,
        );
      };
      policy = recordDecisions(policy, onDecision);
    }

    let lastPercent = -1;
    const summary = simulateCohort({
      patientCount: command.patients,
      days: command.days,
      seed: command.seed,
      startDay: command.startDay,
      policy,
      sink: files === null ? {} : createCsvSink(files, counts),
      onProgress: (done, total) => {
        const percent = Math.floor((100 * done) / total);
        if (io.stderr.isTTY === true && percent !== lastPercent) io.stderr.write(`\rsimulating… ${percent}%`);
        lastPercent = percent;
      },
    });
    if (io.stderr.isTTY === true) io.stderr.write('\r\x1b[K');
    for (const file of open) file.close();
    if (summaryPath !== null) fs.writeFileSync(summaryPath + suffix, `${JSON.stringify(summaryDocument(summary, counts), null, 2)}\n`);
    for (const file of open) fs.renameSync(file.temporaryPath, file.finalPath);
    if (summaryPath !== null) fs.renameSync(summaryPath + suffix, summaryPath);
    const lines: string[] = [];
    if (command.out !== null)
      lines.push(
        `Wrote ${counts.patients} patients, ${counts.dispensings} dispensings, ${counts.doseEvents} dose events and ${counts.messages} messages to ${command.out}`,
      );
    if (command.decisions !== null) lines.push(`Wrote ${decisionCount} decisions of ${summary.policy} to ${command.decisions}`);
    lines.push(
      `Mean PDC ${summary.meanPdc.toFixed(3)}, ${(100 * summary.shareAdherent).toFixed(1)}% at PDC ≥ 0.8, ${summary.messagesPerPatient.toFixed(1)} messages per patient, ${(100 * summary.optOutRate).toFixed(1)}% opted out`,
    );
    io.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } catch (error) {
    for (const file of open) file.discard();
    if (summaryPath !== null) fs.rmSync(summaryPath + suffix, { force: true });
    throw error;
  }
}
