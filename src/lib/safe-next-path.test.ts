import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeNextPath } from './safe-next-path';

const base = 'https://app.test';

/** What the finding requires of every answer. */
function expectSafe(output: string): void {
  expect(output === '/' || /^\/[^/\\]/.test(output)).toBe(true);
  expect(output).not.toMatch(/[\u0000-\u001f\u007f-\u009f\\]/);
  expect(new URL(output, base).origin).toBe(base);
  // A Location header and router.replace get exactly this: it must stay on this site after any decoding too.
  let decoded: string | null = null;
  try {
    decoded = decodeURIComponent(output);
  } catch {
    // Not decodable: nothing downstream will decode it either.
  }
  if (decoded !== null) expect(new URL(decoded, base).origin).toBe(base);
}

// Fragments attackers combine: slashes and their encodings and look-alikes, controls, dots, hosts.
const fragment = fc.constantFrom(
  '/',
  '//',
  '\\',
  '%2f',
  '%2F',
  '%5c',
  '%5C',
  '%252f',
  '%255c',
  '\t',
  '\n',
  '\r',
  '%09',
  '%0a',
  '%0d',
  '%0A',
  '%00',
  '\u0000',
  '／',
  '＼',
  '。',
  '．',
  '｡',
  '%E3%80%82',
  '%EF%BC%8F',
  '%EF%BC%BC',
  '.',
  '..',
  '@',
  ':',
  '?',
  '#',
  '%',
  'evil.test',
  'https:',
  'javascript:',
  'profile',
  '\u2215',
  '\u2044',
  '\uFE68',
  ' ',
  '%20',
  '\u00a0',
  '\u0085',
);
const hostileString = fc
  .array(fc.oneof(fragment, fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 12 })
  .map((parts) => parts.join(''));

describe('safeNextPath', () => {
  it('answers a safe same-site path for any input (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          hostileString,
          hostileString.map((value) => `/${value}`),
          fc.string({ unit: 'binary' }),
          fc.webPath(),
        ),
        (input) => {
          expectSafe(safeNextPath(input));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('refuses the reported open redirects and 500s', () => {
    for (const input of [
      '/\t/evil.test',
      '/%09/evil.test',
      '/\n/evil.test',
      '/%0a/evil.test',
      '/%0d/evil.test',
      '/\\evil.test',
      '/%5cevil.test',
      '/%2f/evil.test',
      '/%252f%252fevil.test',
      '/／evil.test',
      '/..//evil.test',
      '//evil.test',
      'https://evil.test',
      '/%2e%2e//evil.test',
    ]) {
      expect(safeNextPath(input), input).toBe('/');
    }
    // Full-width punctuation in a path is only a path: kept, as ASCII (a Location header carries nothing else).
    expect(safeNextPath('/%E3%80%82evil.test')).toBe('/%E3%80%82evil.test');
    expect(safeNextPath('/。evil.test')).toBe('/%E3%80%82evil.test');
  });

  it('keeps ordinary paths with their query and fragment', () => {
    expect(safeNextPath('/algorithms/patient-engagement/data-sources?persona=a%20b#top')).toBe(
      '/algorithms/patient-engagement/data-sources?persona=a%20b#top',
    );
    expect(safeNextPath('/')).toBe('/');
    expect(safeNextPath(undefined)).toBe('/');
    expect(safeNextPath(['/profile', '//evil.test'])).toBe('/');
  });
});
