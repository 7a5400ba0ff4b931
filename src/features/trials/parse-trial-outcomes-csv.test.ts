import { describe, expect, it } from 'vitest';
import { parseTrialOutcomesCsv } from './parse-trial-outcomes-csv';

function problemsOf(text: string) {
  const parsed = parseTrialOutcomesCsv(text);
  if (!('problems' in parsed)) throw new Error('expected problems');
  return parsed.problems;
}

describe('parseTrialOutcomesCsv', () => {
  it('reads the columns in any order, with a byte-order mark, CRLF, blank lines and quoted fields', () => {
    const text = '\uFEFFoutcome,adherent,patient_id,baseline,arm\r\n0.85,1,P-1,0.5,intervention\r\n\r\n0.4,0,"P,2",0.75,control\r\n';
    expect(parseTrialOutcomesCsv(text)).toEqual({
      rows: [
        { patientId: 'P-1', arm: 'intervention', baseline: 0.5, outcome: 0.85, adherent: 1 },
        { patientId: 'P,2', arm: 'control', baseline: 0.75, outcome: 0.4, adherent: 0 },
      ],
    });
  });

  it('accepts the limits 0 and 1 and exponent notation', () => {
    const parsed = parseTrialOutcomesCsv('patient_id,arm,baseline,outcome,adherent\na,control,0,1,1\nb,control,1e-1,.5,0\n');
    expect(parsed).toEqual({
      rows: [
        { patientId: 'a', arm: 'control', baseline: 0, outcome: 1, adherent: 1 },
        { patientId: 'b', arm: 'control', baseline: 0.1, outcome: 0.5, adherent: 0 },
      ],
    });
  });

  it('lists every problem of every row, each with its line and field', () => {
    const text = [
      'patient_id,arm,baseline,outcome,adherent',
      'a,control,0.5,0.9,1',
      ',placebo,1.2,abc,yes',
      'a,intervention,-0.1,,2',
      'b,intervention,0x1,Infinity,1',
      'c,control,0.5',
      'd,,0.5,0.5,0',
    ].join('\n');
    expect(problemsOf(text)).toEqual([
      { line: 3, field: 'patient_id', message: 'line 3, field patient_id: empty; every row needs a patient identifier' },
      { line: 3, field: 'arm', message: 'line 3, field arm: "placebo" is not control or intervention' },
      { line: 3, field: 'baseline', message: 'line 3, field baseline: "1.2", expected a number in [0, 1]' },
      { line: 3, field: 'outcome', message: 'line 3, field outcome: "abc", expected a number in [0, 1]' },
      { line: 3, field: 'adherent', message: 'line 3, field adherent: "yes", expected 0 or 1' },
      { line: 4, field: 'patient_id', message: 'line 4, field patient_id: "a" already appears on line 2' },
      { line: 4, field: 'baseline', message: 'line 4, field baseline: "-0.1", expected a number in [0, 1]' },
      { line: 4, field: 'outcome', message: 'line 4, field outcome: empty, expected a number in [0, 1]' },
      { line: 4, field: 'adherent', message: 'line 4, field adherent: "2", expected 0 or 1' },
      { line: 5, field: 'baseline', message: 'line 5, field baseline: "0x1", expected a number in [0, 1]' },
      { line: 5, field: 'outcome', message: 'line 5, field outcome: "Infinity", expected a number in [0, 1]' },
      { line: 6, field: 'row', message: 'line 6, row: 3 fields where the header has 5' },
      { line: 7, field: 'arm', message: 'line 7, field arm: empty, expected control or intervention' },
    ]);
  });

  it('counts the lines of a quoted field that spans lines', () => {
    const text = 'patient_id,arm,baseline,outcome,adherent\n"a\nb",control,0.5,0.5,0\nc,control,0.5,0.5,7\n';
    expect(problemsOf(text)).toEqual([{ line: 4, field: 'adherent', message: 'line 4, field adherent: "7", expected 0 or 1' }]);
  });

  it('refuses extra, duplicated and missing columns in the header, naming each', () => {
    const problems = problemsOf('patient_id,arm,arm,baseline,outcome,age\nx,control,control,0.5,0.5,40\n');
    expect(problems).toEqual([
      { line: 1, field: 'arm', message: 'line 1, field arm: the column appears twice' },
      {
        line: 1,
        field: 'age',
        message: 'line 1, field age: unexpected column; the columns are patient_id, arm, baseline, outcome, adherent',
      },
      { line: 1, field: 'adherent', message: 'line 1, field adherent: the column is missing from the header' },
    ]);
  });

  it('reports an empty file, a header without rows and a CSV syntax error', () => {
    expect(problemsOf('')).toEqual([
      {
        line: 1,
        field: 'header',
        message: 'line 1, field header: the file is empty; expected the header patient_id,arm,baseline,outcome,adherent',
      },
    ]);
    expect(problemsOf('patient_id,arm,baseline,outcome,adherent\n\n')).toEqual([
      { line: 1, field: 'row', message: 'line 1, row: the file has a header but no participants' },
    ]);
    const unclosed = problemsOf('patient_id,arm,baseline,outcome,adherent\na,control,0.5,0.5,0\n"b,control,0.5,0.5,0\n');
    expect(unclosed).toHaveLength(1);
    expect(unclosed[0]).toMatchObject({ line: 3, field: 'row' });
    expect(unclosed[0]!.message).toMatch(/^line 3, row: .*unterminated/i);
  });
});
