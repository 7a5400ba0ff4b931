import type { ReactNode } from 'react';
import { MessageFilterForm } from '@/components/message-filter-form';
import { ReportingPeriodBar, describePeriod } from '@/components/reporting-period-bar';
import { replyTimeBins } from '@/engine/chat-export';
import { formatCount, formatPercent } from '@/lib/format';
import { periodQueryOf } from '@/lib/period-query';
import type { RateFigure, WhatsappAnalysisPage } from '../schemas';
import { Distribution, formatMinutes } from './distribution';
import { HourWeekdayHeatMap } from './heat-map';
import { personaLabel } from '@/lib/domain/personas';
import { channelLabels, intentLabels, reasonLabels, whatsappAnalysisPath } from './labels';
import { SuppressedCell, SuppressionNote } from '@/lib/components/suppressed-cell';
import { TableScroll } from '@/lib/components/table-scroll';

function Notice({ children }: { children: ReactNode }) {
  return <p className="rounded-xl bg-surface px-3 py-2 text-sm">{children}</p>;
}

function Rate({ figure }: { figure: RateFigure }) {
  if (figure.suppressed) return <SuppressedCell reason="derived" />;
  if (figure.rate === null) return <span className="text-muted">no messages</span>;
  return (
    <span className="tabular-nums">
      {formatPercent(figure.rate, 1)}{' '}
      <span className="text-muted">
        ({formatPercent(figure.low, 1)}–{formatPercent(figure.high, 1)}; {formatCount(figure.count)} of {formatCount(figure.of)})
      </span>
    </span>
  );
}

const scopeWords = {
  all: 'all patients',
  organisation: 'the patients of your organisation',
  companies: 'the patients dispensed your products',
};

