import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureIo } from './command-io';
import { csvField, run } from './simulate';

let workDirectory: string;
beforeEach(() => {
  workDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'simulate-'));
});
afterEach(() => {
  fs.rmSync(workDirectory, { recursive: true, force: true });
});

const outputFiles = ['dispensings.csv', 'dose_events.csv', 'messages.csv', 'patients.csv', 'summary.json'];

async function simulateInto(directory: string, extra: string[] = []): Promise<{ code: number; io: ReturnType<typeof captureIo> }> {
  const io = captureIo();
  const code = await run(['--patients', '60', '--days', '75', '--seed', '9', '--policy', 'fixed-daily', '--out', directory, ...extra], io);
  return { code, io };
}

function readCsv(file: string): Record<string, string>[] {
  const parsed = Papa.parse<Record<string, string>>(fs.readFileSync(file, 'utf8'), { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

describe('cli simulate', () => {
  it('writes the CSV files and summary.json, byte-identical for the same seed', async () => {
    const first = path.join(workDirectory, 'first');
    const second = path.join(workDirectory, 'second');
    const firstRun = await simulateInto(first);
    expect(firstRun.code).toBe(0);
    expect(firstRun.io.out()).toMatch(/Wrote 60 patients/);
    expect((await simulateInto(second)).code).toBe(0);
    expect(fs.readdirSync(first).sort()).toEqual(outputFiles);
    for (const file of outputFiles)
      expect(fs.readFileSync(path.join(second, file)).equals(fs.readFileSync(path.join(first, file)))).toBe(true);

    const otherSeed = path.join(workDirectory, 'other');
    expect(
      await run(['--patients', '60', '--days', '75', '--seed', '10', '--policy', 'fixed-daily', '--out', otherSeed], captureIo()),
    ).toBe(0);
    expect(fs.readFileSync(path.join(otherSeed, 'dispensings.csv')).equals(fs.readFileSync(path.join(first, 'dispensings.csv')))).toBe(
      false,
    );
  });

  it('writes dispensings in the AdhereR-like layout and records in the shapes of the data model', async () => {
    const directory = path.join(workDirectory, 'out');
    expect((await simulateInto(directory)).code).toBe(0);

    expect(fs.readFileSync(path.join(directory, 'dispensings.csv'), 'utf8').split('\n')[0]).toBe(
      'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION',
    );
    const dispensings = readCsv(path.join(directory, 'dispensings.csv'));
    for (const row of dispensings) {
      expect(row.DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(['1', '2']).toContain(row.PERDAY);
      expect(['30', '90']).toContain(row.DURATION);
    }

    const patients = readCsv(path.join(directory, 'patients.csv'));
    expect(patients).toHaveLength(60);
    expect(new Set(dispensings.map((row) => row.PATIENT_ID))).toEqual(new Set(patients.map((row) => row.patient_id)));
    expect(patients[0]!.morning_dose_times).toMatch(/^(\d{2}:\d{2};){6}\d{2}:\d{2}$/);

    const doseEvents = readCsv(path.join(directory, 'dose_events.csv'));
    for (const row of doseEvents) {
      expect(row.scheduled_at).toMatch(/^2025-0[1-3]-\d{2}T\d{2}:\d{2}$/);
      expect(row.confirmed_at === '').toBe(row.status !== 'taken');
    }

    const messages = readCsv(path.join(directory, 'messages.csv'));
    const outbound = messages.filter((row) => row.direction === 'outbound');
    const inbound = messages.filter((row) => row.direction === 'inbound');
    expect(outbound.length).toBeGreaterThan(60 * 60);
    expect(inbound.length).toBeGreaterThan(0);
    for (const row of outbound) expect(row.status_history).toMatch(/^sent@\S+\|(delivered|failed)@/);
    for (const row of inbound) expect(outbound.find((message) => message.message_id === row.in_reply_to)?.reply_text).toBe(row.reply_text);

    const summary = JSON.parse(fs.readFileSync(path.join(directory, 'summary.json'), 'utf8')) as Record<string, unknown>;
    expect(summary).toMatchObject({ policy: 'fixed-daily', seed: 9, patients: 60, days: 75, startDate: '2025-01-01' });
    for (const key of ['meanPdc', 'shareAdherent', 'messagesPerPatient', 'optOutRate']) expect(typeof summary[key]).toBe('number');
    expect(summary.shareAdherentByMonth).toHaveLength(2);
    expect(summary.records).toEqual({
      patients: 60,
      dispensings: dispensings.length,
      doseEvents: doseEvents.length,
      messages: messages.length,
    });
  });

  it.each([
    [['--patients', 'many', '--out', 'x'], /--patients must be a whole number/],
    [['--patients', '0', '--out', 'x'], /--patients must be at least 1/],
    [['--days', '99999', '--out', 'x'], /--days must be at most 3650/],
    [['--seed', '-4', '--out', 'x'], /--seed/],
    [['--policy', 'thompson', '--out', 'x'], /--policy must be one of none, fixed-daily, fixed-weekly/],
    [['--start', '2025-13-01', '--out', 'x'], /--start must be a date/],
    [['--frobnicate', '--out', 'x'], /--frobnicate/],
    [['--patients', '10'], /--out is required/],
    [['--report', '--policy', 'none'], /--policy cannot be used with --report/],
  ])('rejects %j with one line naming the option, and writes nothing', async (argv, message) => {
    const io = captureIo();
    const code = await run(
      argv.map((argument) => (argument === 'x' ? path.join(workDirectory, 'x') : argument)),
      io,
    );
    expect(code).not.toBe(0);
    expect(io.err()).toMatch(message);
    expect(io.err().trim().split('\n')).toHaveLength(1);
    expect(io.out()).toBe('');
    expect(fs.readdirSync(workDirectory)).toEqual([]);
  });

  it('refuses a file as the output folder', async () => {
    const file = path.join(workDirectory, 'taken.txt');
    fs.writeFileSync(file, 'keep me');
    const io = captureIo();
    expect(await run(['--out', file], io)).not.toBe(0);
    expect(io.err()).toMatch(/--out must be a folder/);
    expect(fs.readFileSync(file, 'utf8')).toBe('keep me');
  });

  it('prints the calibration report with every check, its target and its source', async () => {
    const io = captureIo();
    const code = await run(['--report', '--patients', '4000', '--seed', '2'], io);
    const report = io.out();
    for (const label of [
      'Mean 12-month PDC, no messages',
      'Share at 12-month PDC ≥ 0.8, no messages',
      'Persistence at 12 months per patient',
      'Unexplained lapse',
      'Vrijens 2008',
      'engaged-self-manager',
      'Odds ratio',
      'STOP',
      'wanes',
      'Thakkar 2016',
      'Klimis 2021',
      'Naderi 2012',
      'Chowdhury 2013',
      'HeartSteps 2019',
    ]) {
      expect(report).toContain(label);
    }
    for (const band of ['0.50–0.62', '0.40–0.60', '0.50–0.70', '1.30–2.20', '0.040–0.080']) expect(report).toContain(band);
    expect(report).not.toContain('OUT OF BAND');
    // The personalised policy against daily reminders, with its targets judged either way.
    expect(report).toMatch(/Personalised policy vs fixed daily reminders: the same 4000 synthetic patients × 365 days, seed 2/);
    expect(report).toMatch(/personalised\s+PDC ≥ 0\.8: \d\.\d{3}/);
    expect(report).toMatch(/Target: the best arm for at least 5 of 6 personas: \d of 6, (met|NOT MET)/);
    expect(code).toBe(0);
    expect(fs.readdirSync(workDirectory)).toEqual([]);
    // Three year-long cohorts of 4000 patients, one of them day by day under a learning policy.
  }, 180_000);

  it('prints help', async () => {
    const io = captureIo();
    expect(await run(['--help'], io)).toBe(0);
    expect(io.out()).toMatch(/--policy P\s+none \| fixed-daily \| fixed-weekly/);
  });
});

describe('csvField', () => {
  it('quotes only what RFC 4180 requires', () => {
    expect(csvField('Taken')).toBe('Taken');
    expect(csvField('Yes, taken')).toBe('"Yes, taken"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField(null)).toBe('');
    expect(csvField(true)).toBe('true');
    const row = ['a,b', 'c"d', 'e\nf', '👍'];
    expect(Papa.parse<string[]>(row.map(csvField).join(',')).data[0]).toEqual(row);
  });
});
