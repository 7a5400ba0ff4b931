/**
 * Conformance with every file in ../shared/testdata/whatsapp-export (read at test time, never copied): the
 * WhatsR conversation in its four Android/iOS × 12h/24h variants, Pustur's short chat and his 12 header formats.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWhatsappExport } from './parse-whatsapp-export';

const directory = path.resolve(process.cwd(), '../shared/testdata/whatsapp-export');
const read = (file: string) => fs.readFileSync(path.join(directory, file), 'utf8');
const variants = ['englishandroid24h.txt', 'englishandroidampm.txt', 'englishios24h.txt', 'englishiosampm.txt'];

describe('the test data', () => {
  it('has no file these tests do not cover', () => {
    const files = fs.readdirSync(directory, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    const covered = [
      ...variants.map((file) => `WhatsR/${file}`),
      'whatsapp-chat-parser/short-chat.txt',
      'whatsapp-chat-parser/header_formats_pustur.json',
    ];
    expect(files.map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name))).sort()).toEqual(covered.sort());
  });
});

describe('WhatsR: one conversation exported four ways', () => {
  const parsed = variants.map((file) => parseWhatsappExport(read(`WhatsR/${file}`)));

  it('reads every variant whole, month first, without problems', () => {
    for (const result of parsed) {
      expect(result.problems).toBeUndefined();
      expect(result.dateOrder).toBe('mdy');
      expect(result.messages).toHaveLength(50);
      expect(result.participants).toEqual(['Mallory', 'Dave', 'Alice', 'Bob', 'Carol']);
    }
  });

  it('gives the same authors, kinds and counts in every variant', () => {
    const [reference, ...others] = parsed;
    for (const result of others) {
      expect(result.messages.map((message) => [message.author, message.kind])).toEqual(
        reference!.messages.map((message) => [message.author, message.kind]),
      );
    }
    const kinds = reference!.messages.reduce<Record<string, number>>(
      (counts, message) => ({ ...counts, [message.kind]: (counts[message.kind] ?? 0) + 1 }),
      {},
    );
    expect(kinds).toEqual({ system: 8, media: 2, text: 40 });
    const perAuthor = reference!.messages.reduce<Record<string, number>>(
      (counts, message) => (message.author === null ? counts : { ...counts, [message.author]: (counts[message.author] ?? 0) + 1 }),
      {},
    );
    expect(perAuthor).toEqual({ Mallory: 1, Dave: 4, Alice: 13, Bob: 19, Carol: 5 });
  });

  it('gives the same texts, apart from where the platforms word them differently', () => {
    // Android and iOS differ in the voice note's placeholder, "location:"/"Location:", the group rename notice.
    const comparable = (result: (typeof parsed)[number]) =>
      result.messages.filter((message) => message.kind === 'text').map((message) => message.text.toLowerCase());
    for (const result of parsed) expect(comparable(result)).toEqual(comparable(parsed[0]!));
    expect(parsed[0]!.messages[3]).toMatchObject({ author: 'Mallory', text: 'Hey! :)', kind: 'text' });
  });

  it('keeps the empty message, the media placeholders and the system messages apart', () => {
    for (const result of parsed) {
      expect(result.messages.find((message) => message.author === 'Carol' && message.text === '')).toMatchObject({ kind: 'text' });
      expect(result.messages.filter((message) => message.kind === 'media').map((message) => message.author)).toEqual(['Alice', 'Bob']);
      expect(result.messages.filter((message) => message.kind === 'system').every((message) => message.author === null)).toBe(true);
    }
    expect(parsed[0]!.messages.filter((message) => message.kind === 'media').map((message) => message.text)).toEqual([
      'PTT-20180129-WA0025.opus (file attached)',
      '<Media omitted>',
    ]);
    expect(parsed[2]!.messages.filter((message) => message.kind === 'media').map((message) => message.text)).toEqual([
      '<attached: \u200ePTT-20180129-WA0025.opus>',
      'image omitted',
    ]);
  });

  it('reads the byte-order mark in the middle of the file as nothing, not as a continuation', () => {
    // Android exports have no seconds; iOS's say 12:26:03.
    const expected = ['2018-01-29T12:26:00.000Z', '2018-01-29T12:26:00.000Z', '2018-01-29T12:26:03.000Z', '2018-01-29T12:26:03.000Z'];
    parsed.forEach((result, index) => {
      expect(result.messages[8]).toEqual({
        timestamp: expected[index],
        author: null,
        text: "You changed this group's icon",
        kind: 'system',
      });
      expect(result.messages[7]!.text).not.toContain('icon');
    });
  });

  it('keeps the out-of-order timestamps in file order, and the 12- and 24-hour clocks agree', () => {
    for (const result of parsed) {
      expect(result.messages[5]!.text).toBe('You added Alice');
      expect(result.messages[6]!.timestamp < result.messages[5]!.timestamp).toBe(true);
    }
    // "23:59 PM" and "00:04 AM" in the Android 12-hour file: an hour past 12 is already 24-hour; 00 AM is midnight.
    expect(parsed[1]!.messages.map((message) => message.timestamp)).toEqual(parsed[0]!.messages.map((message) => message.timestamp));
    expect(parsed[3]!.messages.map((message) => message.timestamp)).toEqual(parsed[2]!.messages.map((message) => message.timestamp));
    expect(parsed[0]!.messages.at(-1)).toEqual({
      timestamp: '2018-01-30T00:23:00.000Z',
      author: 'Dave',
      text: 'Maybe next time!',
      kind: 'text',
    });
  });
});

describe("Pustur's short chat", () => {
  it('gives 5 messages, the last one on three lines', () => {
    const result = parseWhatsappExport(read('whatsapp-chat-parser/short-chat.txt'));
    expect(result.messages).toHaveLength(5);
    expect(result.messages.slice(0, 2).map((message) => [message.author, message.kind])).toEqual([
      [null, 'system'],
      [null, 'system'],
    ]);
    expect(result.messages.at(-1)).toMatchObject({ author: '+410123456789', text: 'How are you?\n\nIs everything alright?', kind: 'text' });
    expect(result.participants).toEqual(['Sample User', 'TestBot', '+410123456789']);
  });
});

describe("Pustur's 12 header formats", () => {
  const { cases } = JSON.parse(read('whatsapp-chat-parser/header_formats_pustur.json')) as {
    cases: { id: string; line: string; expected_iso_utc: string }[];
  };
  it('covers all 12', () => expect(cases).toHaveLength(12));
  it.each(cases)('$id gives its expected UTC timestamp', ({ line, expected_iso_utc }) => {
    const result = parseWhatsappExport(line);
    expect(result.problems).toBeUndefined();
    expect(result.messages).toEqual([{ timestamp: expected_iso_utc, author: 'a', text: 'm', kind: 'text' }]);
  });
});
