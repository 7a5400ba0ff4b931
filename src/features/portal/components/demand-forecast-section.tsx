'use client';

/**
 * The portal's demand forecast (issue 15, docs/decisions/040): a chart of the backtest and the next three
 * months, and the same figures in two tables — the forecast (fills, units, 95 % interval) and the backtest
 * (model, naive baseline, actual, with both errors) — under the sentence saying what they cover and how they
 * are computed. A suppressed forecast shows why and no figure; a backtest count of 1–10 reads "<11", is not
 * plotted, and the errors resting on it read "hidden" (the server sends no hidden value).
 */
import { Alert, Card, Chip } from '@heroui/react';
import { useCallback } from 'react';
import { type ChartOption, type ChartTheme, EChart } from '@/lib/components/echart';
import { formatCount, formatPercent } from '@/lib/format';
import type { DemandBacktestDto, DemandBacktestErrorDto, DemandForecastDto, ForecastCountDto } from '../demand-forecast-dto';
import { SuppressedCell } from '@/lib/components/suppressed-cell';
import { TableScroll } from '@/lib/components/table-scroll';

const monthLabel = (label: string) =>
  new Date(`${label}-01T00:00:00Z`).toLocaleDateString('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const range = (low: number, high: number) => `${formatCount(low)} to ${formatCount(high)}`;

/** A hidden count is not plotted: the chart must not show what the table hides. */
const plotted = (value: ForecastCountDto) => (value.kind === 'count' ? value.value : null);

/** An observed count as the suppression left it: the number, or "<11"/"suppressed". */
function CountText({ value }: { value: ForecastCountDto }) {
  if (value.kind === 'count') return <>{formatCount(value.value)}</>;
  return <SuppressedCell reason={value.label === 'suppressed' ? 'complementary' : 'small'} />;
}

/** An error resting on a hidden count is "hidden" with it. */
function ErrorText({ error }: { error: DemandBacktestErrorDto | null }) {
  if (error === null)
    return (
      <>
        Errors <SuppressedCell reason="derived" /> (a month&apos;s count is &lt;11)
      </>
    );
  return (
    <>
      Mean absolute error {formatCount(error.meanAbsoluteError)} fills; MAPE {formatPercent(error.mape, 1)}
    </>
  );
}

const SERIES_COLOURS = { actual: '#18181b', naive: '#b45309', forecast: '#1d4ed8', interval: '#93c5fd' } as const;

function ForecastChart({ forecast }: { forecast: DemandForecastDto }) {
  const buildOption = useCallback(
    (theme: ChartTheme): ChartOption => {
      const backtest = forecast.backtest?.months ?? [];
      const labels = [...backtest.map((month) => month.label), ...forecast.months.map((month) => month.label)].map(monthLabel);
      const pad = (values: (number | null)[], before: number, after: number) => [
        ...Array<null>(before).fill(null),
        ...values,
        ...Array<null>(after).fill(null),
      ];
      const line = (name: string, color: string, data: (number | null)[], dashed = false) => ({
        type: 'line' as const,
        name,
        data,
        connectNulls: false,
        itemStyle: { color },
        lineStyle: { color, type: dashed ? ('dashed' as const) : ('solid' as const) },
      });
      return {
        animation: false,
        textStyle: { color: theme.text, fontFamily: theme.fontFamily },
        legend: { top: 0, textStyle: { color: theme.text } },
        grid: { left: 72, right: 16, top: 56, bottom: 40 },
        tooltip: { trigger: 'axis' },
        xAxis: { type: 'category', data: labels, axisLabel: { color: theme.text } },
        yAxis: {
          type: 'value',
          name: 'Fills a month',
          nameTextStyle: { color: theme.text },
          axisLabel: { color: theme.text, formatter: (value: number) => formatCount(value) },
          splitLine: { lineStyle: { color: '#e4e4e7' } },
        },
        series: [
          line(
            'Actual',
            SERIES_COLOURS.actual,
            pad(
              backtest.map((month) => plotted(month.actual)),
              0,
              forecast.months.length,
            ),
          ),
          line(
            'Naive (last quarter repeated)',
            SERIES_COLOURS.naive,
            pad(
              backtest.map((month) => plotted(month.naive)),
              0,
              forecast.months.length,
            ),
            true,
          ),
          line('Forecast', SERIES_COLOURS.forecast, [
            ...backtest.map((month) => month.forecast),
            ...forecast.months.map((month) => month.expectedFills),
          ]),
          line(
            '95 % interval, low',
            SERIES_COLOURS.interval,
            [...backtest.map((month) => month.low), ...forecast.months.map((month) => month.fillsLow)],
            true,
          ),
          line(
            '95 % interval, high',
            SERIES_COLOURS.interval,
            [...backtest.map((month) => month.high), ...forecast.months.map((month) => month.fillsHigh)],
            true,
          ),
        ],
      };
    },
    [forecast],
  );
  return (
    <EChart
      buildOption={buildOption}
      label="Line chart of fills a month: the backtest's held-out months (actual, naive baseline and forecast; a count of fewer than 11 is not plotted) followed by the forecast for the next three months with its 95 % interval; the tables below give the same figures."
      className="h-80 w-full max-w-4xl"
    />
  );
}

function CsvLink({ href, what }: { href: string; what: string }) {
  return (
    <a href={href} className="text-sm font-medium text-accent underline" data-testid={`csv-${what.replace(/ /g, '-')}`}>
      Download CSV<span className="sr-only"> of the {what}</span>
    </a>
  );
}

function BacktestTable({ backtest, csvHref }: { backtest: DemandBacktestDto; csvHref?: string }) {
  return (
    <div className="flex flex-col gap-2">
      {csvHref === undefined ? null : <CsvLink href={csvHref} what="demand backtest" />}
      <TableScroll label="Backtest of the demand forecast">
        <table className="min-w-full text-sm" data-testid="demand-backtest">
          <caption className="text-left text-muted">Backtest: fills in the held-out months, forecast from the data before them</caption>
          <thead>
            <tr className="border-b border-separator text-left">
              <th scope="col" className="py-2 pr-4">
                Month
              </th>
              <th scope="col" className="py-2 pr-4">
                Forecast (95 % interval)
              </th>
              <th scope="col" className="py-2 pr-4">
                Naive (same month a quarter earlier)
              </th>
              <th scope="col" className="py-2 pr-4">
                Actual
              </th>
            </tr>
          </thead>
          <tbody>
            {backtest.months.map((month) => (
              <tr key={month.label} className="border-b border-separator">
                <th scope="row" className="py-2 pr-4 text-left font-medium">
                  {monthLabel(month.label)}
                </th>
                <td className="py-2 pr-4">
                  {formatCount(month.forecast)} ({range(month.low, month.high)})
                </td>
                <td className="py-2 pr-4">
                  <CountText value={month.naive} />
                </td>
                <td className="py-2 pr-4">
                  <CountText value={month.actual} />
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="text-left">
              <th scope="row" className="py-2 pr-4 font-medium">
                Error
              </th>
              <td className="py-2 pr-4">
                <ErrorText error={backtest.forecastError} />
              </td>
              <td className="py-2 pr-4">
                <ErrorText error={backtest.naiveError} />
              </td>
              <td className="py-2 pr-4">
                {backtest.withinInterval === null ? <SuppressedCell reason="derived" /> : backtest.withinInterval} of{' '}
                {backtest.months.length} inside the interval
              </td>
            </tr>
          </tfoot>
        </table>
      </TableScroll>
    </div>
  );
}

export function DemandForecastSection({
  forecast,
  csvHrefs,
}: {
  forecast: DemandForecastDto;
  /** The export route's addresses of the two tables (same filters and suppression as shown). */
  csvHrefs?: { forecast: string; backtest: string };
}) {
  return (
    <section aria-labelledby="demand-forecast-heading" className="flex flex-col gap-4" data-testid="demand-forecast">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="demand-forecast-heading" className="text-xl font-semibold">
          Demand forecast
        </h2>
        {forecast.synthetic ? (
          <Chip size="sm" variant="soft">
            synthetic demo data
          </Chip>
        ) : null}
      </div>
      <p className="max-w-3xl">{forecast.periodWording}</p>
      <p className="max-w-3xl text-sm" data-testid="demand-forecast-region">
        {forecast.regionWording}
      </p>
      {forecast.suppressed ? (
        <Alert status="warning">
          <Alert.Content>
            <Alert.Title>
              {forecast.suppressedReason === 'too-few-patients' ? 'Not shown: <11 patients' : 'Not shown: no product in your view'}
            </Alert.Title>
            <Alert.Description>
              {forecast.suppressedReason === 'too-few-patients'
                ? 'A forecast from fewer than 11 patients could reveal them, so no figure is shown.'
                : 'Choose one of your products.'}
            </Alert.Description>
          </Alert.Content>
        </Alert>
      ) : (
        <>
          <p className="max-w-3xl text-sm text-muted">{forecast.methodWording}</p>
          <ForecastChart forecast={forecast} />
          <Card>
            <Card.Content>
              <div className="flex flex-col gap-2">
                {csvHrefs === undefined ? null : <CsvLink href={csvHrefs.forecast} what="demand forecast" />}
                <TableScroll label="Expected fills and units, next three months">
                  <table className="min-w-full text-sm" data-testid="demand-forecast-months">
                    <caption className="text-left text-muted">
                      Expected fills and units in the next three months (
                      {forecast.patients === null ? <SuppressedCell /> : formatCount(forecast.patients)} patients)
                    </caption>
                    <thead>
                      <tr className="border-b border-separator text-left">
                        <th scope="col" className="py-2 pr-4">
                          Month
                        </th>
                        <th scope="col" className="py-2 pr-4">
                          Expected fills (95 % interval)
                        </th>
                        <th scope="col" className="py-2 pr-4">
                          Expected units (95 % interval)
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {forecast.months.map((month) => (
                        <tr key={month.label} className="border-b border-separator">
                          <th scope="row" className="py-2 pr-4 text-left font-medium">
                            {monthLabel(month.label)}
                          </th>
                          <td className="py-2 pr-4">
                            {formatCount(month.expectedFills)} ({range(month.fillsLow, month.fillsHigh)})
                          </td>
                          <td className="py-2 pr-4">
                            {formatCount(month.expectedUnits)} ({range(month.unitsLow, month.unitsHigh)})
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              </div>
            </Card.Content>
          </Card>
          {forecast.backtest === null ? (
            <p className="text-sm text-muted">No backtest: fewer than 11 patients had fills before the held-out months (&lt;11).</p>
          ) : (
            <Card>
              <Card.Content>
                <BacktestTable backtest={forecast.backtest} csvHref={csvHrefs?.backtest} />
              </Card.Content>
            </Card>
          )}
        </>
      )}
    </section>
  );
}
