import 'server-only';
import type { Database } from '@/db/client';
import { type Viewer } from '@/db/queries/cohort-scope';
import {
  type MessageFilters,
  messageConditions,
  periodInstants,
  findMessageSelection,
  messagePatientConditions,
} from '@/db/queries/message-scope';
import { type PeriodChoice, periodView } from '@/db/queries/reporting-period';
import { MINIMUM_GROUP_SIZE } from '@/db/queries/suppression';
import { isoFromDayNumber } from '@/engine/adherence/day-number';
import { wilsonInterval } from '@/engine/statistics/trial';
import { utcDayNumber } from '@/engine/time/local-day';
import { AppError, noUserLoggedIn } from '@/lib/errors';
import type { Cell, MessagingOverview, OutcomeRow, OverviewFilters, Rate, TotalRow, VolumeRow } from '../schemas';
import { countFailureReasons, countReplies } from './count-message-outcomes';
import { countGroupPatients, countMessageGroups, countSelectionPatients, type GroupPatientLevel, weekOfDay } from './count-message-volumes';
import { countConsentOptOuts, countStopReplyPatients, isStopText } from './count-opt-outs';
import { countPlannedSends, countProgrammes, nextSendDays } from './count-programmes';
import { countSummarisedGroupPatients, countSummarisedMessages, summaryCanServe } from './count-summarised-messages';
import { summariseMessageDays } from './summarise-message-days';
import { withSortMemory } from './with-sort-memory';

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
 *
 * Volumes, outcomes, replies, failure reasons and (for suppressed viewers) patients per group come from the
 * daily message summaries where they can serve the selection (docs/decisions/045: brought up to date first,
 * so they equal the direct counts); otherwise, and with `source: 'messages'`, from the messages.
 */
