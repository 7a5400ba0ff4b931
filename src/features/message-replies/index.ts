/**
 * Replies become data (issue 12, docs/decisions/020): the 'inbound-message-received' job (keywords to the
 * consent ledger and a service reply, dose answers to dose events) and the clinicians' "Replies to read".
 * Server-only; the page's component is src/features/message-replies/components/replies-to-read.tsx.
 */
export { actOnInboundMessage } from './server/act-on-inbound-message';
export { listRepliesToRead } from './server/list-replies-to-read';
export { markReplyRead } from './server/mark-reply-read';
export {
  markReplyReadSchema,
  replyDoseSources,
  serviceReplyKinds,
  type InboundMessageOutcome,
  type ReplyToReadDto,
  type ServiceReplyKind,
} from './schemas';
