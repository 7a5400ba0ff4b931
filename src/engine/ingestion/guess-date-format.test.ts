import { describe, expect, it } from 'vitest';
import { guessDateFormat } from './guess-date-format';

describe('guessDateFormat', () => {
  it.each([
    { name: 'ISO', dates: ['2024-01-02', '2024-12-31'], format: 'iso', candidates: ['iso'] },
    { name: 'a second field above 12: MM/DD', dates: ['01/02/2024', '12/25/2024'], format: 'mdy', candidates: ['mdy'] },
    { name: 'a first field above 12: DD/MM', dates: ['01/02/2024', '25/12/2024'], format: 'dmy', candidates: ['dmy'] },
    {
      name: 'one date above 12 late in the file settles it',
      dates: [...Array(500).fill('03/04/2024'), '04/13/2024'],
      format: 'mdy',
      candidates: ['mdy'],
    },
    { name: 'no field above 12: ambiguous', dates: ['01/02/2024', '12/11/2024'], format: null, candidates: ['mdy', 'dmy'] },
    { name: 'dotted dates are DD.MM', dates: ['01.02.2024'], format: 'dmy', candidates: ['dmy'] },
    { name: 'one typo: the format most dates fit', dates: ['25/12/2024', '26/12/2024', '2024-13-45'], format: 'dmy', candidates: [] },
    { name: 'both fields above 12 somewhere: nothing fits all, a tie', dates: ['25/12/2024', '12/25/2024'], format: null, candidates: [] },
    { name: 'blank values are ignored', dates: ['', ' ', '2024-01-02'], format: 'iso', candidates: ['iso'] },
    { name: 'no dates at all', dates: [], format: null, candidates: ['iso', 'mdy', 'dmy'] },
  ])('$name', ({ dates, format, candidates }) => {
    const guess = guessDateFormat(dates);
    expect(guess.format).toBe(format);
    expect(guess.candidates).toEqual(candidates);
  });
});