export async function getMessagingOverview(options: {
  database: Database;
  actor: Viewer | null;
  choice?: PeriodChoice;
  filters: OverviewFilters;
  now: Date;
  /**
   * Where the message counts come from: the daily summaries where they can serve the selection (the default;
   * docs/decisions/045), or always the messages themselves (the direct computation the summaries are tested against).
   */
  source?: 'summaries' | 'messages';
}): Promise<MessagingOverview> {
  const { database, actor, now } = options;
  if (actor === null) throw new AppError('unauthenticated', noUserLoggedIn);
  const viewed = await findMessageSelection({ database, actor, choice: options.choice, now });
  if (viewed === 'no-company') return { status: 'no-company' };
  const { scope, suppressed, period, filterOptions } = viewed;

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
  const patientWhere = messagePatientConditions(database, scope, filters);

  const summarised = where !== null && options.source !== 'messages' && summaryCanServe(scope, messageFilters);
  const counted = summarised
    ? summariseMessageDays({ database }).then(() => countSummarisedMessages({ database, scope, filters: messageFilters }))
    : null;
  const [groups, selection, replies, failureReasons, optOuts, programmes, plannedSends, groupPatients] = await Promise.all([
    counted !== null ? counted.then((counts) => counts.groups) : where === null ? [] : countMessageGroups({ database, where }),
    where === null ? { patients: 0, synthetic: 0 } : countSelectionPatients({ database, where }),
    counted !== null
      ? counted.then((counts) => counts.replies)
      : where === null || windowWhere === null
        ? []
        : withSortMemory(database, (transaction) => countReplies({ database: transaction, where, windowWhere })),
    // A suppressed viewer's failure reasons need their patients, which the summaries do not hold.
    counted !== null && !suppressed
      ? counted.then((counts) => counts.failureReasons.map((row) => ({ ...row, patients: 0 })))
      : where === null
        ? []
        : countFailureReasons({ database, where }),
    patientWhere === null ? [] : countConsentOptOuts({ database, patientWhere, channel: filters.channel, from, to }),
    patientWhere === null ? [] : countProgrammes({ database, patientWhere }),
    patientWhere === null ? [] : countPlannedSends({ database, patientWhere, now }),
    // Patients per group only matter to a viewer whose aggregates are suppressed.
    where === null || !suppressed
      ? []
      : counted !== null
        ? counted.then(() => countSummarisedGroupPatients({ database, scope, filters: messageFilters }))
        : withSortMemory(database, (transaction) => countGroupPatients({ database: transaction, where })),
  ]);
  const stopTexts = [...new Set(groups.flatMap((row) => (row.replyText !== null && isStopText(row.replyText) ? [row.replyText] : [])))];
  const stopPatients = where !== null && suppressed ? await countStopReplyPatients({ database, where, stopTexts }) : [];

  const small = (patients: number) => suppressed && patients > 0 && patients < MINIMUM_GROUP_SIZE;
  const cell = (count: number, patients: number): Cell => (small(patients) ? null : count);
  const tooFew = small(selection.patients);

  // Sums of the day-level groups; a group's patients (suppressed viewers only) from countGroupPatients.
  const patientsOf = new Map(groupPatients.map((row) => [`${row.level}|${row.direction}|${row.key}|${row.group}`, row.patients]));
  const hiddenCell = (level: GroupPatientLevel, direction: string, key: number | null, group: string | null, count: number): Cell =>
    suppressed ? cell(count, patientsOf.get(`${level}|${direction}|${key}|${group}`) ?? 0) : count;
  const volumeRows = (level: 'day-channel' | 'week-channel' | 'week-category'): VolumeRow[] => {
    const sums = new Map<string, { key: number; group: string; outbound: number; inbound: number }>();
    for (const row of groups) {
      const key = level === 'day-channel' ? row.day : weekOfDay(row.day);
      const group = level === 'week-category' ? row.category : row.channel;
      const id = `${key}|${group}`;
      const entry = sums.get(id) ?? { key, group, outbound: 0, inbound: 0 };
      entry[row.direction] += row.messages;
      sums.set(id, entry);
    }
    return [...sums.values()]
      .sort((left, right) => left.key - right.key || left.group.localeCompare(right.group))
      .map((entry) => ({
        key: isoFromDayNumber(entry.key),
        group: entry.group,
        outbound: hiddenCell(level, 'outbound', entry.key, entry.group, entry.outbound),
        inbound: hiddenCell(level, 'inbound', entry.key, entry.group, entry.inbound),
      }));
  };
  const totalRows = (level: 'channel' | 'category'): TotalRow[] => {
    const sums = new Map<string, { outbound: number; inbound: number }>();
    for (const row of groups) {
      const group = level === 'channel' ? row.channel : row.category;
      const entry = sums.get(group) ?? { outbound: 0, inbound: 0 };
      entry[row.direction] += row.messages;
      sums.set(group, entry);
    }
    return [...sums.entries()]
      .sort(([left], [right]) => left.localeCompare(right))
      .map(([group, entry]) => ({
        group,
        outbound: hiddenCell(level, 'outbound', null, group, entry.outbound),
        inbound: hiddenCell(level, 'inbound', null, group, entry.inbound),
      }));
  };

  // Outcomes per channel and overall, from the outbound groups and the replies.
  const outbound = groups.filter((row) => row.direction === 'outbound');
  const outcomeChannels = [...new Set(outbound.map((row) => row.channel))].sort();
  const outcomeRow = (channel: string | null): OutcomeRow => {
    const rows = outbound.filter((row) => channel === null || row.channel === channel);
    const sum = (field: 'messages' | 'delivered' | 'read' | 'failed') => rows.reduce((total, row) => total + row[field], 0);
    const sent = sum('messages');
    const delivered = sum('delivered');
    const replied = replies.filter((row) => channel === null || row.channel === channel).reduce((total, row) => total + row.replied, 0);
    const patients = suppressed
      ? (patientsOf.get(channel === null ? 'direction|outbound|null|null' : `channel|outbound|null|${channel}`) ?? 0)
      : null;
    if (patients !== null && small(patients)) {
      return { channel: channel ?? 'all', outbound: null, delivered: null, read: null, replied: null, failed: null };
    }
    return {
      channel: channel ?? 'all',
      outbound: sent,
      delivered: rate(delivered, sent),
      read: rate(sum('read'), delivered),
      replied: rate(replied, sent),
      failed: rate(sum('failed'), sent),
    };
  };

  // STOP replies per ISO week and channel: live readings and demo texts the keyword matcher reads as STOP.
  const stopSums = new Map<string, { week: string; channel: string; replies: number }>();
  for (const row of groups) {
    const stops = row.liveStops + (row.replyText !== null && stopTexts.includes(row.replyText) ? row.messages : 0);
    if (row.direction !== 'inbound' || stops === 0) continue;
    const week = isoFromDayNumber(weekOfDay(row.day));
    const id = `${week}|${row.channel}`;
    const entry = stopSums.get(id) ?? { week, channel: row.channel, replies: 0 };
    entry.replies += stops;
    stopSums.set(id, entry);
  }
  const stopReplies = [...stopSums.values()]
    .sort((left, right) => left.week.localeCompare(right.week) || left.channel.localeCompare(right.channel))
    .map((entry) => {
      const patients = stopPatients.find((row) => row.week === entry.week && row.channel === entry.channel)?.patients ?? 0;
      return { week: entry.week, channel: entry.channel, replies: suppressed ? cell(entry.replies, patients) : entry.replies };
    });

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
  return {
    ...base,
    selection: {
      messages: groups.reduce((total, row) => total + row.messages, 0),
      patients: selection.patients,
      syntheticPatients: selection.synthetic,
    },
    tooFew: false,
    daily: volumeRows('day-channel'),
    weeklyByChannel: volumeRows('week-channel'),
    weeklyByCategory: volumeRows('week-category'),
    totalsByChannel: totalRows('channel'),
    totalsByCategory: totalRows('category'),
    outcomes: [...outcomeChannels.map(outcomeRow), ...(outbound.length === 0 ? [] : [outcomeRow(null)])],
    failureReasons: failureReasons.map((row) => ({
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
    stopReplies,
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
