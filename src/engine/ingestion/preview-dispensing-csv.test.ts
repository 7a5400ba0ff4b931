import { describe, expect, it } from 'vitest';
import { previewDispensingCsv } from './preview-dispensing-csv';

const today = { today: '2026-11-24' };
const header = 'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION';

describe('previewDispensingCsv', () => {
  it('guesses DD/MM from a first field above 12 and shows the first rows with unambiguous dates', () => {
    const rows = Array.from({ length: 14 }, (_, index) => `p${index},${String(index + 1).padStart(2, '0')}/03/2025,1,statin,30`);
    const preview = previewDispensingCsv([header, ...rows].join('\n'), {}, today);
    expect(preview.dateFormat).toBe('dmy');
    expect(preview.dateFormatGuess).toEqual({ format: 'dmy', candidates: ['dmy'], sampled: 14 });
    expect(preview.rowCount).toBe(14);
    expect(preview.rows).toHaveLength(10);
    expect(preview.rows[0]).toEqual({
      line: 2,
      patientId: 'p0',
      dispensedOn: '2025-03-01',
      dateText: '01/03/2025',
      daysSupply: '30',
      dosesPerDay: '1',
      medication: 'statin',
      valid: true,
    });
    expect(preview.problems).toEqual([]);
    expect(preview.columns).toMatchObject({ patientId: 'PATIENT_ID', date: 'DATE' });
  });

  it('says when the dates cannot tell MM/DD from DD/MM, and reads them as asked once the user says', () => {
    const text = `${header}\n1,01/02/2025,1,a,30\n2,03/04/2025,1,a,30\n`;
    const ambiguous = previewDispensingCsv(text, {}, today);
    expect(ambiguous.dateFormatGuess).toEqual({ format: null, candidates: ['mdy', 'dmy'], sampled: 2 });
    const chosen = previewDispensingCsv(text, { dateFormat: 'dmy' }, today);
    expect(chosen.dateFormat).toBe('dmy');
    expect(chosen.rows.map((row) => row.dispensedOn)).toEqual(['2025-02-01', '2025-04-03']);
  });

  it('lists every problem of the file, also past the rows shown, and marks bad rows', () => {
    const rows = Array.from({ length: 30 }, (_, index) => `${index},2024-01-${String((index % 28) + 1).padStart(2, '0')},1,a,30`);
    rows[2] = '2,2031-05-01,1,a,30';
    rows[25] = '25,2032-05-01,1,a,30';
    const preview = previewDispensingCsv([header, ...rows].join('\n'), {}, today);
    expect(preview.dateFormat).toBe('iso');
    expect(preview.problems.map((problem) => [problem.line, problem.message])).toEqual([
      [4, 'DATE "2031-05-01": 2031-05-01 is in the future (after 2026-11-25)'],
      [27, 'DATE "2032-05-01": 2032-05-01 is in the future (after 2026-11-25)'],
    ]);
    expect(preview.rows[2]).toMatchObject({ line: 4, valid: false, dispensedOn: null, dateText: '2031-05-01' });
    expect(preview.rows.filter((row) => !row.valid)).toHaveLength(1);
  });

  it('names a missing column and still shows the header, so the user can map it', () => {
    const preview = previewDispensingCsv('member,filled,days\nm1,2024-01-01,30\n', {}, today);
    expect(preview.header).toEqual(['member', 'filled', 'days']);
    expect(preview.columns).toBeNull();
    expect(preview.problems.map((problem) => [problem.field, problem.setting])).toEqual([
      ['PATIENT_ID', 'patientId'],
      ['DATE', 'date'],
      ['DURATION', 'daysSupply'],
    ]);
    const mapped = previewDispensingCsv(
      'member,filled,days\nm1,2024-01-01,30\n',
      { columns: { patientId: 'member', date: 'filled', daysSupply: 'days' } },
      today,
    );
    expect(mapped.problems).toEqual([]);
    expect(mapped.rows[0]).toMatchObject({ patientId: 'm1', dispensedOn: '2024-01-01', dosesPerDay: null, medication: null });
  });
});
