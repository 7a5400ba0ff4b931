/**
 * The five kinds of reply the WhatsApp analysis reports (issue 16): taken, missed (with the reason), a
 * question, STOP, and anything else. Read with the engine's own reader (interpretInbound: keywords first,
 * then the dose-reply classifier), so the page counts a reply as the messaging loop acted on it. Live rows
 * carry that reading already (inbound_reading); demo rows only their text (reply_text), read here.
 * Browser-safe and pure.
 */
import { type InboundInterpretation, interpretInbound, type MissReason } from '@/engine/messaging';
import type { InboundReading } from '@/lib/domain/message-records';

export const replyIntents = ['taken', 'missed', 'question', 'stop', 'other'] as const;
export type ReplyIntent = (typeof replyIntents)[number];
/** A missed (or skipped) dose's reason; 'none' when the reply gave none. */
export type ReplyReason = MissReason | 'none';

export type ReplyIntentReading = { intent: ReplyIntent; reason: ReplyReason | null };

const isQuestion = (text: string) => /[?¿]/.test(text);

function fromInterpretation(interpretation: InboundInterpretation, text: string | null): ReplyIntentReading {
  if (interpretation.kind === 'keyword') return { intent: interpretation.keyword.action === 'opt-out' ? 'stop' : 'other', reason: null };
  const reply = interpretation.reply;
  switch (reply.intent) {
    case 'taken':
      return { intent: 'taken', reason: null };
    // A skipped dose is a dose not taken: it counts as missed, with its reason.
    case 'missed':
    case 'skipped':
      return { intent: 'missed', reason: reply.reason ?? 'none' };
    case 'not-yet':
      return { intent: 'other', reason: null };
    case 'unrecognised':
      // The classifier never reads a question as an answer; the page counts it as a question.
      return { intent: text !== null && isQuestion(text) ? 'question' : 'other', reason: null };
  }
}

/** The intent of one inbound message: its stored reading when it has one (live), else its text read now (demo). */
export function readReplyIntent(replyText: string | null, reading: InboundReading | null): ReplyIntentReading {
  if (reading !== null) {
    if (reading.interpretation === null) return { intent: 'other', reason: null };
    const content = reading.content;
    const text = content.kind === 'text' ? content.text : content.kind === 'button' ? (content.title ?? null) : null;
    return fromInterpretation(reading.interpretation, text);
  }
  if (replyText === null) return { intent: 'other', reason: null };
  return fromInterpretation(interpretInbound({ kind: 'text', text: replyText }), replyText);
}
