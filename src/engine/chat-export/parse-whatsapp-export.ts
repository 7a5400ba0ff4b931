/**
 * Parses a WhatsApp "Export chat" text file (Android or iOS, 12- or 24-hour clock, day/month/year in any of
 * the common orders and separators) into messages with UTC timestamps. Pure and browser-safe: the upload
 * page and the CLI run the same code.
 *
 * Written by hand rather than with the npm package whatsapp-chat-parser (Pustur, MIT, 4.0.2), which we
 * checked against the conformance files and found short: it builds `new Date(y, m, d, …)` in the runtime's
 * own zone (no time-zone option, so a browser in another zone shifts every timestamp); it turns "23:59 PM"
 * (WhatsR's export) into hour 35, the next day; a byte-order mark in the middle of a file makes that message
 * a continuation of the one before; "Carol:" (an empty message) becomes a system message; and it does not
 * tell media placeholders from text. The header grammar below follows its regular expression and its
 * date-order heuristics so that its 12 header formats keep their upstream timestamps.
 */
import { dayNumberFromCivil } from '@/engine/adherence/day-number';
import { createLocalTimeConverter } from '@/engine/time/local-day';

export type DateOrder = 'dmy' | 'mdy' | 'ymd';

export type ChatMessageKind = 'text' | 'media' | 'system';

export type ChatMessage = {
  /** ISO 8601 in UTC, from the export's wall-clock time read in the phone's time zone. */
  timestamp: string;
  /** null for a system message ("You added Alice", the encryption notice). */
  author: string | null;
  text: string;
  kind: ChatMessageKind;
};

export type ChatExportProblem = { line: number; message: string };

export type ParsedChatExport = {
  /** In file order (exports are not always in time order). */
  messages: ChatMessage[];
  /** Authors in order of their first message. */
  participants: string[];
  dateOrder: DateOrder;
  problems?: ChatExportProblem[];
};

export type ParseWhatsappExportOptions = {
  /** IANA zone the phone was in: the export's times are wall-clock times there. Default UTC. */
  timeZone?: string;
  /** Overrides the order inferred from the whole file. */
  dateOrder?: DateOrder;
};

// Date, optional noise before the time (Finnish "klo"), time with optional seconds, optional AM/PM in any of
// its spellings ("PM", "p.m.", "p. m." with a no-break space, U+202F before it), then "] ", " - " or ": ".
const headerPattern =
  /^\[?(\d{1,4})[-/.]\s?(\d{1,4})[-/.]\s?(\d{1,4})\.?,?\s\D*?(\d{1,2})[.:](\d{1,2})(?:[.:](\d{1,2}))?(?:\s?([ap])\.?\s?m\.?)?\]?(?:\s-|:)?\s/i;
// The author runs to the first ": " (or a ":" ending the line: an empty message); a line without one is a system message.
const authorPattern = /^(.+?):(?: |$)/s;
const invisibleMarks = /^[\u200e\u200f\u202a-\u202e]+/;

// Placeholders WhatsApp writes instead of an attachment when exporting "without media" (Android, iOS), or
// beside the file name when exporting with media. English plus the commonest Android locales.
const mediaPatterns: readonly RegExp[] = [
  /^<(?:media omitted|medien ausgelassen|multimedia omitido|médias omis|media omessi|media weggelaten|mídia oculta|arquivo de mídia oculto)>$/i,
  /^(?:image|video|audio|sticker|gif|document|contact card) omitted$/i,
  /^<attached: [^>]+>$/i,
  /^\S+\.\w{1,5} \(file attached\)$/i,
];

// Every placeholder above contains one of these: a cheap test before the full ones.
const mediaHint = /omitted|attached|<|\)/i;

type Header = { parts: [string, string, string]; hour: number; minute: number; second: number; meridiem: string | null; body: string };

function readHeader(line: string): Header | null {
  const match = headerPattern.exec(line);
  if (match === null) return null;
  const hour = Number(match[4]);
  return {
    parts: [match[1]!, match[2]!, match[3]!],
    hour,
    minute: Number(match[5]),
    second: match[6] === undefined ? 0 : Number(match[6]),
    meridiem: match[7] === undefined ? null : match[7].toLowerCase(),
    body: line.slice(match[0].length),
  };
}

/** The year's part and the two others (day and month, order still open), as upstream reorders "06/2018/13". */
function splitYear([a, b, c]: [string, string, string], order: DateOrder): { year: string; first: string; second: string } {
  if (a.length >= 3) return { year: a, first: b, second: c };
  if (b.length >= 3) return { year: b, first: a, second: c };
  if (c.length >= 3 || order !== 'ymd') return { year: c, first: a, second: b };
  return { year: a, first: b, second: c };
}

/** Infers the order from every date in the file: a number above 12 can only be a day; else the part that changes more. */
export function inferDateOrder(dates: readonly (readonly [string, string, string])[]): DateOrder {
  if (dates.length > 0 && dates.every(([a]) => a.length >= 3)) return 'ymd';
  const pairs = dates
    .map((parts) => splitYear([...parts] as [string, string, string], 'dmy'))
    .map(({ first, second }) => [Number(first), Number(second)] as const);
  if (pairs.some(([first]) => first > 12)) return 'dmy';
  if (pairs.some(([, second]) => second > 12)) return 'mdy';
  // Days change more often, and by more, than months between consecutive dates.
  let firstChange = 0;
  let secondChange = 0;
  for (let index = 1; index < pairs.length; index += 1) {
    firstChange += Math.abs(pairs[index]![0] - pairs[index - 1]![0]);
    secondChange += Math.abs(pairs[index]![1] - pairs[index - 1]![1]);
  }
  return secondChange > firstChange ? 'mdy' : 'dmy';
}

