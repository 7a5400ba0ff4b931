import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type DateFormat, parseCivilDate } from '@/engine/ingestion/calendar-date';
import { run } from './adherence';

const referenceDirectory = path.resolve(process.cwd(), '../shared/testdata/adherer');
const medicationEvents = path.join(referenceDirectory, 'med_events.csv');
const medicationEventsIso = path.join(referenceDirectory, 'med_events_iso.csv');

let directory: string;
let stderr: string;

beforeEach(() => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'adherence-cli-'));
  stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(directory, { recursive: true, force: true });
});

function readCsv(file: string): Record<string, string>[] {
  return Papa.parse<Record<string, string>>(fs.readFileSync(file, 'utf8'), { header: true, skipEmptyLines: true }).data;
}

function readReference(file: string): Record<string, string>[] {
  return readCsv(path.join(referenceDirectory, file));
}

/** The reference's patient ids in order (never none: a loop over no rows would check nothing). */
function patientIds(reference: Record<string, string>[]): string[] {
  const ids = reference.map((row) => row.PATIENT_ID ?? '');
  expect(ids.length).toBeGreaterThan(0);
  return ids;
}

function expectSameValue(actual: string | undefined, expected: string | undefined, label: string): void {
  if (expected === 'NA') {
    expect(actual, label).toBe('NA');
    return;
  }
  expect(Math.abs(Number(actual) - Number(expected)), `${label}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9);
}

/** Runs the command with --output into the temporary directory and returns exit code and rows. */
async function runToFile(argv: string[]): Promise<{ code: number; rows: Record<string, string>[]; text: string }> {
  const output = path.join(directory, 'out.csv');
  const code = await run([...argv, '--output', output]);
  const text = fs.existsSync(output) ? fs.readFileSync(output, 'utf8') : '';
  return { code, rows: text === '' ? [] : readCsv(output), text };
}

function writeInput(name: string, content: string): string {
  const file = path.join(directory, name);
  fs.writeFileSync(file, content);
  return file;
}

describe('adherence command: results', () => {
  it('writes patient_id,value for every patient, equal to AdhereR (CMA1–CMA9, OW 182 + 365, mm/dd/yyyy input)', async () => {
    const reference = readReference('cma1_9_vignette_ow182_365.csv');
    for (const cma of ['CMA1', 'CMA2', 'CMA3', 'CMA4', 'CMA5', 'CMA6', 'CMA7', 'CMA8', 'CMA9']) {
      const { code, rows, text } = await runToFile([
        '--input',
        medicationEvents,
        '--cma',
        cma,
        '--date-format',
        'mdy',
        '--observation-start',
        '182',
        '--observation-duration',
        '365',
      ]);
      expect(code).toBe(0);
      expect(text.split('\n')[0]).toBe('patient_id,value');
      expect(rows).toHaveLength(100);
      rows.forEach((row, index) => {
        expect(row.patient_id).toBe(reference[index]?.PATIENT_ID);
        expectSameValue(row.value, reference[index]?.[cma], `${cma} patient ${row.patient_id}`);
      });
    }
  });

  it('passes the carry-over options through (same medication only, dose change)', async () => {
    const reference = readReference('cma5_9_vignette_ow182_365_sameMed_dose.csv');
    const { code, rows } = await runToFile([
      '--input',
      medicationEventsIso,
      '--cma',
      'CMA8',
      '--observation-start',
      '182',
      '--observation-duration',
      '365',
      '--carry-only-same-medication',
      '--consider-dosage-change',
    ]);
    expect(code).toBe(0);
    expect(rows.map((row) => row.patient_id)).toEqual(patientIds(reference));
    rows.forEach((row, index) => expectSameValue(row.value, reference[index]?.CMA8, `patient ${row.patient_id}`));
  });

  it('--episodes writes patient_id,episode,start,end,value equal to CMA_per_episode', async () => {
    const reference = readReference('per_episode_CMA1_9_all.csv').filter((row) => row['CMA.type'] === 'CMA9');
    expect(reference.length).toBeGreaterThan(100);
    const { code, rows, text } = await runToFile([
      '--input',
      medicationEventsIso,
      '--cma',
      'CMA9',
      '--episodes',
      '--max-gap',
      '180',
      '--medication-change-new-episode',
    ]);
    expect(code).toBe(0);
    expect(text.split('\n')[0]).toBe('patient_id,episode,start,end,value');
    expect(rows).toHaveLength(reference.length);
    rows.forEach((row, index) => {
      const expected = reference[index]!;
      expect([row.patient_id, row.episode, row.start, row.end]).toEqual([
        expected.PATIENT_ID,
        expected['episode.ID'],
        expected['episode.start'],
        expected['episode.end'],
      ]);
      expectSameValue(row.value, expected.CMA, `patient ${row.patient_id} episode ${row.episode}`);
    });
  });

  it('--sliding writes patient_id,window,start,end,value equal to CMA_sliding_window', async () => {
    const reference = readReference('sliding_CMA9_120_step30_pat37_76.csv');
    expect(reference.length).toBeGreaterThan(2);
    const subset = writeInput(
      'two-patients.csv',
      fs
        .readFileSync(medicationEventsIso, 'utf8')
        .split('\n')
        .filter((line, index) => index === 0 || line.startsWith('37,') || line.startsWith('76,'))
        .join('\n'),
    );
    const { code, rows, text } = await runToFile([
      '--input',
      subset,
      '--cma',
      'CMA9',
      '--sliding',
      '--window-duration',
      '120',
      '--window-step',
      '30',
    ]);
    expect(code).toBe(0);
    expect(text.split('\n')[0]).toBe('patient_id,window,start,end,value');
    expect(rows.map((row) => [row.patient_id, row.window, row.start, row.end])).toEqual(
      reference.map((row) => [row.PATIENT_ID, row['window.ID'], row['window.start'], row['window.end']]),
    );
    rows.forEach((row, index) => expectSameValue(row.value, reference[index]?.CMA, `patient ${row.patient_id} window ${row.window}`));
  });

  it('PDC is the PQA measure over the observation window, NA when not eligible', async () => {
    const reference = readReference('pdc_med_events_ow182_365.csv');
    const { code, rows } = await runToFile([
      '--input',
      medicationEventsIso,
      '--cma',
      'PDC',
      '--observation-start',
      '182',
      '--observation-duration',
      '365',
    ]);
    expect(code).toBe(0);
    expect(rows.map((row) => row.patient_id)).toEqual(patientIds(reference));
    rows.forEach((row, index) => {
      const expected = reference[index]!;
      expectSameValue(row.value, expected.PQA_eligible_2fills === 'TRUE' ? expected.PDC_per_drug_union : 'NA', `patient ${row.patient_id}`);
    });
  });

  it('MPR forms equal CMA1 and CMA2 where they coincide', async () => {
    const reference = readReference('cma1_9_vignette_ow182_365.csv');
    const window = ['--observation-start', '182', '--observation-duration', '365'];
    const refillInterval = await runToFile(['--input', medicationEventsIso, '--cma', 'MPR', '--mpr-form', 'refill-interval', ...window]);
    expect(refillInterval.code).toBe(0);
    expect(refillInterval.rows.map((row) => row.patient_id)).toEqual(patientIds(reference));
    refillInterval.rows.forEach((row, index) => expectSameValue(row.value, reference[index]?.CMA1, `patient ${row.patient_id}`));
    const toWindowEnd = await runToFile(['--input', medicationEventsIso, '--cma', 'mpr', '--mpr-form', 'to-window-end', ...window]);
    expect(toWindowEnd.code).toBe(0);
    expect(toWindowEnd.rows.map((row) => row.patient_id)).toEqual(patientIds(reference));
    toWindowEnd.rows.forEach((row, index) => expectSameValue(row.value, reference[index]?.CMA2, `patient ${row.patient_id}`));
  });

  it('reads other column names and date formats, quoted fields, CRLF line ends, a byte-order mark and blank lines', async () => {
    const input = writeInput(
      'custom.csv',
      '\uFEFFsupply,"patient, id",when\r\n30,"a ""1""",31/01/2024\r\n\r\n30,"a ""1""",01/03/2024\r\n60,b,15/01/2024\r\n',
    );
    const { code, rows } = await runToFile([
      '--input',
      input,
      '--cma',
      'CMA1',
      '--id-col',
      'patient, id',
      '--date-col',
      'when',
      '--duration-col',
      'supply',
      '--date-format',
      'dmy',
      '--followup-duration',
      '365',
      '--observation-duration',
      '365',
    ]);
    expect(code).toBe(0);
    // Patient a"1": fills on 31 Jan and 1 Mar (30 days apart), first supply 30 days → CMA1 = 1. Patient b: one fill → NA.
    expect(rows).toEqual([
      { patient_id: 'a "1"', value: '1' },
      { patient_id: 'b', value: 'NA' },
    ]);
  });

  it('prints to stdout without --output', async () => {
    let stdout = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, callback?: unknown) => {
      stdout += String(chunk);
      if (typeof callback === 'function') (callback as () => void)();
      return true;
    });
    const input = writeInput('one.csv', 'PATIENT_ID,DATE,DURATION\n7,2024-01-01,30\n7,2024-01-31,30\n');
    expect(await run(['--input', input, '--cma', 'CMA7', '--followup-duration', '60', '--observation-duration', '60'])).toBe(0);
    expect(stdout).toBe('patient_id,value\n7,1\n');
  });
});

describe('adherence command: dates are read as the web import reads them (one parser)', () => {
  it('reads "01.02.2020" with --date-format dmy as 1 February 2020, as the import does', async () => {
    expect(parseCivilDate('01.02.2020', 'dmy')).toBe('2020-02-01');
    const input = writeInput('dotted.csv', 'PATIENT_ID,DATE,DURATION\n1,01.02.2020,30\n1,"01.02.2020",30\n');
    const { code, rows } = await runToFile(['--input', input, '--cma', 'CMA1', '--date-format', 'dmy', '--episodes']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ patient_id: '1', episode: '1', start: '2020-02-01' });
  });

  const cases: [DateFormat, string][] = [
    ['dmy', '1/2/2020'],
    ['dmy', '31.12.1999'],
    ['dmy', '29.02.2020'],
    ['dmy', '29.02.2021'],
    ['dmy', '01-02-2020'],
    ['dmy', '1.2.20'],
    ['mdy', '02/01/2020'],
    ['mdy', '2.1.2020'],
    ['mdy', '13/01/2020'],
    ['iso', '2020-2-1'],
    ['iso', '2020/02/01'],
    ['iso', ' 2020-02-01 '],
    ['iso', '02020-01-01'],
    ['iso', '2020-01-01T00:00'],
  ];
  it.each(cases)("--date-format %s %j: the import's date, or rejected as the import rejects it", async (format, text) => {
    const expected = parseCivilDate(text, format);
    const input = writeInput('one.csv', `PATIENT_ID,DATE,DURATION\n1,${text},30\n`);
    const { code, rows } = await runToFile(['--input', input, '--cma', 'CMA1', '--date-format', format, '--episodes']);
    if (expected === null) {
      expect(code).toBe(2);
      expect(stderr).toMatch(/line 2: field DATE: ".*" is not a date in/);
    } else {
      expect(code).toBe(0);
      expect(rows.map((row) => row.start)).toEqual([expected]);
    }
  });
});

describe('adherence command: bad input stops with one line naming the line and field, and writes nothing', () => {
  const cases = [
    {
      name: 'a missing column',
      content: 'PATIENT_ID,DATE\n1,2024-01-01\n',
      message: /line 1: column "DURATION" \(--duration-col\) is missing/,
    },
    {
      name: 'an unparseable date',
      content: 'PATIENT_ID,DATE,DURATION\n1,2024-01-01,30\n1,2024-02-30,30\n',
      message: /line 3: field DATE: "2024-02-30" is not a date in YYYY-MM-DD format/,
    },
    {
      name: 'a negative duration',
      content: 'PATIENT_ID,DATE,DURATION\n1,2024-01-01,30\n\n1,2024-02-01,-5\n',
      message: /line 4: field DURATION: "-5" is not a duration ≥ 0 days/,
    },
    { name: 'an empty duration', content: 'PATIENT_ID,DATE,DURATION\n1,2024-01-01,\n', message: /line 2: field DURATION: empty/ },
    { name: 'a short row', content: 'PATIENT_ID,DATE,DURATION\n1,2024-01-01\n', message: /line 2: the row has 2 fields, the header 3/ },
    { name: 'an unclosed quote', content: 'PATIENT_ID,DATE,DURATION\n"1,2024-01-01,30\n', message: /line 2: a quoted field is not closed/ },
    {
      name: 'a bad date after a quoted line break (lines counted as in the file)',
      content: 'PATIENT_ID,DATE,DURATION\n"two\nlines",2024-01-01,30\n1,01/02/2024,30\n',
      message: /line 4: field DATE: "01\/02\/2024" is not a date in YYYY-MM-DD format/,
    },
  ];

  it.each(cases)('$name', async ({ content, message }) => {
    const input = writeInput('bad.csv', content);
    const output = path.join(directory, 'out.csv');
    fs.writeFileSync(output, 'previous result\n');
    expect(await run(['--input', input, '--cma', 'CMA9', '--output', output])).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(fs.readFileSync(output, 'utf8')).toBe('previous result\n');
    expect(fs.readdirSync(directory).sort()).toEqual(['bad.csv', 'out.csv']);
  });

  it('a dose column is required for --consider-dosage-change', async () => {
    const input = writeInput('no-dose.csv', 'PATIENT_ID,DATE,DURATION\n1,2024-01-01,30\n');
    expect(await run(['--input', input, '--cma', 'CMA7', '--consider-dosage-change'])).toBe(2);
    expect(stderr).toMatch(/line 1: column "PERDAY" \(--dose-col\) is missing/);
  });

  it.each([
    [['--cma', 'CMA7'], /--input FILE.csv is required/],
    [['--input', 'x.csv', '--cma', 'CMA10'], /--cma must be CMA1 … CMA9, PDC or MPR/],
    [['--input', 'x.csv', '--cma', 'CMA7', '--date-format', 'ymd'], /--date-format must be iso, mdy or dmy/],
    [['--input', 'x.csv', '--cma', 'CMA7', '--observation-start=-3'], /--observation-start must be a whole number of days/],
    [
      ['--input', 'x.csv', '--cma', 'CMA7', '--observation-start', '400', '--observation-duration', '365'],
      /observation window must lie inside/,
    ],
    [['--input', 'x.csv', '--cma', 'PDC', '--episodes'], /--episodes works with CMA1 … CMA9, not PDC/],
    [['--input', 'x.csv', '--cma', 'CMA7', '--bogus'], /Unknown option '--bogus'/],
    [
      ['--input', path.join(os.tmpdir(), 'does-not-exist-adherence.csv'), '--cma', 'CMA7'],
      /cannot open .*does-not-exist-adherence\.csv \(ENOENT\)/,
    ],
  ])('rejects %j', async (argv, message) => {
    expect(await run(argv)).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('an output folder that does not exist is an error, and leaves no temporary file behind', async () => {
    const output = path.join(directory, 'missing', 'out.csv');
    expect(await run(['--input', medicationEventsIso, '--cma', 'CMA7', '--output', output])).toBe(2);
    expect(stderr).toMatch(/cannot write .*missing\/out\.csv \(ENOENT\)/);
    expect(fs.readdirSync(directory)).toEqual([]);
  });

  it('--help prints the usage and succeeds', async () => {
    let stdout = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stdout += String(chunk);
      return true;
    });
    expect(await run(['--help'])).toBe(0);
    expect(stdout).toContain('--cma CMA1..CMA9|PDC|MPR');
  });
});
