import type { ReactNode } from 'react';
import { describePeriod, ReportingPeriodBar } from '@/components/reporting-period-bar';
import { dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import { channels } from '@/lib/domain/channels';
import { formatCount, formatDate, formatDateTime, formatPercent } from '@/lib/format';
import { periodQueryOf } from '@/lib/period-query';
import { patientEngagementPrefix } from '@/lib/routes';
import type { Cell, MessagingOverview, Rate, VolumeRow } from '../schemas';
import { optOutSourceClasses } from '../schemas';
import { personaLabel } from '@/lib/domain/personas';
import { categoryLabel, channelLabel, optOutSourceLabel, programmeLabel } from './labels';
import { StackedBarsChart } from './overview-charts';
import { OverviewFilterForm } from './overview-filter-form';
import { TableScroll } from '@/lib/components/table-scroll';
import { SuppressedCell, SuppressionNote } from '@/lib/components/suppressed-cell';

export const messagingOverviewPath = `${patientEngagementPrefix}messaging-overview`;

const TABLE_CLASS = 'w-full min-w-max text-left text-sm [&_td]:pr-4 [&_td]:py-1 [&_th]:pr-4';

type Ok = Extract<MessagingOverview, { status: 'ok' }>;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-3 rounded-xl border border-separator bg-surface p-4" aria-labelledby={id}>
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function count(value: Cell): ReactNode {
  return value === null ? <SuppressedCell /> : formatCount(value);
}

function rateText(rate: Rate, hidden: boolean): ReactNode {
  if (hidden) return <SuppressedCell reason="derived" />;
  if (rate === null) return '—';
  return `${formatPercent(rate.share, 1)} (${formatCount(rate.count)} of ${formatCount(rate.of)}; 95% CI ${formatPercent(rate.low, 1)}–${formatPercent(rate.high, 1)})`;
}

function scopeWords(page: Ok): string {
  if (page.scope === 'organisation') return 'your organisation’s patients';
  if (page.scope === 'companies') return 'the patients dispensed your companies’ products';
  return 'all patients';
}

/** "to 1,600 patients (all synthetic) of all patients": the population every figure is about. */
function populationWords(page: Ok): string {
  const { patients, syntheticPatients } = page.selection;
  if (patients === null) return `fewer than ${page.minimumGroupSize} of ${scopeWords(page)}`;
  const synthetic =
    syntheticPatients === patients
      ? patients === 0
        ? ''
        : ' (all synthetic demo data)'
      : ` (${formatCount(syntheticPatients ?? 0)} synthetic)`;
  return `${formatCount(patients)} ${patients === 1 ? 'patient' : 'patients'}${synthetic} of ${scopeWords(page)}`;
}

function filterWords(page: Ok): string {
  const parts: string[] = [];
  if (page.filters.channel !== null) parts.push(`channel ${channelLabel(page.filters.channel)}`);
  if (page.filters.persona !== null) parts.push(`persona ${personaLabel(page.filters.persona)}`);
  if (page.filters.productId !== null) {
    parts.push(`product ${page.options.products.find((product) => product.id === page.filters.productId)?.name ?? page.filters.productId}`);
  }
  return parts.length === 0 ? '' : `, ${parts.join(', ')}`;
}

/** Rows of a volume table pivoted to one row per day or week and a column pair (outbound, inbound) per group. */
function VolumeTable({
  caption,
  rows,
  groups,
  groupLabel,
  keyHeading,
}: {
  caption: string;
  rows: VolumeRow[];
  groups: string[];
  groupLabel: (group: string) => string;
  keyHeading: string;
}) {
  const keys = [...new Set(rows.map((row) => row.key))];
  const find = (key: string, group: string) => rows.find((row) => row.key === key && row.group === group);
  return (
    <TableScroll label={caption}>
      <table className={TABLE_CLASS}>
        <caption className="text-left font-medium">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{keyHeading}</th>
            {groups.map((group) => (
              <th scope="col" key={group}>
                {groupLabel(group)} out / in
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key}>
              <th scope="row" className="font-normal">
                {formatDate(key, { short: true })}
              </th>
              {groups.map((group) => {
                const row = find(key, group);
                return (
                  <td key={group}>
                    {row === undefined ? (
                      '0 / 0'
                    ) : (
                      <>
                        {count(row.outbound)} / {count(row.inbound)}
                      </>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function Volumes({ page, context }: { page: Ok; context: string }) {
  const channelGroups = page.totalsByChannel.map((row) => row.group);
  const categoryGroups = page.totalsByCategory.map((row) => row.group);
  const start = dayNumberFromIso(page.period.start);
  const days = Array.from({ length: page.period.days }, (_, index) => isoFromDayNumber(start + index));
  const series = channelGroups.map((channel) => ({
    label: `${channelLabel(channel)} sent`,
    values: days.map((day) => {
      const row = page.daily.find((entry) => entry.key === day && entry.group === channel);
      return row === undefined ? 0 : row.outbound;
    }),
  }));
  return (
    <Section id="volumes-heading" title="Message volumes">
      <p className="text-sm text-muted">
        {context}. Sent (outbound) and received (inbound) messages, by the UTC day or ISO week (from Monday) they were sent.
      </p>
      <StackedBarsChart
        labels={days}
        series={series}
        axisName="Messages sent"
        label={`Messages sent per day by channel, ${context}. The same figures are in the tables below.`}
      />
      <TableScroll label="Messages by channel and category">
        <table className={TABLE_CLASS}>
          <caption className="text-left font-medium">Messages in the period by channel and by category ({context})</caption>
          <thead>
            <tr>
              <th scope="col">Group</th>
              <th scope="col">Sent</th>
              <th scope="col">Received</th>
            </tr>
          </thead>
          <tbody>
            {page.totalsByChannel.map((row) => (
              <tr key={`channel-${row.group}`}>
                <th scope="row" className="font-normal">
                  Channel: {channelLabel(row.group)}
                </th>
                <td>{count(row.outbound)}</td>
                <td>{count(row.inbound)}</td>
              </tr>
            ))}
            {page.totalsByCategory.map((row) => (
              <tr key={`category-${row.group}`}>
                <th scope="row" className="font-normal">
                  Category: {categoryLabel(row.group)}
                </th>
                <td>{count(row.outbound)}</td>
                <td>{count(row.inbound)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <VolumeTable
        caption={`Messages per week by channel, sent / received (${context})`}
        rows={page.weeklyByChannel}
        groups={channelGroups}
        groupLabel={channelLabel}
        keyHeading="Week from"
      />
      <details>
        <summary className="cursor-pointer">Messages per week by category</summary>
        <VolumeTable
          caption={`Messages per week by category, sent / received (${context})`}
          rows={page.weeklyByCategory}
          groups={categoryGroups}
          groupLabel={categoryLabel}
          keyHeading="Week from"
        />
      </details>
      <details>
        <summary className="cursor-pointer">Messages per day by channel (the chart’s figures)</summary>
        <VolumeTable
          caption={`Messages per day by channel, sent / received (${context})`}
          rows={page.daily}
          groups={channelGroups}
          groupLabel={channelLabel}
          keyHeading="Day"
        />
      </details>
    </Section>
  );
}

function Outcomes({ page, context }: { page: Ok; context: string }) {
  return (
    <Section id="outcomes-heading" title="Delivery, read, reply and failure rates">
      <p className="text-sm text-muted">
        {context}. Delivered: of messages sent; read: of messages delivered (SMS reports no reads); replied: of messages sent, an answer
        naming the message, or the patient’s next message on the channel within 24 hours; failed: of messages sent. Each with its Wilson 95%
        confidence interval.
      </p>
      <TableScroll label="Rates by channel">
        <table className={TABLE_CLASS} data-testid="outcomes-table">
          <caption className="text-left font-medium">Outcomes of the messages sent, by channel ({context})</caption>
          <thead>
            <tr>
              <th scope="col">Channel</th>
              <th scope="col">Sent</th>
              <th scope="col">Delivered</th>
              <th scope="col">Read</th>
              <th scope="col">Replied</th>
              <th scope="col">Failed</th>
            </tr>
          </thead>
          <tbody>
            {page.outcomes.map((row) => {
              const hidden = row.outbound === null;
              return (
                <tr key={row.channel}>
                  <th scope="row">{channelLabel(row.channel)}</th>
                  <td>{count(row.outbound)}</td>
                  <td>{rateText(row.delivered, hidden)}</td>
                  <td>{rateText(row.read, hidden)}</td>
                  <td>{rateText(row.replied, hidden)}</td>
                  <td>{rateText(row.failed, hidden)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
      {page.failureReasons.length === 0 ? (
        <p className="text-sm">No failure reasons were reported for the messages sent ({context}).</p>
      ) : (
        <TableScroll label="Failure reasons">
          <table className={TABLE_CLASS}>
            <caption className="text-left font-medium">Failure reasons the providers gave ({context})</caption>
            <thead>
              <tr>
                <th scope="col">Error code</th>
                <th scope="col">Reason</th>
                <th scope="col">Messages</th>
              </tr>
            </thead>
            <tbody>
              {page.failureReasons.map((row) => (
                <tr key={row.code}>
                  <th scope="row">{row.code}</th>
                  <td>{row.title ?? '—'}</td>
                  <td>{count(row.messages)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Section>
  );
}

function OptOuts({ page, periodWords, patientWords }: { page: Ok; periodWords: string; patientWords: string }) {
  const weeks = [...new Set(page.optOutsByWeek.map((row) => row.week))];
  const series = optOutSourceClasses.map((source) => ({
    label: optOutSourceLabel(source),
    values: weeks.map((week) => page.optOutsByWeek.find((row) => row.week === week && row.source === source)?.events ?? 0),
  }));
  const context = `Opt-outs ${periodWords}, ${patientWords}`;
  return (
    <Section id="opt-outs-heading" title="Opt-outs over time">
      <p className="text-sm text-muted">
        {context}: withdrawals recorded in the consent ledger, by ISO week and where they came from, and STOP replies in the message store
        (a live STOP is in both; the demo’s simulated STOP replies are only in the message store).
      </p>
      {weeks.length === 0 ? (
        <p className="text-sm">No opt-outs were recorded in the consent ledger ({context}).</p>
      ) : (
        <>
          <StackedBarsChart
            labels={weeks}
            series={series}
            axisName="Opt-outs"
            label={`Opt-outs per week by source, ${context}. The same figures are in the table below.`}
          />
          <TableScroll label="Opt-outs per week">
            <table className={TABLE_CLASS}>
              <caption className="text-left font-medium">Opt-outs per week by source ({context})</caption>
              <thead>
                <tr>
                  <th scope="col">Week from</th>
                  {optOutSourceClasses.map((source) => (
                    <th scope="col" key={source}>
                      {optOutSourceLabel(source)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {weeks.map((week) => (
                  <tr key={week}>
                    <th scope="row" className="font-normal">
                      {formatDate(week, { short: true })}
                    </th>
                    {optOutSourceClasses.map((source) => {
                      const row = page.optOutsByWeek.find((entry) => entry.week === week && entry.source === source);
                      return <td key={source}>{row === undefined ? '0' : count(row.events)}</td>;
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <TableScroll label="Opt-outs by channel and purpose">
            <table className={TABLE_CLASS}>
              <caption className="text-left font-medium">Opt-outs by channel, purpose and source ({context})</caption>
              <thead>
                <tr>
                  <th scope="col">Channel</th>
                  <th scope="col">Purpose</th>
                  <th scope="col">Source</th>
                  <th scope="col">Opt-outs</th>
                </tr>
              </thead>
              <tbody>
                {page.optOutsByGroup.map((row) => (
                  <tr key={`${row.channel}-${row.purpose}-${row.source}`}>
                    <td>{channelLabel(row.channel)}</td>
                    <td>{categoryLabel(row.purpose)}</td>
                    <td>{optOutSourceLabel(row.source)}</td>
                    <td>{count(row.events)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      )}
      {page.stopReplies.length === 0 ? (
        <p className="text-sm">No STOP replies in the message store ({context}).</p>
      ) : (
        <TableScroll label="STOP replies per week">
          <table className={TABLE_CLASS}>
            <caption className="text-left font-medium">STOP replies per week by channel ({context})</caption>
            <thead>
              <tr>
                <th scope="col">Week from</th>
                <th scope="col">Channel</th>
                <th scope="col">STOP replies</th>
              </tr>
            </thead>
            <tbody>
              {page.stopReplies.map((row) => (
                <tr key={`${row.week}-${row.channel}`}>
                  <th scope="row" className="font-normal">
                    {formatDate(row.week, { short: true })}
                  </th>
                  <td>{channelLabel(row.channel)}</td>
                  <td>{count(row.replies)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Section>
  );
}

function Programmes({ page, patientWords }: { page: Ok; patientWords: string }) {
  const channelColumns = [...new Set(page.programmes.flatMap((row) => row.byChannel.map((entry) => entry.channel)))].sort();
  const asOf = formatDateTime(page.now);
  return (
    <Section id="programmes-heading" title="Active programmes and planned sends">
      <p className="text-sm text-muted">
        Patients on each messaging programme by preferred channel as of {asOf} ({count(page.programmePatients)} patients: {patientWords};
        the period and channel filters do not apply), and the sends the daily loop has planned for the next seven days (UTC days).
      </p>
      <TableScroll label="Patients per programme">
        <table className={TABLE_CLASS}>
          <caption className="text-left font-medium">Patients per messaging programme and preferred channel, as of {asOf}</caption>
          <thead>
            <tr>
              <th scope="col">Programme</th>
              <th scope="col">Patients</th>
              {channelColumns.map((channel) => (
                <th scope="col" key={channel}>
                  {channelLabel(channel)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {page.programmes.map((row) => (
              <tr key={row.programme}>
                <th scope="row">{programmeLabel(row.programme)}</th>
                <td>{count(row.patients)}</td>
                {channelColumns.map((channel) => {
                  const entry = row.byChannel.find((item) => item.channel === channel);
                  return <td key={channel}>{entry === undefined ? '0' : count(entry.patients)}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p data-testid="next-send">
        {page.nextSends.next !== null ? (
          `Next planned send: ${formatDateTime(page.nextSends.next)}. ${formatCount(page.nextSends.total ?? 0)} sends planned in the next seven days.`
        ) : page.nextSends.total === null ? (
          <>
            Planned sends in the next seven days: <SuppressedCell />.
          </>
        ) : (
          'No sends are planned in the next seven days.'
        )}
      </p>
      <TableScroll label="Planned sends per day">
        <table className={TABLE_CLASS}>
          <caption className="text-left font-medium">
            Planned sends per day, the next seven days from {asOf} ({patientWords})
          </caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Planned sends</th>
            </tr>
          </thead>
          <tbody>
            {page.nextSends.days.map((row) => (
              <tr key={row.day}>
                <th scope="row" className="font-normal">
                  {formatDate(row.day, { short: true })}
                </th>
                <td>{count(row.sends)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </Section>
  );
}

/** The messaging overview: period, filters, then volumes, outcomes, opt-outs and programmes. */
export function MessagingOverviewView({
  page,
  periodProblem,
  addressProblem,
}: {
  page: MessagingOverview;
  periodProblem: string | null;
  addressProblem: string | null;
}) {
  if (page.status === 'no-company') {
    return (
      <p role="status">You do not belong to a drug company yet, so there are no patients to show. An administrator can add you to one.</p>
    );
  }
  const periodQuery = periodQueryOf(page.period.choice);
  const keep = { channel: page.filters.channel, persona: page.filters.persona, product: page.filters.productId };
  const periodWords = `${formatDate(page.period.start, { short: true })} to ${formatDate(page.period.end, { short: true })}`;
  const context = `Messages ${periodWords} to ${populationWords(page)}${filterWords(page)}`;
  const patientWords = `${scopeWords(page)}${filterWords(page)}`;
  const problems = [addressProblem, page.filterProblem].filter((problem): problem is string => problem !== null);
  return (
    <div className="flex flex-col gap-6">
      <ReportingPeriodBar period={page.period} path={messagingOverviewPath} keep={keep} problem={periodProblem} />
      <OverviewFilterForm
        path={messagingOverviewPath}
        channels={channels.map((channel) => ({ value: channel, label: channelLabel(channel) }))}
        personas={page.options.personas.map((persona) => ({ value: persona, label: personaLabel(persona) }))}
        products={page.options.products.map((product) => ({ value: product.id, label: product.name }))}
        selected={{ channel: page.filters.channel, persona: page.filters.persona, product: page.filters.productId }}
        periodQuery={periodQuery}
      />
      {problems.map((problem) => (
        <p key={problem} role="alert" className="text-danger">
          {problem}
        </p>
      ))}
      <p data-testid="overview-population" className="text-lg">
        {page.selection.messages === null
          ? `${describePeriod(page.period)}: fewer than ${page.minimumGroupSize} patients in this selection.`
          : `${formatCount(page.selection.messages)} messages ${periodWords} to ${populationWords(page)}${filterWords(page)}.`}
      </p>
      {page.suppressed ? <SuppressionNote /> : null}
      {page.tooFew ? (
        <p role="status">
          This selection holds fewer than {page.minimumGroupSize} patients, so no figures are shown. Choose a longer period or fewer
          filters.
        </p>
      ) : (
        <>
          {page.selection.messages === 0 ? (
            <p role="status">No messages in the period for this selection.</p>
          ) : (
            <Volumes page={page} context={context} />
          )}
          {page.outcomes.length === 0 ? null : <Outcomes page={page} context={context} />}
          <OptOuts page={page} periodWords={periodWords} patientWords={patientWords} />
          <Programmes page={page} patientWords={patientWords} />
        </>
      )}
    </div>
  );
}
