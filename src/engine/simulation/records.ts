/**
 * What the simulator outputs: the same records the product stores for real patients (DESIGN.md §6),
 * so pages and engines read simulated and real data alike. Days are integer day numbers (days since
 * 1970-01-01); times are minutes after local midnight in the patient's time zone.
 */
import type { Condition } from './conditions';
import type { MessageCategory, MessageChannel, MessageFraming } from '@/engine/policy/message-arms';
import type { AgeBand, Persona } from './personas';

export type Sex = 'female' | 'male';

/** Who observes doses for this patient. */
export type DoseObserver = 'app' | 'whatsapp' | 'smart-bottle';

export type SimulatedPatient = {
  /** Pseudonymous and stable for a given seed. */
  id: string;
  persona: Persona;
  ageBand: AgeBand;
  sex: Sex;
  region: string;
  /** BCP 47 language tag. */
  language: string;
  /** IANA time zone; all minutes of this patient's records are local to it. */
  timezone: string;
  preferredChannel: MessageChannel;
  consent: Readonly<Record<MessageChannel, boolean>>;
  conditions: readonly Condition[];
  productIds: readonly string[];
  doseObserver: DoseObserver;
  /** Usual morning and evening dose times (minutes after midnight), Sunday first. */
  routine: { morning: readonly number[]; evening: readonly number[] };
};

export type Dispensing = {
  patientId: string;
  productId: string;
  day: number;
  daysSupply: 30 | 90;
  /** In the product's dispensing unit (tablets, capsules or inhalers). */
  quantity: number;
  source: 'simulation';
};

export type DoseStatus = 'taken' | 'missed' | 'skipped' | 'unknown';

export type DoseEvent = {
  patientId: string;
  productId: string;
  scheduledDay: number;
  scheduledMinute: number;
  /** When the dose was confirmed taken; null unless `status` is taken. */
  confirmedDay: number | null;
  confirmedMinute: number | null;
  status: DoseStatus;
  /** Who observed it (or, for unknown, who was expected to and did not). */
  source: DoseObserver;
};

export type MessageStatus = 'sent' | 'delivered' | 'read' | 'failed';

export type MessageStatusChange = { status: MessageStatus; day: number; minute: number };

/** What a reply means, as the product's intent classifier would label it. */
export type ReplyIntent =
  'taken' | 'later' | 'skipped' | 'need-refill' | 'side-effects' | 'thanks' | 'question' | 'all-good' | 'struggling' | 'stop';

export type Message = {
  id: string;
  patientId: string;
  day: number;
  minute: number;
  channel: MessageChannel;
  direction: 'outbound' | 'inbound';
  /** Inbound: the category of the message it answers. */
  category: MessageCategory;
  /** null for inbound messages. */
  framing: MessageFraming | null;
  /** null for inbound messages. */
  templateId: string | null;
  /**
   * Outbound: sent, then delivered or failed, then read where the channel reports reads (SMS does not).
   * Inbound: delivered (to us).
   */
  statusHistory: readonly MessageStatusChange[];
  /** The reply's text: on the inbound message, and copied onto the outbound message it answers. */
  replyText: string | null;
  /** Inbound only. */
  replyIntent: ReplyIntent | null;
  /** Inbound only: the outbound message this answers. */
  inReplyToId: string | null;
};

/** Receives records as the simulation produces them, so a large cohort never sits in memory. */
export type SimulationSink = {
  patient?: (patient: SimulatedPatient) => void;
  dispensing?: (dispensing: Dispensing) => void;
  doseEvent?: (doseEvent: DoseEvent) => void;
  message?: (message: Message) => void;
};
