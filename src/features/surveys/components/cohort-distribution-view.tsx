import { formatCount, formatPeriod } from '@/lib/format';
import type { CohortDistribution } from '../server/get-lifestyle-surveys-page';
import { ShownCountText } from '@/lib/components/suppressed-cell';
import { syntheticSurveyDataNote } from './synthetic-survey-data-note';

/**
 * The cohort's results for one survey as tables (one per measure): how many patients gave each answer, by
 * their latest completed response. Small groups read "<11" for roles that see suppressed aggregates; the page explains it once.
 */
export function CohortDistributionView({ distribution, scopeLabel }: { distribution: CohortDistribution; scopeLabel: string }) {
  const headingId = `cohort-${distribution.surveyKey}-heading`;
  const period =
    distribution.from === null || distribution.to === null
      ? 'no completed responses yet'
      : `responses completed ${formatPeriod(distribution.from, distribution.to)}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="text-lg font-medium">
        {distribution.title}: the cohort’s results
      </h3>
      <p className="text-sm text-muted">
        <ShownCountText value={distribution.patients} format={formatCount} /> patients ({scopeLabel}), each counted once by their latest
        completed response; {period}.{distribution.includesSynthetic ? syntheticSurveyDataNote : ''}
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        {distribution.measures.map((measure) => (
          <table key={measure.measure} className="w-full text-sm">
            <caption className="pb-1 text-left font-medium">
              {measure.label} (<ShownCountText value={measure.answered} format={formatCount} /> answered)
            </caption>
            <thead>
              <tr className="border-b border-separator text-left">
                <th scope="col" className="py-1 pr-2 font-medium">
                  Answer
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Patients
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Share
                </th>
              </tr>
            </thead>
            <tbody>
              {measure.categories.map((category) => (
                <tr key={category.key} className="border-b border-separator/50">
                  <th scope="row" className="py-1 pr-2 text-left font-normal">
                    {category.label}
                  </th>
                  <td className="py-1 text-right tabular-nums">
                    <ShownCountText value={category.count} format={formatCount} />
                  </td>
                  <td className="py-1 text-right tabular-nums">
                    {category.count.count === null || measure.answered.count === null || measure.answered.count === 0
                      ? '—'
                      : `${Math.round((100 * category.count.count) / measure.answered.count)}%`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </div>
    </section>
  );
}
