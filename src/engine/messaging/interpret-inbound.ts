/** An inbound message, read once: a STOP/START/HELP keyword first, else an answer about the dose. */
import { matchKeyword, type KeywordMatch } from './keywords';
import { classifyReply, type InboundReply, type ReplyClassification } from './reply-classifier';

export type InboundInterpretation = { kind: 'keyword'; keyword: KeywordMatch } | { kind: 'reply'; reply: ReplyClassification };

export function interpretInbound(inbound: InboundReply, options: { optedOut?: boolean } = {}): InboundInterpretation {
  if (inbound.kind === 'text') {
    const keyword = matchKeyword(inbound.text, options);
    if (keyword !== null) return { kind: 'keyword', keyword };
  }
  return { kind: 'reply', reply: classifyReply(inbound) };
}
