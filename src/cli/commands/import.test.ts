import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispensings, patients } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { captureIo } from './command-io';
import { run } from './import';

const shared = path.resolve(process.cwd(), '../shared/testdata');
const usCore = path.join(shared, 'fhir/uscore_bundle_patient_85.json');
const medicationEvents = path.join(shared, 'adherer/med_events.csv');

describe.each(testDatabaseBackends())('cli import on $name', (backend) => {
  let database: TestDatabase;
  let directory: string;
  beforeEach(async () => {
    database = await backend.create();
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cli-'));
  });
  afterEach(async () => {
    await database.dispose();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  async function runImport(argv: string[], now?: Date) {
    const io = captureIo();
    const code = await run(argv, io, database, now);
    return { code, stdout: io.out(), stderr: io.err() };
  }

  it('import fhir FILE --json prints exactly the report; the second run creates nothing', async () => {
    const first = await runImport(['fhir', usCore, '--json']);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    const report = JSON.parse(first.stdout) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual(['resources', 'created', 'unchanged', 'skipped']);
    expect(report).toMatchObject({
      resources: 264,
      created: { Patient: 1, MedicationRequest: 13, Medication: 1, MedicationDispense: 1 },
      unchanged: {},
    });
    expect(report.skipped).toHaveLength(248);

    const second = await runImport(['fhir', usCore, '--json']);
    expect(JSON.parse(second.stdout)).toMatchObject({
      created: {},
      unchanged: { Patient: 1, MedicationRequest: 13, Medication: 1, MedicationDispense: 1 },
    });
  });

  it('without --json prints a summary grouped by reason', async () => {
    const { code, stdout } = await runImport(['fhir', usCore]);
    expect(code).toBe(0);
    expect(stdout).toContain('264 resources.');
    expect(stdout).toContain('created:   Patient 1, MedicationRequest 13, Medication 1, MedicationDispense 1');
    expect(stdout).toContain('65 × Observation: resource type not imported');
  });

  it("import csv imports AdhereR's file with --date-format mdy, and maps columns by flags", async () => {
    // AdhereR's example dates run 2030–2044: imported as of 2045.
    const adherer = await runImport(['csv', medicationEvents, '--date-format', 'mdy', '--json'], new Date('2045-01-01T00:00:00Z'));
    expect(adherer.code).toBe(0);
    expect(JSON.parse(adherer.stdout)).toEqual({ resources: 1080, created: { Dispensing: 1080 }, unchanged: {}, skipped: [] });

    const file = path.join(directory, 'fills.csv');
    fs.writeFileSync(file, 'member,filled,supply,per_day,drug\nm-1,31/12/2023,28,1,atorvastatin\nm-1,28/01/2024,28,1,atorvastatin\n');
    const mapped = await runImport([
      'csv',
      file,
      '--id-col',
      'member',
      '--date-col',
      'filled',
      '--duration-col',
      'supply',
      '--dose-col',
      'per_day',
      '--class-col',
      'drug',
      '--date-format',
      'dmy',
      '--source',
      'north-pharmacy',
      '--json',
    ]);
    expect(mapped.stderr).toBe('');
    expect(JSON.parse(mapped.stdout)).toEqual({ resources: 2, created: { Dispensing: 2 }, unchanged: {}, skipped: [] });
    expect(await database.database.select({ id: patients.id }).from(patients)).toHaveLength(101);
  });

  it('a bad row exits 2 naming the file and line, and stores nothing', async () => {
    const file = path.join(directory, 'bad.csv');
    fs.writeFileSync(file, 'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION\n1,2024-01-01,1,medA,30\n2,2024-01-02,1,medA,thirty\n');
    const { code, stdout, stderr } = await runImport(['csv', file, '--json']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `Error: ${file}: The file has 1 problem; nothing was imported:\nline 3: DURATION "thirty" is not a days supply (a number of days > 0)\n`,
    );
    expect(await database.database.select({ id: dispensings.id }).from(dispensings)).toEqual([]);
  });

  it('a future-dated file exits 2 listing every bad line (100, then how many more), with the flag to change the date format', async () => {
    const future = await runImport(['csv', medicationEvents, '--date-format', 'mdy'], new Date('2026-11-24T12:00:00Z'));
    expect(future.code).toBe(2);
    const lines = future.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`Error: ${medicationEvents}: The file has 1,080 problems; nothing was imported:`);
    expect(lines[1]).toBe('line 2: DATE "04/26/2033": 2033-04-26 is in the future (after 2026-11-25)');
    expect(lines).toHaveLength(102);
    expect(lines.at(-1)).toBe('and 980 more');
    expect(await database.database.select({ id: dispensings.id }).from(dispensings)).toEqual([]);

    const file = path.join(directory, 'dmy.csv');
    fs.writeFileSync(file, 'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION\n1,25/12/2024,1,medA,30\n');
    expect((await runImport(['csv', file])).stderr).toBe(
      `Error: ${file}: The file has 1 problem; nothing was imported:\nline 2: DATE "25/12/2024" is not a date in YYYY-MM-DD format (--date-format iso)\n`,
    );
  });

  it('answers usage errors with exit 2 and --help with 0', async () => {
    expect(await runImport(['xml', 'file'])).toMatchObject({
      code: 2,
      stderr: 'Error: expected "import fhir FILE" or "import csv FILE", not "xml" (see --help)\n',
    });
    expect(await runImport(['fhir'])).toMatchObject({ code: 2, stderr: 'Error: import fhir needs a FILE (see --help)\n' });
    expect(await runImport(['fhir', usCore, '--date-format', 'mdy'])).toMatchObject({
      code: 2,
      stderr: 'Error: --date-format applies to import csv, not import fhir\n',
    });
    expect(await runImport(['csv', medicationEvents, '--date-format', 'ymd'])).toMatchObject({
      code: 2,
      stderr: 'Error: --date-format must be iso, mdy or dmy, not "ymd"\n',
    });
    expect(await runImport(['fhir', path.join(directory, 'missing.json')])).toMatchObject({
      code: 2,
      stderr: `Error: cannot read ${path.join(directory, 'missing.json')} (ENOENT)\n`,
    });
    const help = await runImport(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('npm run --silent cli -- import csv FILE');
  });
});
