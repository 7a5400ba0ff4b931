'use client';

import { useCallback } from 'react';
import type { PolicyComparison } from '../schemas';
import { type ChartOption, type ChartTheme, EChart } from '@/lib/components/echart';
import { formatCount, formatDate, formatDecimal, formatPercent, formatMoney } from '@/lib/format';
import { TableScroll } from '@/lib/components/table-scroll';

/** One colour per policy, dark enough for 3:1 against the page (WCAG 1.4.11), told apart by lightness too. */
const policyColours: Record<string, string> = {
  none: '#52525b',
  'fixed-daily': '#1d4ed8',
  'fixed-weekly': '#b45309',
  personalised: '#7e22ce',
};
/** And one marker shape each, so the lines are told apart without colour (WCAG 1.4.1). */
const policySymbols: Record<string, string> = {
  none: 'circle',
  'fixed-daily': 'rect',
  'fixed-weekly': 'triangle',
  personalised: 'diamond',
};
const fallbackColour = '#0f766e';
/** Grid lines are guides, not content: light. */
const gridLineColour = '#e4e4e7';

function MonthlyPdcChart({ comparison }: { comparison: PolicyComparison }) {
  const buildOption = useCallback(
    (theme: ChartTheme): ChartOption => ({
      animation: false,
      textStyle: { color: theme.text, fontFamily: theme.fontFamily },
      legend: { top: 0, textStyle: { color: theme.text } },
      tooltip: { trigger: 'axis', valueFormatter: (value) => (typeof value === 'number' ? formatDecimal(value, 3) : String(value)) },
      grid: { left: 48, right: 16, top: 40, bottom: 40 },
      xAxis: {
        type: 'category',
        name: 'Month',
        nameLocation: 'middle',
        nameGap: 28,
        nameTextStyle: { color: theme.text },
        axisLabel: { color: theme.text },
        data: (comparison.policies[0]?.meanPdcByMonth ?? []).map((_, month) => String(month + 1)),
      },
      yAxis: { type: 'value', min: 0, max: 1, axisLabel: { color: theme.text }, splitLine: { lineStyle: { color: gridLineColour } } },
      series: comparison.policies.map((policy) => ({
        type: 'line',
        name: policy.label,
        data: policy.meanPdcByMonth,
        color: policyColours[policy.policy] ?? fallbackColour,
        symbol: policySymbols[policy.policy] ?? 'emptyCircle',
        symbolSize: 7,
        lineStyle: { width: 2, type: policy.policy === 'none' ? 'dashed' : 'solid' },
      })),
    }),
    [comparison],
  );
  const label = `Line chart of mean PDC in each month of the year, one line per policy: ${comparison.policies
    .map(
      (policy) =>
        `${policy.label} from ${formatDecimal(policy.meanPdcByMonth[0] ?? 0, 3)} in month 1 to ${formatDecimal(policy.meanPdcByMonth.at(-1) ?? 0, 3)} in month ${policy.meanPdcByMonth.length}`,
    )
    .join('; ')}.`;
  return <EChart buildOption={buildOption} label={label} className="h-80 w-full" />;
}

const outcomeMeasures = ['Mean PDC', 'Share at PDC ≥ 0.8', 'Persistence at 12 months'];

function OutcomesChart({ comparison }: { comparison: PolicyComparison }) {
  const buildOption = useCallback(
    (theme: ChartTheme): ChartOption => ({
      animation: false,
      textStyle: { color: theme.text, fontFamily: theme.fontFamily },
      legend: { top: 0, textStyle: { color: theme.text } },
      tooltip: { trigger: 'axis', valueFormatter: (value) => (typeof value === 'number' ? `${formatDecimal(value, 1)}%` : String(value)) },
      grid: { left: 48, right: 16, top: 40, bottom: 32 },
      xAxis: { type: 'category', data: outcomeMeasures, axisLabel: { color: theme.text } },
      yAxis: {
        type: 'value',
        min: 0,
        max: 100,
        axisLabel: { color: theme.text, formatter: '{value}%' },
        splitLine: { lineStyle: { color: gridLineColour } },
      },
      series: comparison.policies.map((policy) => ({
        type: 'bar',
        name: policy.label,
        color: policyColours[policy.policy] ?? fallbackColour,
        data: [policy.meanPdc, policy.shareAdherent, policy.persistence].map((share) => Math.round(share * 1000) / 10),
      })),
    }),
    [comparison],
  );
  const label = `Bar chart of mean PDC, share at PDC ≥ 0.8 and persistence at 12 months, per policy: ${comparison.policies
    .map(
      (policy) =>
        `${policy.label} ${formatPercent(policy.meanPdc, 1)}, ${formatPercent(policy.shareAdherent, 1)} and ${formatPercent(policy.persistence, 1)}`,
    )
    .join('; ')}.`;
  return <EChart buildOption={buildOption} label={label} className="h-80 w-full" />;
}

