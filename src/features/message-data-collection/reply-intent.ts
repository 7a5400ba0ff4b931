/**
 * What an inbound message meant, as the feed and the export show it: a live reply's stored reading
 * (`inbound_reading`, decision 012), else — the demo's replies carry only their text — the engine's own
 * reading of the text (a STOP/START/HELP keyword first, then the reply classifier), computed at read time.
 * Browser-safe and pure; the text itself never leaves the server.
 */
import { type InboundInterpretation, interpretInbound } from '@/engine/messaging';
import type { InboundReading } from '@/lib/domain/message-records';
import type { ReplyIntent } from './schemas';

const keywordIntent = { 'opt-out': 'stop', 'opt-in': 'start', help: 'help' } as const;

function intentOf(interpretation: InboundInterpretation): ReplyIntent {
  return interpretation.kind === 'keyword' ? keywordIntent[interpretation.keyword.action] : interpretation.reply.intent;
}

export function replyIntentOf(row: {
  direction: string;
  inboundReading: InboundReading | null;
  replyText: string | null;
}): ReplyIntent | null {
  if (row.direction !== 'inbound') return null;
  if (row.inboundReading !== null)
    return row.inboundReading.interpretation === null ? 'media' : intentOf(row.inboundReading.interpretation);
  if (row.replyText !== null) return intentOf(interpretInbound({ kind: 'text', text: row.replyText }));
  return null;
}
