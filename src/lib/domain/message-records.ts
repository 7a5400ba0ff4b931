/**
 * The shapes of the JSON kept on a `messages` row (browser-safe; src/db/schema.ts types its columns with
 * them). Relative imports: drizzle-kit loads the schema without the project's path aliases.
 */
import type { InboundInterpretation, InboundReply } from '../../engine/messaging';

/** One step of a message's delivery: sent, delivered, read, failed (with the provider's error codes), received. */
export type MessageStatusEntry = {
  status: string;
  /** ISO 8601, the provider's time of the step. */
  at: string;
  errors?: { code: string; title?: string }[];
};

/**
 * What an inbound message carried and how the engine read it: a STOP/START/HELP keyword, an answer about a
 * dose, or media (no reading). The consent ledger and the dose confirmation act on this later.
 */
export type InboundReading =
  | { content: InboundReply; interpretation: InboundInterpretation }
  | { content: { kind: 'media'; mediaType: string }; interpretation: null };

/**
 * The choices a WhatsApp message offered, each with the id it sends back: an interactive message's reply buttons or
 * list rows (a tap returns a button_reply / list_reply), or a template's quick-reply buttons (a tap returns a
 * `button` message with the payload, decision 056).
 */
export type MessageReplyChoices = { kind: 'buttons' | 'list' | 'quick-replies'; choices: { id: string; title: string }[] };