/** The comparison side by side: a table of every measure, then the charts. */
export function ComparisonResults({ comparison }: { comparison: PolicyComparison }) {
  const { settings } = comparison;
  return (
    <section aria-labelledby="comparison-results-heading" className="flex flex-col gap-6" data-testid="comparison-results">
      <div className="flex flex-col gap-2">
        <h2 id="comparison-results-heading" className="text-xl font-semibold">
          Results
        </h2>
        <p className="text-sm">
          <span data-testid="synthetic-label" className="mr-2 rounded-full border border-separator bg-surface px-2 py-0.5 font-medium">
            synthetic demo data
          </span>
          <span data-testid="comparison-cohort">
            {formatCount(comparison.patients)} simulated patients over 12 months from {formatDate(comparison.startDate)}, seed{' '}
            {settings.seed}; the same cohort under each policy.
          </span>
        </p>
      </div>
      <TableScroll label="Comparison table">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">
            Policies compared on one simulated cohort of {formatCount(comparison.patients)} patients (synthetic demo data)
          </caption>
          <thead>
            <tr className="border-b border-separator align-bottom">
              <th scope="col" className="py-2 pr-4">
                Policy
              </th>
              <th scope="col" className="py-2 pr-4 text-right">
                Mean PDC
              </th>
              <th scope="col" className="py-2 pr-4 text-right">
                PDC ≥ 0.8
              </th>
              <th scope="col" className="py-2 pr-4 text-right">
                Persistence at 12 months
              </th>
              <th scope="col" className="py-2 pr-4 text-right">
                Messages per patient
              </th>
              <th scope="col" className="py-2 pr-4 text-right">
                Opt-outs
              </th>
              <th scope="col" className="py-2 pr-4 text-right">
                Message cost
              </th>
              <th scope="col" className="py-2 pr-4 text-right">
                Cost per adherent patient-day
              </th>
              <th scope="col" className="py-2 text-right">
                Cost per extra adherent day
              </th>
            </tr>
          </thead>
          <tbody>
            {comparison.policies.map((policy) => (
              <tr key={policy.policy} className="border-b border-separator" data-testid={`policy-row-${policy.policy}`}>
                <th scope="row" className="py-2 pr-4 font-medium">
                  {policy.label}
                </th>
                <td className="py-2 pr-4 text-right tabular-nums">{formatDecimal(policy.meanPdc, 3)}</td>
                <td className="py-2 pr-4 text-right tabular-nums">{formatPercent(policy.shareAdherent, 1)}</td>
                <td className="py-2 pr-4 text-right tabular-nums">{formatPercent(policy.persistence, 1)}</td>
                <td className="py-2 pr-4 text-right tabular-nums">{formatDecimal(policy.messagesPerPatient, 1)}</td>
                <td className="py-2 pr-4 text-right tabular-nums">
                  {formatCount(policy.optOuts)} ({formatPercent(policy.optOutRate, 1)})
                </td>
                <td className="py-2 pr-4 text-right tabular-nums">{formatMoney(policy.messageCost)}</td>
                <td className="py-2 pr-4 text-right tabular-nums">
                  {policy.costPerAdherentPatientDay === null ? '—' : formatMoney(policy.costPerAdherentPatientDay)}
                </td>
                <td className="py-2 text-right tabular-nums">
                  {policy.costPerExtraAdherentDay === null ? '—' : formatMoney(policy.costPerExtraAdherentDay)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <div className="grid gap-6 lg:grid-cols-2">
        <figure className="flex flex-col gap-2">
          <figcaption className="font-medium">Mean PDC by month (synthetic demo data)</figcaption>
          <MonthlyPdcChart comparison={comparison} />
        </figure>
        <figure className="flex flex-col gap-2">
          <figcaption className="font-medium">Adherence and persistence after 12 months (synthetic demo data)</figcaption>
          <OutcomesChart comparison={comparison} />
        </figure>
      </div>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium">Mean PDC</dt>
        <dd className="text-muted">
          Proportion of days covered by dispensed supply over the year (PQA), averaged over each patient’s medicines, then over patients.
        </dd>
        <dt className="font-medium">PDC ≥ 0.8</dt>
        <dd className="text-muted">Share of patients at or above the usual adherence threshold.</dd>
        <dt className="font-medium">Persistence at 12 months</dt>
        <dd className="text-muted">
          Share of patients still on treatment after 12 months: no gap of more than 60 days without supply since their first fill, as on the
          compliance journey.
        </dd>
        <dt className="font-medium">Opt-outs</dt>
        <dd className="text-muted">Patients who replied STOP, and their share of the cohort.</dd>
        <dt className="font-medium">Message cost</dt>
        <dd className="text-muted">
          Every outbound SMS at {formatMoney(settings.smsPrice)} and WhatsApp message at {formatMoney(settings.whatsappPrice)} (sent
          messages are billed even if they fail); in-app messages cost nothing.
        </dd>
        <dt className="font-medium">Cost per adherent patient-day</dt>
        <dd className="text-muted">
          Message cost divided by the days patients had their medicine at hand (PDC × 365, summed over patients).
        </dd>
        <dt className="font-medium">Cost per extra adherent day</dt>
        <dd className="text-muted">
          The policy’s cost beyond sending nothing, per adherent day it adds beyond sending nothing; a dash when it adds none.
        </dd>
      </dl>
    </section>
  );
}
