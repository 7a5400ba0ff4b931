/**
 * The WhatsApp analysis page's DTOs and inputs (browser-safe): the message store's figures, and the chat
 * exports a user saves (docs/decisions/033).
 */
import { z } from '@/lib/zod';
import type { ChatExportProblem, ChatMessage, DateOrder, HourWeekdayCounts } from '@/engine/chat-export';
import type { MissReason } from '@/engine/messaging';
import type { PeriodView } from '@/lib/period-query';
import { channels, type Channel } from '@/lib/domain/channels';
import type { ReplyIntent, ReplyReason } from './reply-intent';

/** A share with its Wilson 95% interval; `suppressed` when fewer than the threshold's patients are in the group. */
export type RateFigure =
  | { suppressed: true }
  | { suppressed: false; count: number; of: number; patients: number; rate: number | null; low: number | null; high: number | null };

export type CountFigure = { suppressed: true } | { suppressed: false; count: number; patients: number };

export type PersonaReplyRate = { persona: string; replies: RateFigure };

export type TemplatePerformance = {
  templateId: string;
  /** Outbound messages of the template in the period and the patients they went to (null when suppressed). */
  messages: number | null;
  patients: number | null;
  replies: RateFigure;
  doseConfirmations: RateFigure;
};

export type IntentFigure = { intent: ReplyIntent; reason: ReplyReason | null; figure: CountFigure };

export type OptOutFigure = { templateId: string | null; persona: string; figure: CountFigure };

export type StoreAnalysisFilters = { channel: Channel; persona: string | null; productId: string | null };

export type StoreAnalysis = {
  /** Outbound messages in the period and whether an inbound answered them (the reply rule). */
  replies: RateFigure;
  byPersona: PersonaReplyRate[];
  replyTimes: {
    count: number;
    medianMinutes: number | null;
    p90Minutes: number | null;
    /** Per replyTimeBins entry: a count, or null when its patients are too few to show. */
    bins: (number | null)[];
  } | null;
  /** Inbound messages by weekday and hour in each patient's zone (UTC when none is recorded); null cells are hidden. */
  heatMap: (number | null)[][];
  /** Inbound messages read in UTC because the patient has no zone on record. */
  heatMapUtcFallback: number;
  inbound: number;
  intents: IntentFigure[];
  templates: TemplatePerformance[];
  optOuts: OptOutFigure[];
};

export type WhatsappAnalysisPage =
  | { status: 'no-company' }
  | {
      status: 'ok';
      period: PeriodView;
      filters: StoreAnalysisFilters;
      options: { personas: string[]; products: { id: string; name: string }[] };
      scope: 'all' | 'organisation' | 'companies';
      suppressed: boolean;
      minimumGroupSize: number;
      /** Distinct patients with a message matching the filters in the period. */
      patients: number | null;
      /** True when a suppressed viewer's whole selection has fewer patients than the threshold: no figures. */
      tooFew: boolean;
      analysis: StoreAnalysis | null;
    };

export const defaultAnalysisChannel: Channel = 'whatsapp';

const optionalText = (field: string) =>
  z
    .string({ error: `${field} must be given once, as text` })
    .trim()
    .max(100, { error: `${field} is too long` })
    .optional()
    .transform((value) => (value === undefined || value === '' ? null : value));

/** The page's filters in the address (`?channel=&persona=&product=`). */
export const analysisFiltersSchema = z.object({
  channel: z
    .enum(channels, { error: `channel: choose one of ${channels.join(', ')}` })
    .optional()
    .transform((value) => value ?? defaultAnalysisChannel),
  persona: optionalText('persona'),
  product: optionalText('product'),
});

// ---------------------------------------------------------------------------------------------------
// Saved chat exports

/** The most messages a saved conversation may hold, and the longest message text kept (bounded body). */
export const maxSavedMessages = 5000;
export const maxSavedMessageLength = 4000;
/** Next.js refuses a server action's body above 1 MB by default: the page checks before sending. */
export const maxSavedBytes = 1_000_000;

const chatMessageSchema = z.object({
  timestamp: z.iso.datetime({ error: 'messages: every timestamp must be an ISO 8601 instant' }),
  author: z.string().max(200, { error: 'messages: an author name is too long' }).nullable(),
  text: z.string().max(maxSavedMessageLength, { error: `messages: a message is longer than ${maxSavedMessageLength} characters` }),
  kind: z.enum(['text', 'media', 'system'], { error: 'messages: kind must be text, media or system' }),
});

export const saveChatExportSchema = z.object({
  fileName: z.string().trim().min(1, { error: 'fileName: give the file name' }).max(200, { error: 'fileName is too long' }),
  timeZone: z
    .string()
    .max(64, { error: 'timeZone is too long' })
    .refine(
      (zone) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      },
      { error: 'timeZone: give an IANA time zone such as Europe/London' },
    ),
  dateOrder: z.enum(['dmy', 'mdy', 'ymd'], { error: 'dateOrder: choose dmy, mdy or ymd' }),
  messages: z
    .array(chatMessageSchema)
    .min(1, { error: 'messages: the conversation has no messages' })
    .max(maxSavedMessages, { error: `messages: at most ${maxSavedMessages} messages can be saved` }),
});
export type SaveChatExportInput = z.input<typeof saveChatExportSchema>;

export const chatExportIdSchema = z.uuid({ error: 'id: give the saved conversation’s id' });

export type SavedChatExportSummary = {
  id: string;
  fileName: string;
  messageCount: number;
  participants: string[];
  createdAt: string;
};

export type SavedChatExport = SavedChatExportSummary & {
  timeZone: string;
  dateOrder: DateOrder;
  messages: ChatMessage[];
};

export type { ChatExportProblem, HourWeekdayCounts, MissReason };
