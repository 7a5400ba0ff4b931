import 'server-only';
import type { Database } from '@/db/client';
import { findCohortScope, type Viewer } from '@/db/queries/cohort-scope';
import { findMessageFilterOptions, type MessageFilters, messageConditions, periodInstants } from '@/db/queries/message-scope';
import { findReportingPeriod, type PeriodChoice, periodView } from '@/db/queries/reporting-period';
import { MINIMUM_GROUP_SIZE, seesSuppressedAggregates } from '@/db/queries/suppression';
import { isoFromDayNumber } from '@/engine/adherence/day-number';
import { wilsonInterval } from '@/engine/statistics/trial';
import { utcDayNumber } from '@/engine/time/local-day';
import { AppError, noUserLoggedIn } from '@/lib/errors';
import type { Cell, MessagingOverview, OutcomeRow, OverviewFilters, Rate, TotalRow, VolumeRow } from '../schemas';
import { countMessageOutcomes, type OutcomeCount } from './count-message-outcomes';
import { countMessageVolumes, type VolumeCount, type VolumeLevel } from './count-message-volumes';
import { countConsentOptOuts, countStopReplies } from './count-opt-outs';
import { countPlannedSends, countProgrammes, nextSendDays } from './count-programmes';
import { patientConditions } from './patient-conditions';

function rate(count: number, of: number): Rate {
  if (of === 0) return null;
  const [low, high] = wilsonInterval(count, of);
  return { count, of, share: count / of, low, high };
}

/**
 * The messaging overview for a viewer (issue 16, docs/decisions/034): message volumes, delivery, read, reply
 * and failure rates with failure reasons, opt-outs, programmes and planned sends, for the viewer's cohort
 * scope, the reporting period and the channel, persona and product filters (the shared message scope). For
 * a viewer whose aggregates are suppressed, every figure over fewer than the threshold's patients is null,
 * and a selection that small shows no figures at all. Only counts leave this module.
 */
