import type { TrialArm, TrialResults } from '../contracts';
import { formatCount, formatDate, formatDecimal, formatPercent, formatPeriod } from '@/lib/format';
import { AccrualChart, WeeklyAdherenceChart } from './trial-charts';
import { armOrder, formatInterval, formatPValue } from './trial-format';
import { TableScroll } from '@/lib/components/table-scroll';

type Props = {
  results: TrialResults;
  armLabels: Record<TrialArm, string>;
  /** The analysis dataset's CSV, for the roles allowed to download it; absent for the others. */
  datasetHref?: string;
};

const cell = 'py-1 pr-4';
const numberCell = 'py-1 pr-4 text-right tabular-nums';

function ScrollTable({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <TableScroll label={label} className="max-w-4xl">
      <table className="w-full text-left text-sm">{children}</table>
    </TableScroll>
  );
}

function Blinded({ results }: { results: Extract<TrialResults, { state: 'blinded' }> }) {
  const { pooled } = results;
  return (
    <div className="flex flex-col gap-4">
      <p className="max-w-3xl rounded-xl border border-separator bg-surface p-3 text-sm">
        The trial is running, so results are blinded: only enrolment and figures pooled over both arms are shown. Arm comparisons appear
        when the trial is complete.
      </p>
      <p className="text-sm" data-testid="trial-pooled">
        Pooled over both arms, {formatCount(pooled.participants)} participants, {formatPeriod(pooled.period.from, pooled.period.to)}: mean
        dose-level adherence{' '}
        {pooled.meanAdherence === null ? 'not available yet (no follow-up days so far)' : formatDecimal(pooled.meanAdherence, 3)}.
      </p>
      <h3 className="text-lg font-semibold">Enrolment by week</h3>
      {results.accrual.length === 0 ? (
        <p className="text-sm">No one has been enrolled yet.</p>
      ) : (
        <>
          <AccrualChart accrual={results.accrual} />
          <ScrollTable label="Enrolment by week">
            <thead>
              <tr>
                <th scope="col" className={cell}>
                  Week starting
                </th>
                <th scope="col" className={`${cell} text-right`}>
                  Participants enrolled so far
                </th>
              </tr>
            </thead>
            <tbody>
              {results.accrual.map((row) => (
                <tr key={row.weekStarting} className="border-t border-separator">
                  <td className={cell}>{formatDate(row.weekStarting)}</td>
                  <td className={numberCell}>{formatCount(row.cumulative)}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        </>
      )}
    </div>
  );
}

function Unblinded({
  results,
  armLabels,
}: {
  results: Extract<TrialResults, { state: 'unblinded' }>;
  armLabels: Record<TrialArm, string>;
}) {
  const { analysis } = results;
  const weeks = [...new Set(results.weekly.map((row) => row.week))].sort((a, b) => a - b);
  const weekly = (arm: TrialArm, week: number) => results.weekly.find((row) => row.arm === arm && row.week === week);
  const armHeaders = armOrder.map((arm) => (
    <th key={arm} scope="col" className={`${cell} text-right`}>
      {armLabels[arm]} (n = {formatCount(analysis.n[arm])})
    </th>
  ));
  return (
    <div className="flex flex-col gap-5">
      <p className="max-w-3xl text-sm" data-testid="trial-results-population">
        {results.population}; follow-up weeks 1–12 of each participant, from their own enrolment date, between{' '}
        {formatPeriod(results.period.from, results.period.to)}. Differences are intervention − control; intervals are 95%; p-values
        two-sided.
      </p>

      <h3 className="text-lg font-semibold">Baseline characteristics by arm</h3>
      <ScrollTable label="Baseline characteristics by arm">
        <thead>
          <tr>
            <th scope="col" className={cell}>
              Characteristic
            </th>
            {armHeaders}
          </tr>
        </thead>
        <tbody>
          {results.baseline.map((row) => (
            <tr key={row.label} className="border-t border-separator">
              <th scope="row" className={`${cell} font-normal`}>
                {row.label}
              </th>
              {armOrder.map((arm) => (
                <td key={arm} className={numberCell}>
                  {row.values[arm]}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </ScrollTable>

      <h3 className="text-lg font-semibold">Primary endpoint: dose-level adherence over weeks 1–12</h3>
      <dl className="grid max-w-4xl grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[18rem_1fr]" data-testid="trial-primary">
        <dt className="font-medium">Difference in means (Welch)</dt>
        <dd>
          {formatInterval(analysis.meanDifference)}, {formatPValue(analysis.meanDifference.p)} (Welch–Satterthwaite df{' '}
          {formatDecimal(analysis.meanDifference.df, 1)})
        </dd>
        <dt className="font-medium">Adjusted for baseline adherence (ANCOVA)</dt>
        <dd>
          {formatInterval(analysis.ancova)}, {formatPValue(analysis.ancova.p)}
        </dd>
      </dl>

      <h3 className="text-lg font-semibold">Binary endpoint: adherence ≥ 0.8 over weeks 1–12</h3>
      <dl className="grid max-w-4xl grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[18rem_1fr]" data-testid="trial-binary">
        <dt className="font-medium">Risk difference (Newcombe hybrid score CI)</dt>
        <dd>
          {formatPercent(analysis.riskDifference.estimate, 1)} (95% CI {formatPercent(analysis.riskDifference.ciLow, 1)} to{' '}
          {formatPercent(analysis.riskDifference.ciHigh, 1)})
        </dd>
        <dt className="font-medium">Risk ratio (Katz log CI)</dt>
        <dd>{formatInterval(analysis.riskRatio, 2)}</dd>
        <dt className="font-medium">Odds ratio (Woolf log CI)</dt>
        <dd>{formatInterval(analysis.oddsRatio, 2)}</dd>
        <dt className="font-medium">Fisher’s exact test</dt>
        <dd>{formatPValue(analysis.fisherP)}</dd>
        <dt className="font-medium">Pearson’s χ² test (no continuity correction)</dt>
        <dd>{formatPValue(analysis.chiSquareP)}</dd>
      </dl>

      <h3 className="text-lg font-semibold">Weekly adherence by arm</h3>
      <WeeklyAdherenceChart weekly={results.weekly} armLabels={armLabels} />
      <ScrollTable label="Weekly adherence by arm">
        <caption className="sr-only">Mean dose-level adherence in each week of follow-up by arm, with 95% confidence intervals</caption>
        <thead>
          <tr>
            <th scope="col" className={cell}>
              Week of follow-up
            </th>
            {armOrder.map((arm) => (
              <th key={arm} scope="col" className={`${cell} text-right`}>
                {armLabels[arm]}: mean (95% CI), n
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week} className="border-t border-separator">
              <th scope="row" className={`${cell} font-normal`}>
                Week {week}
              </th>
              {armOrder.map((arm) => {
                const row = weekly(arm, week);
                return (
                  <td key={arm} className={numberCell}>
                    {row === undefined
                      ? '—'
                      : `${formatDecimal(row.mean, 3)} (${formatDecimal(row.ciLow, 3)} to ${formatDecimal(row.ciHigh, 3)}), ${formatCount(row.participants)}`}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </ScrollTable>

      <h3 className="text-lg font-semibold">Secondary endpoints</h3>
      <ScrollTable label="Secondary endpoints">
        <thead>
          <tr>
            <th scope="col" className={cell}>
              Endpoint
            </th>
            {armHeaders}
            <th scope="col" className={`${cell} text-right`}>
              Difference (intervention − control)
            </th>
            <th scope="col" className={cell}>
              Definition
            </th>
          </tr>
        </thead>
        <tbody>
          {results.secondary.map((row) => (
            <tr key={row.name} className="border-t border-separator">
              <th scope="row" className={`${cell} font-normal`}>
                {row.name}
              </th>
              {armOrder.map((arm) => (
                <td key={arm} className={numberCell}>
                  {row.values[arm]}
                </td>
              ))}
              <td className={numberCell}>{row.difference ?? '—'}</td>
              <td className={`${cell} text-muted`}>{row.definition}</td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
    </div>
  );
}

/** Results by intention to treat: blinded pooled figures while the trial runs, the arm comparison once complete. */
export function TrialResultsSection({ results, armLabels, datasetHref }: Props) {
  return (
    <section aria-labelledby="trial-results-heading" className="flex flex-col gap-4" data-testid="trial-results">
      <div className="flex flex-wrap items-center gap-4">
        <h2 id="trial-results-heading" className="text-xl font-semibold">
          Results
        </h2>
        {datasetHref === undefined ? null : (
          <a href={datasetHref} download className="text-sm font-medium text-accent underline">
            Download CSV (the analysis dataset, one row per participant)
          </a>
        )}
      </div>
      {results.state === 'blinded' ? <Blinded results={results} /> : <Unblinded results={results} armLabels={armLabels} />}
    </section>
  );
}
