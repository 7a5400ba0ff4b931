/**
 * `npm run --silent cli -- <command> [options]`: the analyst's and operator's command line.
 * Each command lives in src/cli/commands/<command>.ts and exports `run(argv: string[]): Promise<number>`
 * (the exit code). Errors for the user go to stderr as one readable line; no stack traces.
 */
type Command = { summary: string; load: () => Promise<{ run: (argv: string[]) => Promise<number> }> };

const commands: Record<string, Command> = {
  // Register commands here, one line each.
  simulate: { summary: 'Simulate a synthetic cohort under a messaging policy', load: () => import('./commands/simulate') },
  adherence: { summary: 'Adherence measures (CMA1–CMA9, PDC, MPR) from a CSV of dispensings', load: () => import('./commands/adherence') },
  seed: {
    summary: 'Load the synthetic demo dataset (companies, products, ~2,000 patients, trial cohort A)',
    load: () => import('./commands/seed'),
  },
  import: { summary: 'Import FHIR R4 or a pharmacy dispensing CSV into the database', load: () => import('./commands/import') },
  trial: {
    summary: "Analyse a trial's outcomes from a CSV (trial analyse --input FILE.csv [--json])",
    load: () => import('./commands/trial'),
  },
  risk: {
    summary: 'Train and evaluate the non-adherence risk model (risk train|evaluate [--simulate N --seed S] [--json])',
    load: () => import('./commands/risk'),
  },
  'whatsapp-export': {
    summary: 'Parse a WhatsApp "Export chat" text file (whatsapp-export FILE [--json] [--timezone ZONE] [--date-order dmy|mdy|ymd])',
    load: () => import('./commands/whatsapp-export'),
  },
};

function usage(): string {
  const lines = Object.entries(commands).map(([name, command]) => `  ${name.padEnd(12)} ${command.summary}`);
  return ['Usage: npm run --silent cli -- <command> [options]', '', 'Commands:', ...lines].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    process.stdout.write(`${usage()}\n`);
    return name === undefined ? 1 : 0;
  }
  const command = commands[name];
  if (command === undefined) {
    process.stderr.write(`Unknown command "${name}".\n${usage()}\n`);
    return 2;
  }
  return (await command.load()).run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