export async function getMessagingOverview(options: {
  database: Database;
  actor: Viewer | null;
  choice?: PeriodChoice;
  filters: OverviewFilters;
  now: Date;
}): Promise<MessagingOverview> {
  const { database, actor, now } = options;
  if (actor === null) throw new AppError('unauthenticated', noUserLoggedIn);
  const scope = await findCohortScope({ database, actor });
  if (scope.kind === 'no-company') return { status: 'no-company' };
  const suppressed = seesSuppressedAggregates(actor.role);
  const [period, filterOptions] = await Promise.all([
    findReportingPeriod({ database, scope, choice: options.choice, now }),
    findMessageFilterOptions({ database, scope }),
  ]);

  // A persona or product that is not among the viewer's options is named and not applied.
  const problems: string[] = [];
  let { persona, productId } = options.filters;
  if (persona !== null && !filterOptions.personas.includes(persona)) {
    problems.push(`persona: "${persona}" is not a persona of your patients`);
    persona = null;
  }
  if (productId !== null && !filterOptions.products.some((product) => product.id === productId)) {
    problems.push(`product: "${productId}" is not a product you can see`);
    productId = null;
  }
  const filters: OverviewFilters = { channel: options.filters.channel, persona, productId };
  const messageFilters: MessageFilters = { period: { start: period.start, end: period.end }, ...filters };
  const { from, to } = periodInstants(messageFilters.period);
  const where = messageConditions(database, scope, messageFilters);
  const windowWhere = messageConditions(database, scope, { ...messageFilters, period: { start: period.start, end: period.end + 1 } });
  const patientWhere = patientConditions(database, scope, filters);

  const [volumes, outcomes, optOuts, stopReplies, programmes, plannedSends] = await Promise.all([
    where === null ? [] : countMessageVolumes({ database, where }),
    where === null || windowWhere === null ? { outcomes: [], failureReasons: [] } : countMessageOutcomes({ database, where, windowWhere }),
    patientWhere === null ? [] : countConsentOptOuts({ database, patientWhere, channel: filters.channel, from, to }),
    where === null ? [] : countStopReplies({ database, where }),
    patientWhere === null ? [] : countProgrammes({ database, patientWhere }),
    patientWhere === null ? [] : countPlannedSends({ database, patientWhere, now }),
  ]);

  const small = (patients: number) => suppressed && patients > 0 && patients < MINIMUM_GROUP_SIZE;
  const cell = (count: number, patients: number): Cell => (small(patients) ? null : count);

  const overall = volumes.find((row) => row.level === 'all');
  const selectionPatients = overall?.patients ?? 0;
  const tooFew = small(selectionPatients);

  const volumeRows = (level: VolumeLevel): VolumeRow[] => {
    const byKey = new Map<string, VolumeRow>();
    for (const row of volumes.filter((entry) => entry.level === level)) {
      const id = `${row.key}|${row.group}`;
      const entry = byKey.get(id) ?? { key: row.key ?? '', group: row.group ?? '', outbound: 0, inbound: 0 };
      entry[row.direction === 'inbound' ? 'inbound' : 'outbound'] = cell(row.messages, row.patients);
      byKey.set(id, entry);
    }
    return [...byKey.values()].sort((left, right) => left.key.localeCompare(right.key) || left.group.localeCompare(right.group));
  };
  const totalRows = (level: VolumeLevel): TotalRow[] =>
    volumeRows(level).map((row) => ({ group: row.group, outbound: row.outbound, inbound: row.inbound }));

  const outcomeRow = (row: OutcomeCount): OutcomeRow => {
    const hidden = small(row.patients);
    return {
      channel: row.channel ?? 'all',
      outbound: hidden ? null : row.outbound,
      patients: hidden ? null : row.patients,
      delivered: hidden ? null : rate(row.delivered, row.outbound),
      read: hidden ? null : rate(row.read, row.delivered),
      replied: hidden ? null : rate(row.replied, row.outbound),
      failed: hidden ? null : rate(row.failed, row.outbound),
    };
  };

  const programmeTotals = programmes.filter((row) => row.level === 1);
  const allProgrammes = programmes.find((row) => row.level === 3);
  const today = utcDayNumber(now);
  const plannedWeek = plannedSends.find((row) => row.day === null);
  const plannedHidden = plannedWeek === undefined || small(plannedWeek.patients);

  const base = {
    status: 'ok' as const,
    period: periodView(period),
    now: now.toISOString(),
    scope: scope.kind,
    suppressed,
    minimumGroupSize: MINIMUM_GROUP_SIZE,
    filters,
    filterProblem: problems.length === 0 ? null : `Some filters are not applied: ${problems.join('; ')}.`,
    options: filterOptions,
  };
  if (tooFew) {
    return {
      ...base,
      selection: { messages: null, patients: null, syntheticPatients: null },
      tooFew: true,
      daily: [],
      weeklyByChannel: [],
      weeklyByCategory: [],
      totalsByChannel: [],
      totalsByCategory: [],
      outcomes: [],
      failureReasons: [],
      optOutsByWeek: [],
      optOutsByGroup: [],
      stopReplies: [],
      programmes: [],
      programmePatients: null,
      nextSends: { days: [], total: null, next: null },
    };
  }
  const sortedOutcomes = [...outcomes.outcomes].sort((left, right) =>
    left.channel === null ? 1 : right.channel === null ? -1 : left.channel.localeCompare(right.channel),
  );
  return {
    ...base,
    selection: {
      messages: overall?.messages ?? 0,
      patients: selectionPatients,
      syntheticPatients: overall?.syntheticPatients ?? 0,
    },
    tooFew: false,
    daily: volumeRows('day-channel'),
    weeklyByChannel: volumeRows('week-channel'),
    weeklyByCategory: volumeRows('week-category'),
    totalsByChannel: totalRows('channel'),
    totalsByCategory: totalRows('category'),
    outcomes: sortedOutcomes.map(outcomeRow),
    failureReasons: outcomes.failureReasons.map((row) => ({
      code: row.code,
      title: row.title,
      messages: cell(row.messages, row.patients),
    })),
    optOutsByWeek: optOuts
      .filter((row) => row.week !== null)
      .map((row) => ({ week: row.week!, source: row.source, events: cell(row.events, row.patients) }))
      .sort((left, right) => left.week.localeCompare(right.week) || left.source.localeCompare(right.source)),
    optOutsByGroup: optOuts
      .filter((row) => row.week === null)
      .map((row) => ({
        channel: row.channel ?? '',
        purpose: row.purpose ?? '',
        source: row.source,
        events: cell(row.events, row.patients),
      }))
      .sort(
        (left, right) =>
          left.channel.localeCompare(right.channel) || left.purpose.localeCompare(right.purpose) || left.source.localeCompare(right.source),
      ),
    stopReplies: stopReplies.map((row) => ({ week: row.week, channel: row.channel, replies: cell(row.replies, row.patients) })),
    programmes: programmeTotals
      .map((total) => ({
        programme: total.programme ?? 'not-enrolled',
        patients: cell(total.patients, total.patients),
        byChannel: programmes
          .filter((row) => row.level === 0 && row.programme === total.programme)
          .map((row) => ({ channel: row.channel ?? 'none', patients: cell(row.patients, row.patients) }))
          .sort((left, right) => left.channel.localeCompare(right.channel)),
      }))
      .sort((left, right) => left.programme.localeCompare(right.programme)),
    programmePatients: allProgrammes === undefined ? 0 : cell(allProgrammes.patients, allProgrammes.patients),
    nextSends: {
      days: Array.from({ length: nextSendDays }, (_, index) => {
        const day = isoFromDayNumber(today + index);
        const row = plannedSends.find((entry) => entry.day === day);
        return { day, sends: row === undefined ? 0 : cell(row.sends, row.patients) };
      }),
      total: plannedWeek === undefined ? 0 : cell(plannedWeek.sends, plannedWeek.patients),
      next: plannedHidden ? null : (plannedWeek?.next ?? null),
    },
  };
}
