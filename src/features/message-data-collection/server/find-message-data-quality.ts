import 'server-only';
import type { Database } from '@/db/client';
import { findCohortScope, type Viewer } from '@/db/queries/cohort-scope';
import { messageConditions, messagePatientConditions } from '@/db/queries/message-scope';
import { findReportingPeriod, type PeriodChoice } from '@/db/queries/reporting-period';
import { MINIMUM_GROUP_SIZE, seesSuppressedAggregates } from '@/db/queries/suppression';
import { AppError, noUserLoggedIn } from '@/lib/errors';
import type { DataQualityReport, MessageFilterQuery } from '../schemas';
import { measureDataQuality } from './measure-data-quality';

export type MessageDataQuality = {
  /** Distinct patients with a message in the selection; null when suppressed for being too few. */
  patients: number | null;
  /** The checks; null without messages, or when the selection holds fewer patients than a suppressed viewer may see. */
  dataQuality: DataQualityReport | null;
  /** ISO 8601: when the figures were computed (they are reused for a few minutes). */
  computedAt: string;
};

/** How long the figures of one selection are reused: each is a pass over up to a year of messages. */
export const dataQualityReuseMs = 5 * 60_000;
const cacheLimit = 100;
// Per database (tests open several in one process), then per selection.
const caches = new WeakMap<Database, Map<string, { at: number; value: MessageDataQuality }>>();

/**
 * The data-quality checks of the message store for a viewer's scope, reporting period and filters
 * (measure-data-quality.ts), read from the per-message facts (decision 049). Computed from the messages, one
 * pass over a year of the demo's took longer than a page may (0.9–1.5 s on PGlite for every patient), so the
 * page streams this section in after the rest, and the figures of the same selection (same scope, period,
 * filters and suppression) are reused for 5 minutes in this process; the page says when they were computed.
 * Both stay: the facts bring a view under the target, and the reuse spares the database repeated passes.
 */
export async function findMessageDataQuality(options: {
  database: Database;
  actor: Viewer | null;
  choice?: PeriodChoice;
  filters: MessageFilterQuery;
  now: Date;
  /** 'facts' (the page): the per-message facts (docs/decisions/049); 'messages': computed from the messages, uncached (the reference). */
  source?: 'facts' | 'messages';
}): Promise<MessageDataQuality> {
  const { database, actor, filters, now } = options;
  const source = options.source ?? 'facts';
  if (actor === null) throw new AppError('unauthenticated', noUserLoggedIn);
  const scope = await findCohortScope({ database, actor });
  const computedAt = now.toISOString();
  if (scope.kind === 'no-company') return { patients: 0, dataQuality: null, computedAt };
  const suppressed = seesSuppressedAggregates(actor.role);
  const period = await findReportingPeriod({ database, scope, choice: options.choice, now });
  const key = JSON.stringify([scope, period.start, period.end, filters, suppressed, source]);
  let cache = caches.get(database);
  if (cache === undefined) {
    cache = new Map();
    caches.set(database, cache);
  }
  const cached = cache.get(key);
  if (source === 'facts' && cached !== undefined && now.getTime() - cached.at >= 0 && now.getTime() - cached.at < dataQualityReuseMs)
    return cached.value;

  const where = messageConditions(database, scope, { period: { start: period.start, end: period.end }, ...filters });
  let value: MessageDataQuality;
  if (where === null) value = { patients: 0, dataQuality: null, computedAt };
  else {
    const measured = await measureDataQuality({
      database,
      where,
      period: { start: period.start, end: period.end },
      webhookEvents: scope.kind === 'all' && filters.persona === null && filters.productId === null ? { channel: filters.channel } : null,
      suppressed,
      now,
      facts:
        source === 'facts'
          ? { patients: messagePatientConditions(database, scope, filters) ?? undefined, channel: filters.channel }
          : undefined,
    });
    value =
      suppressed && measured.patients > 0 && measured.patients < MINIMUM_GROUP_SIZE
        ? { patients: null, dataQuality: null, computedAt }
        : { patients: measured.patients, dataQuality: measured.patients === 0 ? null : measured.report, computedAt };
  }
  if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value!);
  cache.set(key, { at: now.getTime(), value });
  return value;
}