/** Left-to-right and embedding marks iOS puts before headers and names; tested by code first (50 MB files). */
function stripMarks(value: string): string {
  const code = value.charCodeAt(0);
  return code === 0x200e || code === 0x200f || (code >= 0x202a && code <= 0x202e) ? value.replace(invisibleMarks, '') : value;
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

export function parseWhatsappExport(text: string, options: ParseWhatsappExportOptions = {}): ParsedChatExport {
  const timeZone = options.timeZone ?? 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    throw new RangeError(`timeZone: unknown time zone "${timeZone}"`);
  }
  // A byte-order mark may start the file or, after concatenation, any line: it is never content.
  const lines = (text.includes('\uFEFF') ? text.replace(/\uFEFF/g, '') : text).split(/\r\n|\r|\n/);

  // First pass: the distinct dates, so the order is inferred from the whole file before any date is read.
  // Headers are read again in the second pass rather than kept: holding ~1 million of them costs more in
  // garbage collection than reading them twice (bench/whatsapp-export.bench.ts).
  let dateOrder = options.dateOrder;
  if (dateOrder === undefined) {
    const dates = new Map<string, [string, string, string]>();
    for (const line of lines) {
      const match = headerPattern.exec(stripMarks(line));
      if (match !== null) {
        const key = `${match[1]}/${match[2]}/${match[3]}`;
        if (!dates.has(key)) dates.set(key, [match[1]!, match[2]!, match[3]!]);
      }
    }
    dateOrder = inferDateOrder([...dates.values()]);
  }

  const toEpochSeconds = timeZone === 'UTC' ? null : createLocalTimeConverter();
  // Neighbouring messages mostly share a header time: the last one's conversion is reused.
  let lastKey = '';
  let lastTimestamp: string | { problem: string } = '';
  const messages: ChatMessage[] = [];
  const participants = new Set<string>();
  const problems: ChatExportProblem[] = [];
  let current: ChatMessage | null = null;
  let continuation: string[] | null = null;
  const finish = () => {
    if (current === null) return;
    if (continuation !== null) {
      // Blank lines after a message (the end of the file) are the export's, not the message's.
      while (continuation.length > 0 && continuation.at(-1)!.trim() === '') continuation.pop();
      if (continuation.length > 0) current.text = `${current.text}\n${continuation.join('\n')}`;
      continuation = null;
    }
    if (current.kind !== 'system' && mediaHint.test(current.text)) {
      const trimmed = current.text.trim();
      if (mediaPatterns.some((pattern) => pattern.test(trimmed))) current.kind = 'media';
    }
    messages.push(current);
  };

  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    const header = readHeader(stripMarks(line));
    let timestamp: string | { problem: string } | null = null;
    if (header !== null) {
      const key = `${header.parts[0]}/${header.parts[1]}/${header.parts[2]} ${header.hour}:${header.minute}:${header.second} ${header.meridiem ?? ''}`;
      if (key !== lastKey) {
        lastKey = key;
        lastTimestamp = headerTimestamp(header, dateOrder, timeZone, toEpochSeconds);
      }
      timestamp = lastTimestamp;
      if (typeof timestamp !== 'string') {
        problems.push({ line: index + 1, message: `line ${index + 1}: ${timestamp.problem}; kept as part of the message before` });
      }
    }
    if (header === null || typeof timestamp !== 'string') {
      if (current !== null) (continuation ??= []).push(line);
      else if (line.trim() !== '')
        problems.push({ line: index + 1, message: `line ${index + 1}: text before the first message header, ignored` });
      continue;
    }
    finish();
    const authored = authorPattern.exec(header.body);
    if (authored === null) {
      current = { timestamp, author: null, text: header.body, kind: 'system' };
    } else {
      const author = stripMarks(authored[1]!).trim();
      participants.add(author);
      current = { timestamp, author, text: stripMarks(header.body.slice(authored[0].length)), kind: 'text' };
    }
  }
  finish();

  return { messages, participants: [...participants], dateOrder, ...(problems.length > 0 ? { problems } : {}) };
}

function headerTimestamp(
  header: Header,
  order: DateOrder,
  timeZone: string,
  toEpochSeconds: ReturnType<typeof createLocalTimeConverter> | null,
): string | { problem: string } {
  const { year: yearText, first, second } = splitYear(header.parts, order);
  const year = yearText.length <= 2 ? 2000 + Number(yearText) : Number(yearText);
  const [day, month] = order === 'dmy' ? [Number(first), Number(second)] : [Number(second), Number(first)];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return { problem: `date ${header.parts.join('/')} is not a valid ${order} date (see the date order option)` };
  }
  let hour = header.hour;
  // Some exports write "23:59 PM" and "00:04 AM": an hour past 12 is already on the 24-hour clock.
  if (header.meridiem === 'p' && hour < 12) hour += 12;
  if (header.meridiem === 'a' && hour === 12) hour = 0;
  if (hour > 23 || header.minute > 59 || header.second > 59) return { problem: `time ${header.hour}:${header.minute} is not a valid time` };
  const epochMs =
    toEpochSeconds === null
      ? Date.UTC(year, month - 1, day, hour, header.minute, header.second)
      : (toEpochSeconds(timeZone, dayNumberFromCivil(year, month, day), hour * 60 + header.minute) + header.second) * 1000;
  return new Date(epochMs).toISOString();
}
