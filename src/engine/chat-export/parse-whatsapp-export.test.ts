import { describe, expect, it } from 'vitest';
import { inferDateOrder, parseWhatsappExport } from './parse-whatsapp-export';

describe('parseWhatsappExport', () => {
  it('reads wall-clock times in the given zone, across a daylight-saving change', () => {
    const text = '\uFEFF28/03/2026, 12:00 - Ann: before\n30/03/2026, 12:00\u202fPM - Ann: after\n';
    const result = parseWhatsappExport(text, { timeZone: 'Europe/London' });
    expect(result.messages.map((message) => message.timestamp)).toEqual(['2026-03-28T12:00:00.000Z', '2026-03-30T11:00:00.000Z']);
    expect(result.dateOrder).toBe('dmy');
  });

  it('lets the date order override the inference, and reports dates the order makes impossible', () => {
    const text = '01/02/2026, 09:00 - Ann: hi\n13/02/2026, 09:00 - Ben: hello\n';
    expect(parseWhatsappExport(text).messages[0]!.timestamp).toBe('2026-02-01T09:00:00.000Z');
    const forced = parseWhatsappExport(text, { dateOrder: 'mdy' });
    expect(forced.messages).toHaveLength(1);
    expect(forced.messages[0]).toMatchObject({ timestamp: '2026-01-02T09:00:00.000Z', text: 'hi\n13/02/2026, 09:00 - Ben: hello' });
    expect(forced.problems).toEqual([{ line: 2, message: expect.stringContaining('not a valid mdy date') as string }]);
  });

  it('reads CRLF line endings, keeps continuation lines and drops trailing blank lines', () => {
    const result = parseWhatsappExport(
      '2026-05-01 08:00 - Ann: one\r\ntwo\r\n\r\nthree\r\n2026-05-01 08:01 - Ben: <Media omitted>\r\n\r\n',
    );
    expect(result.dateOrder).toBe('ymd');
    expect(result.messages).toEqual([
      { timestamp: '2026-05-01T08:00:00.000Z', author: 'Ann', text: 'one\ntwo\n\nthree', kind: 'text' },
      { timestamp: '2026-05-01T08:01:00.000Z', author: 'Ben', text: '<Media omitted>', kind: 'media' },
    ]);
  });

  it('reports text before the first header and refuses an unknown zone', () => {
    expect(parseWhatsappExport('hello\n1/2/26, 10:00 - A: b').problems).toEqual([
      { line: 1, message: expect.stringContaining('before the first') as string },
    ]);
    expect(() => parseWhatsappExport('', { timeZone: 'Mars/Olympus' })).toThrow(/timeZone/);
  });

  it('infers the order from which part changes more when no number is above 12', () => {
    expect(
      inferDateOrder([
        ['1', '5', '26'],
        ['2', '5', '26'],
        ['9', '5', '26'],
      ]),
    ).toBe('dmy');
    expect(
      inferDateOrder([
        ['5', '1', '26'],
        ['5', '2', '26'],
        ['5', '9', '26'],
      ]),
    ).toBe('mdy');
    expect(inferDateOrder([['2026', '05', '01']])).toBe('ymd');
  });
});