/** The message store's half of the page (server-rendered): filters in the address, figures with their period and population. */
export function StoreAnalysisView({
  page,
  periodProblem,
  filterProblem,
}: {
  page: WhatsappAnalysisPage;
  periodProblem: string | null;
  filterProblem: string | null;
}) {
  if (page.status === 'no-company')
    return (
      <Notice>Your account is not linked to a drug company yet, so there are no patients to analyse. An administrator can link it.</Notice>
    );
  const { filters, period, analysis } = page;
  const keep = { channel: filters.channel === 'whatsapp' ? null : filters.channel, persona: filters.persona, product: filters.productId };
  const periodParams = periodQueryOf(period.choice);
  const population = `${channelLabels[filters.channel]} messages${filters.persona ? `, persona ${personaLabel(filters.persona)}` : ''}${
    filters.productId
      ? `, product ${page.options.products.find((product) => product.id === filters.productId)?.name ?? filters.productId}`
      : ''
  }; ${scopeWords[page.scope]}; ${describePeriod(period)}`;
  return (
    <div className="flex flex-col gap-6">
      <ReportingPeriodBar period={period} path={whatsappAnalysisPath} keep={keep} problem={periodProblem} />
      <MessageFilterForm
        path={whatsappAnalysisPath}
        label="Message filters"
        periodParams={periodParams}
        filters={filters}
        options={page.options}
        allChannels={false}
        personaLabel={personaLabel}
        className="flex flex-wrap items-end gap-3 rounded-2xl border border-separator p-4"
      />
      {filterProblem === null ? null : (
        <p role="alert" className="text-danger">
          {filterProblem}
        </p>
      )}
      <p data-testid="store-population">
        <span className="font-medium">Population: </span>
        {page.patients === null ? `fewer than ${page.minimumGroupSize} patients` : `${formatCount(page.patients)} patients`} with{' '}
        {population}.
      </p>
      {page.suppressed ? <SuppressionNote /> : null}
      {page.tooFew ? (
        <Notice>
          Fewer than {page.minimumGroupSize} patients match these filters in this period, so no figures are shown. Widen the period or the
          filters.
        </Notice>
      ) : analysis === null ? (
        <Notice>No patients in your scope match these filters.</Notice>
      ) : (
        <>
          <section aria-labelledby="reply-rates-heading" className="flex flex-col gap-2">
            <h2 id="reply-rates-heading" className="text-xl font-semibold">
              Reply rates
            </h2>
            <p className="max-w-3xl text-sm text-muted">
              Share of outbound messages answered, with its Wilson 95% interval. A live message is answered by a reply that quotes it
              (WhatsApp’s context); a simulated one when the patient’s next message on the channel is a reply within 24 hours.
            </p>
            <p data-testid="reply-rate">
              <span className="font-medium">All outbound messages: </span>
              <Rate figure={analysis.replies} />
            </p>
            <table className="w-full max-w-2xl text-left text-sm">
              <caption className="mb-1 text-left text-muted">Reply rate by persona ({describePeriod(period)})</caption>
              <thead>
                <tr className="border-b border-separator">
                  <th scope="col" className="py-1 pr-3">
                    Persona
                  </th>
                  <th scope="col" className="py-1">
                    Reply rate (95% CI; replies of messages)
                  </th>
                </tr>
              </thead>
              <tbody>
                {analysis.byPersona.map((entry) => (
                  <tr key={entry.persona} className="border-b border-separator">
                    <th scope="row" className="py-1 pr-3 font-normal">
                      {personaLabel(entry.persona)}
                    </th>
                    <td className="py-1">
                      <Rate figure={entry.replies} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>

          <section aria-labelledby="reply-times-heading" className="flex flex-col gap-2">
            <h2 id="reply-times-heading" className="text-xl font-semibold">
              Time to reply
            </h2>
            {analysis.replyTimes === null ? (
              <Notice>Fewer than {page.minimumGroupSize} patients replied: the distribution is hidden.</Notice>
            ) : (
              <>
                <p data-testid="reply-time-summary">
                  Median {formatMinutes(analysis.replyTimes.medianMinutes)}, 90th percentile {formatMinutes(analysis.replyTimes.p90Minutes)}
                  , over {formatCount(analysis.replyTimes.count)} answered messages.
                </p>
                <Distribution
                  labels={replyTimeBins.map((bin) => bin.label)}
                  counts={analysis.replyTimes.bins}
                  caption={`Time from an outbound message to its reply: ${population}.`}

                  testId="store-reply-times"
                />
              </>
            )}
          </section>

          <section aria-labelledby="reply-heat-map-heading" className="flex flex-col gap-2">
            <h2 id="reply-heat-map-heading" className="text-xl font-semibold">
              When patients reply
            </h2>
            <HourWeekdayHeatMap
              cells={analysis.heatMap}
              caption={`${formatCount(analysis.inbound)} replies by weekday and hour, in each patient’s own time zone where it is recorded, otherwise UTC (${formatCount(
                analysis.heatMapUtcFallback,
              )} replies read in UTC): ${population}.`}

              testId="store-heat-map"
            />
          </section>

          <section aria-labelledby="intents-heading" className="flex flex-col gap-2">
            <h2 id="intents-heading" className="text-xl font-semibold">
              What patients reply
            </h2>
            <table className="w-full max-w-2xl text-left text-sm" data-testid="store-intents">
              <caption className="mb-1 text-left text-muted">
                Replies as the engine’s reply reader reads them (keywords, then the dose-reply classifier): {population}.
              </caption>
              <thead>
                <tr className="border-b border-separator">
                  <th scope="col" className="py-1 pr-3">
                    Intent
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right">
                    Replies
                  </th>
                  <th scope="col" className="py-1 text-right">
                    Patients
                  </th>
                </tr>
              </thead>
              <tbody>
                {analysis.intents.map((entry) => (
                  <tr key={`${entry.intent}-${entry.reason ?? ''}`} className="border-b border-separator">
                    <th scope="row" className="py-1 pr-3 font-normal">
                      {intentLabels[entry.intent]}
                      {entry.reason === null ? '' : ` — ${reasonLabels[entry.reason]}`}
                    </th>
                    <td className="py-1 pr-3 text-right tabular-nums">
                      {entry.figure.suppressed ? <SuppressedCell /> : formatCount(entry.figure.count)}
                    </td>
                    <td className="py-1 text-right tabular-nums">{entry.figure.suppressed ? '' : formatCount(entry.figure.patients)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>

          <section aria-labelledby="templates-heading" className="flex flex-col gap-2">
            <h2 id="templates-heading" className="text-xl font-semibold">
              Template performance
            </h2>
            <p className="max-w-3xl text-sm text-muted">
              A dose counts as confirmed after a message when the patient confirmed a dose taken within 24 hours after it. Rates with Wilson
              95% intervals.
            </p>
            <TableScroll label="Template performance">
              <table className="w-full text-left text-sm" data-testid="store-templates">
                <caption className="mb-1 text-left text-muted">Outbound messages by template: {population}.</caption>
                <thead>
                  <tr className="border-b border-separator">
                    <th scope="col" className="py-1 pr-3">
                      Template
                    </th>
                    <th scope="col" className="py-1 pr-3 text-right">
                      Messages
                    </th>
                    <th scope="col" className="py-1 pr-3 text-right">
                      Patients
                    </th>
                    <th scope="col" className="py-1 pr-3">
                      Reply rate (95% CI)
                    </th>
                    <th scope="col" className="py-1">
                      Dose confirmed within 24 h (95% CI)
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {analysis.templates.map((entry) => (
                    <tr key={entry.templateId} className="border-b border-separator">
                      <th scope="row" className="py-1 pr-3 font-mono text-xs font-normal">
                        {entry.templateId}
                      </th>
                      <td className="py-1 pr-3 text-right tabular-nums">
                        {entry.messages === null ? <SuppressedCell /> : formatCount(entry.messages)}
                      </td>
                      <td className="py-1 pr-3 text-right tabular-nums">{entry.patients === null ? '' : formatCount(entry.patients)}</td>
                      <td className="py-1 pr-3">
                        <Rate figure={entry.replies} />
                      </td>
                      <td className="py-1">
                        <Rate figure={entry.doseConfirmations} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </section>

          <section aria-labelledby="opt-outs-heading" className="flex flex-col gap-2">
            <h2 id="opt-outs-heading" className="text-xl font-semibold">
              Opt-outs
            </h2>
            {analysis.optOuts.length === 0 ? (
              <Notice>No opt-outs in this period.</Notice>
            ) : (
              <table className="w-full max-w-2xl text-left text-sm" data-testid="store-opt-outs">
                <caption className="mb-1 text-left text-muted">
                  STOP replies and opt-outs recorded in the consent ledger, put down to the last template the patient received before:{' '}
                  {population}.
                </caption>
                <thead>
                  <tr className="border-b border-separator">
                    <th scope="col" className="py-1 pr-3">
                      Template
                    </th>
                    <th scope="col" className="py-1 pr-3">
                      Persona
                    </th>
                    <th scope="col" className="py-1 text-right">
                      Opt-outs
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {analysis.optOuts.map((entry) => (
                    <tr key={`${entry.templateId ?? ''}-${entry.persona}`} className="border-b border-separator">
                      <th scope="row" className="py-1 pr-3 font-mono text-xs font-normal">
                        {entry.templateId ?? 'no template'}
                      </th>
                      <td className="py-1 pr-3">{personaLabel(entry.persona)}</td>
                      <td className="py-1 text-right tabular-nums">
                        {entry.figure.suppressed ? <SuppressedCell /> : formatCount(entry.figure.count)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      )}
    </div>
  );
}
