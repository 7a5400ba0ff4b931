/**
 * The messaging overview's figures as the page receives them (browser-safe: types and the address's filters).
 * A figure computed over fewer patients than the suppression threshold is null for a viewer whose aggregates
 * are suppressed: the page shows "<11 patients" in its place.
 */
import { z } from '@/lib/zod';
import { type Channel, channels } from '@/lib/domain/channels';
import { ALL_FILTER_VALUE } from '@/lib/filter-values';
import type { PeriodView } from '@/lib/period-query';

/** A count, or null when it is hidden (fewer patients than the threshold). */
export type Cell = number | null;

/** A share with its Wilson 95% interval; null when there is nothing to divide by or the group is hidden. */
export type Rate = { count: number; of: number; share: number; low: number; high: number } | null;

export type VolumeRow = {
  /** The UTC day or the Monday of the ISO week, YYYY-MM-DD. */
  key: string;
  /** A channel or a category (inbound messages carry the category of the exchange, or none). */
  group: string;
  outbound: Cell;
  inbound: Cell;
};

export type TotalRow = { group: string; outbound: Cell; inbound: Cell };

export type OutcomeRow = {
  /** A channel, or 'all'. */
  channel: string;
  /** Outbound messages; null when hidden (then so are the rates). */
  outbound: Cell;
  delivered: Rate;
  read: Rate;
  replied: Rate;
  failed: Rate;
};

export type FailureReasonRow = { code: string; title: string | null; messages: Cell };

/** Where an opt-out came from: a keyword reply (STOP), the patient's profile, a clinician, or other (import …). */
export const optOutSourceClasses = ['keyword', 'profile', 'clinician', 'other'] as const;
export type OptOutSourceClass = (typeof optOutSourceClasses)[number];

export type OptOutWeekRow = { week: string; source: OptOutSourceClass; events: Cell };
export type OptOutGroupRow = { channel: string; purpose: string; source: OptOutSourceClass; events: Cell };
export type StopReplyRow = { week: string; channel: string; replies: Cell };

export type ProgrammeRow = {
  /** A messaging programme, or 'not-enrolled'. */
  programme: string;
  /** Patients per preferred channel ('none': no preference recorded). */
  byChannel: { channel: string; patients: Cell }[];
  patients: Cell;
};

export type NextSends = {
  /** Planned sends per UTC day over the next seven days (today first). */
  days: { day: string; sends: Cell }[];
  total: Cell;
  /** When the next planned send is due (ISO instant); null when none or hidden. */
  next: string | null;
};

export type OverviewFilters = { channel: Channel | null; persona: string | null; productId: string | null };

export type MessagingOverview =
  | { status: 'no-company' }
  | {
      status: 'ok';
      period: PeriodView;
      /** ISO instant the schedules are read at. */
      now: string;
      scope: 'all' | 'organisation' | 'companies';
      suppressed: boolean;
      minimumGroupSize: number;
      filters: OverviewFilters;
      /** A filter in the address that is not one of the options, named (the filter is then not applied). */
      filterProblem: string | null;
      options: { personas: string[]; products: { id: string; name: string }[] };
      /** The selection: messages in the period matching the filters, and the patients they concern. */
      selection: { messages: Cell; patients: Cell; syntheticPatients: Cell };
      /** True when a suppressed viewer's selection holds fewer patients than the threshold: no figures then. */
      tooFew: boolean;
      daily: VolumeRow[];
      weeklyByChannel: VolumeRow[];
      weeklyByCategory: VolumeRow[];
      totalsByChannel: TotalRow[];
      totalsByCategory: TotalRow[];
      outcomes: OutcomeRow[];
      failureReasons: FailureReasonRow[];
      optOutsByWeek: OptOutWeekRow[];
      optOutsByGroup: OptOutGroupRow[];
      stopReplies: StopReplyRow[];
      /** Patients of the scope (persona and product filters) on each programme; the period does not apply. */
      programmes: ProgrammeRow[];
      programmePatients: Cell;
      nextSends: NextSends;
    };

/** The page's filters in the address: `?channel=sms&persona=…&product=…` ('all' or nothing: no filter). */
export { ALL_FILTER_VALUE };

const optionalText = (field: string) =>
  z
    .string({ error: `${field} must be given once, as text` })
    .trim()
    .max(100, { error: `${field} is too long` })
    .optional()
    .transform((value) => (value === undefined || value === '' || value === ALL_FILTER_VALUE ? null : value));

export const overviewFilterQuerySchema = z.object({
  channel: optionalText('channel').refine((value) => value === null || (channels as readonly string[]).includes(value), {
    error: `channel: choose one of ${channels.join(', ')}`,
  }),
  persona: optionalText('persona'),
  product: optionalText('product'),
});

/** The filters in an address; a bad field is named and left out (the page says so). */
export function parseOverviewFilters(searchParams: Record<string, string | string[] | undefined>): {
  filters: OverviewFilters;
  problem: string | null;
} {
  const problems: string[] = [];
  const field = <K extends 'channel' | 'persona' | 'product'>(name: K) => {
    const parsed = overviewFilterQuerySchema.shape[name].safeParse(searchParams[name]);
    if (parsed.success) return parsed.data;
    problems.push(
      parsed.error.issues.map((issue) => (issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`)).join('; '),
    );
    return null;
  };
  const channel = field('channel') as Channel | null;
  const persona = field('persona');
  const productId = field('product');
  return {
    filters: { channel, persona, productId },
    problem: problems.length === 0 ? null : `Some filters in the address are not valid (${problems.join('; ')}); they are not applied.`,
  };
}
