import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  analyseChatExport,
  interpolatedQuantile,
  replyTimeBinIndex,
  replyTimeBins,
  summariseReplyTimes,
  weekdayOfDayNumber,
} from './analyse-chat-export';
import { parseWhatsappExport } from './parse-whatsapp-export';

const message = (timestamp: string, author: string | null, kind: 'text' | 'media' | 'system' = 'text') => ({
  timestamp,
  author,
  text: kind === 'media' ? '<Media omitted>' : 'x',
  kind,
});

describe('interpolatedQuantile', () => {
  it('interpolates between ranks as percentile_cont does', () => {
    expect(interpolatedQuantile([], 0.5)).toBeNull();
    expect(interpolatedQuantile([4], 0.9)).toBe(4);
    expect(interpolatedQuantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    // (10 − 1) × 0.9 = 8.1: 9 + 0.1 × (10 − 9)
    expect(interpolatedQuantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBeCloseTo(9.1, 10);
  });
});

describe('reply-time bins', () => {
  it('puts each time in the bin [from, to)', () => {
    expect(replyTimeBinIndex(0)).toBe(0);
    expect(replyTimeBinIndex(4.99)).toBe(0);
    expect(replyTimeBinIndex(5)).toBe(1);
    expect(replyTimeBinIndex(1439)).toBe(6);
    expect(replyTimeBinIndex(100_000)).toBe(replyTimeBins.length - 1);
    expect(summariseReplyTimes([1, 10, 30, 3000]).bins).toEqual([1, 1, 1, 0, 0, 0, 0, 1]);
  });
});

describe('weekdayOfDayNumber', () => {
  it('counts Monday as 0 (1970-01-01 was a Thursday, 1970-01-05 a Monday)', () => {
    expect(weekdayOfDayNumber(0)).toBe(3);
    expect(weekdayOfDayNumber(4)).toBe(0);
    expect(weekdayOfDayNumber(-1)).toBe(2);
  });
});

describe('analyseChatExport', () => {
  const parsed = {
    participants: ['Ana', 'Ben'],
    messages: [
      message('2024-01-01T09:00:00.000Z', null, 'system'),
      message('2024-01-01T09:00:00.000Z', 'Ana'),
      message('2024-01-01T09:02:00.000Z', 'Ana'),
      // Ben answers Ana's last message after 10 minutes.
      message('2024-01-01T09:12:00.000Z', 'Ben', 'media'),
      // Ana answers after 60 minutes.
      message('2024-01-01T10:12:00.000Z', 'Ana'),
      // Out of file order: Ben at 10:42 answers Ana's 10:12 after 30 minutes.
      message('2024-01-01T11:00:00.000Z', 'Ana'),
      message('2024-01-01T10:42:00.000Z', 'Ben'),
    ],
    problems: [{ line: 7, message: 'no date' }],
  };

  it('counts messages per participant, media and system apart', () => {
    const analysis = analyseChatExport(parsed);
    expect(analysis).toMatchObject({ messages: 6, text: 5, media: 1, system: 1, timeZone: 'UTC' });
    expect(analysis.firstAt).toBe('2024-01-01T09:00:00.000Z');
    expect(analysis.lastAt).toBe('2024-01-01T11:00:00.000Z');
    expect(analysis.participants.map(({ name, messages, text, media }) => ({ name, messages, text, media }))).toEqual([
      { name: 'Ana', messages: 4, text: 4, media: 0 },
      { name: 'Ben', messages: 2, text: 1, media: 1 },
    ]);
    expect(analysis.problems).toEqual([{ line: 7, message: 'no date' }]);
  });

  it('times each change of author in time order', () => {
    const analysis = analyseChatExport(parsed);
    // Replies: Ben 10, Ana 60 (09:12 → 10:12), Ben 30 (10:12 → 10:42), Ana 18 (10:42 → 11:00).
    expect(analysis.replies).toMatchObject({ count: 4, medianMinutes: 24, bins: [0, 1, 2, 1, 0, 0, 0, 0] });
    // Rank (4 − 1) × 0.9 = 2.7: 30 + 0.7 × (60 − 30).
    expect(analysis.replies.p90Minutes).toBeCloseTo(51, 10);
    const ben = analysis.participants.find((participant) => participant.name === 'Ben')!;
    expect(ben.replies).toMatchObject({ count: 2, medianMinutes: 20 });
  });

  it('places messages in the hour × weekday grid of the chosen zone', () => {
    // 2024-01-01 was a Monday.
    const utc = analyseChatExport(parsed).heatMap;
    expect(utc[0]![9]).toBe(3);
    expect(utc[0]![10]).toBe(2);
    expect(utc[0]![11]).toBe(1);
    expect(utc.flat().reduce((total, count) => total + count, 0)).toBe(6);
    // New York is five hours behind in January.
    const newYork = analyseChatExport(parsed, { timeZone: 'America/New_York' }).heatMap;
    expect(newYork[0]![4]).toBe(3);
    expect(newYork[0]![5]).toBe(2);
    expect(newYork[0]![6]).toBe(1);
  });

  it('answers an empty export with zeros', () => {
    const analysis = analyseChatExport({ participants: [], messages: [] });
    expect(analysis).toMatchObject({ messages: 0, system: 0, firstAt: null, replies: { count: 0, medianMinutes: null } });
  });
});

// Conformance smoke test: every export in ../shared/testdata/whatsapp-export (read at test time) analyses
// consistently with its parse.
describe('every shared test export', () => {
  const directory = path.resolve(process.cwd(), '../shared/testdata/whatsapp-export');
  const files = fs
    .readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.txt'))
    .map((entry) => path.join(entry.parentPath, entry.name));

  it('finds the files', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
  });

  for (const file of files) {
    it(`analyses ${path.relative(directory, file)}`, () => {
      const parsed = parseWhatsappExport(fs.readFileSync(file, 'utf8'));
      const analysis = analyseChatExport(parsed);
      const authored = parsed.messages.filter((entry) => entry.author !== null && entry.kind !== 'system').length;
      expect(analysis.messages).toBe(authored);
      expect(analysis.messages + analysis.system).toBe(parsed.messages.length);
      expect(analysis.heatMap.flat().reduce((total, count) => total + count, 0)).toBe(authored);
      expect(analysis.participants.reduce((total, participant) => total + participant.messages, 0)).toBe(authored);
      expect(analysis.replies.bins.reduce((total, count) => total + count, 0)).toBe(analysis.replies.count);
      expect(analysis.participants.reduce((total, participant) => total + participant.replies.count, 0)).toBe(analysis.replies.count);
    });
  }

  it('gives the WhatsR conversation the same figures in all four variants', () => {
    const whatsR = files
      .filter((file) => file.includes('WhatsR'))
      .map((file) => analyseChatExport(parseWhatsappExport(fs.readFileSync(file, 'utf8'))));
    expect(whatsR).toHaveLength(4);
    for (const analysis of whatsR) {
      expect(analysis.messages).toBe(42);
      expect(analysis.system).toBe(8);
      expect(analysis.media).toBe(2);
      expect(analysis.participants.map((participant) => [participant.name, participant.messages])).toEqual([
        ['Mallory', 1],
        ['Dave', 4],
        ['Alice', 13],
        ['Bob', 19],
        ['Carol', 5],
      ]);
    }
  });
});
