/**
 * What a parsed WhatsApp export says about a conversation (issue 16, docs/decisions/033): who wrote, how much,
 * how long each party took to answer the other, and when in the week they wrote. Pure and browser-safe: the
 * upload page runs it on a file that never leaves the browser, and on a saved conversation.
 *
 * A reply is a message (text or media) whose author differs from the author of the message before it in time
 * order; its reply time runs from that previous message (the last of the other party's run) to it. System
 * messages ("You added Alice") are counted apart and are no one's message: they neither reply nor are replied to.
 */
import { localClockAt } from '@/engine/messaging/local-clock';
import type { ChatExportProblem, ChatMessage } from './parse-whatsapp-export';

/** The bins of a reply-time distribution, in minutes, [from, to); the last is open. Shared with the message store's. */
export const replyTimeBins: readonly { label: string; fromMinutes: number; toMinutes: number | null }[] = [
  { label: 'Under 5 min', fromMinutes: 0, toMinutes: 5 },
  { label: '5–15 min', fromMinutes: 5, toMinutes: 15 },
  { label: '15–60 min', fromMinutes: 15, toMinutes: 60 },
  { label: '1–2 h', fromMinutes: 60, toMinutes: 120 },
  { label: '2–6 h', fromMinutes: 120, toMinutes: 360 },
  { label: '6–12 h', fromMinutes: 360, toMinutes: 720 },
  { label: '12–24 h', fromMinutes: 720, toMinutes: 1440 },
  { label: '1 day or more', fromMinutes: 1440, toMinutes: null },
];

/** Monday first: the rows of every hour × weekday heat map. */
export const weekdayLabels = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** A count per weekday (Monday first) and hour of the day: `cells[weekday][hour]`. */
export type HourWeekdayCounts = number[][];

export type ReplyTimeSummary = {
  count: number;
  /** Minutes, interpolated between ranks (as PostgreSQL's percentile_cont); null without replies. */
  medianMinutes: number | null;
  p90Minutes: number | null;
  /** Counts per replyTimeBins entry, in its order. */
  bins: number[];
};

export type ParticipantSummary = {
  name: string;
  messages: number;
  text: number;
  media: number;
  /** Replies this participant wrote to another's message, and how long they took. */
  replies: ReplyTimeSummary;
};

export type ChatExportAnalysis = {
  /** Text and media messages with an author; system messages are counted apart. */
  messages: number;
  text: number;
  media: number;
  system: number;
  /** ISO instants of the first and last message (any kind), null for an empty export. */
  firstAt: string | null;
  lastAt: string | null;
  participants: ParticipantSummary[];
  replies: ReplyTimeSummary;
  /** Authored messages by weekday and hour, in `timeZone`. */
  heatMap: HourWeekdayCounts;
  timeZone: string;
  problems: ChatExportProblem[];
};

/** The q-quantile of ascending values with linear interpolation between ranks (percentile_cont). */
export function interpolatedQuantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower]!;
  return low + (sorted[upper]! - low) * (position - lower);
}

/** The index in replyTimeBins of a reply time in minutes. */
export function replyTimeBinIndex(minutes: number): number {
  const index = replyTimeBins.findIndex((bin) => bin.toMinutes === null || minutes < bin.toMinutes);
  return index < 0 ? replyTimeBins.length - 1 : index;
}

export function summariseReplyTimes(minutes: readonly number[]): ReplyTimeSummary {
  const sorted = [...minutes].sort((left, right) => left - right);
  const bins = replyTimeBins.map(() => 0);
  for (const value of sorted) bins[replyTimeBinIndex(value)]! += 1;
  return {
    count: sorted.length,
    medianMinutes: interpolatedQuantile(sorted, 0.5),
    p90Minutes: interpolatedQuantile(sorted, 0.9),
    bins,
  };
}

export function emptyHeatMap(): HourWeekdayCounts {
  return weekdayLabels.map(() => Array.from({ length: 24 }, () => 0));
}

/** Monday = 0 … Sunday = 6 of a day number (days since 1970-01-01, a Thursday). */
export function weekdayOfDayNumber(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

const quarterHourMs = 15 * 60_000;

export function analyseChatExport(
  parsed: { messages: readonly ChatMessage[]; participants: readonly string[]; problems?: readonly ChatExportProblem[] },
  options: { timeZone?: string } = {},
): ChatExportAnalysis {
  const timeZone = options.timeZone ?? 'UTC';
  // Every zone's offset is a whole number of quarter hours: one clock reading per quarter hour is enough.
  const clocks = new Map<number, { weekday: number; hour: number }>();
  const clockOf = (instant: number) => {
    const quarter = Math.floor(instant / quarterHourMs);
    let clock = clocks.get(quarter);
    if (clock === undefined) {
      const local = localClockAt(quarter * quarterHourMs, timeZone);
      clock = { weekday: weekdayOfDayNumber(local.day), hour: Math.floor(local.minute / 60) };
      clocks.set(quarter, clock);
    }
    return clock;
  };

  const counts = new Map<string, { messages: number; text: number; media: number; replyMinutes: number[] }>();
  for (const name of parsed.participants) counts.set(name, { messages: 0, text: 0, media: 0, replyMinutes: [] });
  const heatMap = emptyHeatMap();
  const authored: { at: number; author: string }[] = [];
  let system = 0;
  let first: number | null = null;
  let last: number | null = null;
  for (const message of parsed.messages) {
    const at = Date.parse(message.timestamp);
    if (Number.isFinite(at)) {
      first = first === null ? at : Math.min(first, at);
      last = last === null ? at : Math.max(last, at);
    }
    if (message.author === null || message.kind === 'system') {
      system += 1;
      continue;
    }
    let entry = counts.get(message.author);
    if (entry === undefined) {
      entry = { messages: 0, text: 0, media: 0, replyMinutes: [] };
      counts.set(message.author, entry);
    }
    entry.messages += 1;
    if (message.kind === 'media') entry.media += 1;
    else entry.text += 1;
    if (!Number.isFinite(at)) continue;
    const clock = clockOf(at);
    heatMap[clock.weekday]![clock.hour]! += 1;
    authored.push({ at, author: message.author });
  }
  // Exports are not always in time order; a stable sort keeps the file's order for equal times.
  authored.sort((left, right) => left.at - right.at);
  const allReplyMinutes: number[] = [];
  for (let index = 1; index < authored.length; index += 1) {
    const previous = authored[index - 1]!;
    const current = authored[index]!;
    if (previous.author === current.author) continue;
    const minutes = (current.at - previous.at) / 60_000;
    counts.get(current.author)!.replyMinutes.push(minutes);
    allReplyMinutes.push(minutes);
  }
  const participants = [...counts.entries()].map(([name, entry]) => ({
    name,
    messages: entry.messages,
    text: entry.text,
    media: entry.media,
    replies: summariseReplyTimes(entry.replyMinutes),
  }));
  const text = participants.reduce((total, participant) => total + participant.text, 0);
  const media = participants.reduce((total, participant) => total + participant.media, 0);
  return {
    messages: text + media,
    text,
    media,
    system,
    firstAt: first === null ? null : new Date(first).toISOString(),
    lastAt: last === null ? null : new Date(last).toISOString(),
    participants,
    replies: summariseReplyTimes(allReplyMinutes),
    heatMap,
    timeZone,
    problems: [...(parsed.problems ?? [])],
  };
}
