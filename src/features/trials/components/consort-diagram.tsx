import type { ReactNode } from 'react';
import type { ConsortCounts, TrialArm } from '../contracts';
import { formatCount, formatDate } from '@/lib/format';
import { armOrder } from './trial-format';

type Props = {
  consort: ConsortCounts;
  armLabels: Record<TrialArm, string>;
  /** When the counts were read (an ISO date or instant; the day is shown). */
  asOf: string;
};

const n = (count: number) => `(n = ${formatCount(count)})`;

function Box({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="rounded-lg border-2 border-foreground/70 bg-surface px-3 py-2 text-sm" data-testid={testId}>
      {children}
    </div>
  );
}

/** A vertical connector between boxes: decoration only, the order of the text already says the flow. */
function Down() {
  return <div aria-hidden="true" className="mx-auto h-5 w-0.5 bg-foreground/70" />;
}

function Stage({ children }: { children: ReactNode }) {
  return <h3 className="rounded bg-accent-soft px-2 py-1 text-center text-sm font-semibold text-accent-soft-foreground">{children}</h3>;
}

/**
 * The CONSORT 2025 participant flow, drawn from the records: boxes of real text in a CSS grid (a screen reader
 * reads every count in flow order), connectors as decoration, and the same counts as a table below.
 */
export function ConsortDiagram({ consort, armLabels, asOf }: Props) {
  const { excluded } = consort;
  return (
    <section aria-labelledby="consort-heading" className="flex flex-col gap-3" data-testid="consort">
      <h2 id="consort-heading" className="text-xl font-semibold">
        Participant flow (CONSORT 2025)
      </h2>
      <p className="text-sm text-muted">
        Everyone assessed for this trial up to {formatDate(asOf.slice(0, 10))}, counted from the trial’s records.
      </p>
      <div className="flex max-w-4xl flex-col">
        <Stage>Enrolment</Stage>
        <div className="mt-2 grid grid-cols-1 items-center gap-3 sm:grid-cols-[1fr_1fr]">
          <Box testId="consort-assessed">
            <p className="font-medium">Assessed for eligibility {n(consort.assessed)}</p>
          </Box>
          <Box testId="consort-excluded">
            <p className="font-medium">Excluded {n(excluded.total)}</p>
            <ul className="list-disc pl-5">
              <li>Not meeting the eligibility criteria {n(excluded.notEligible)}</li>
              <li>Declined to participate {n(excluded.declined)}</li>
              <li>Other reasons {n(excluded.other)}</li>
            </ul>
          </Box>
        </div>
        <Down />
        <div className="mx-auto w-full sm:w-1/2">
          <Box testId="consort-randomised">
            <p className="font-medium">Randomised {n(consort.randomised)}</p>
          </Box>
        </div>
        <Down />
        <Stage>Allocation</Stage>
        <div className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-2">
          {armOrder.map((arm) => {
            const counts = consort.arms[arm];
            return (
              <Box key={arm} testId={`consort-allocated-${arm}`}>
                <p className="font-medium">
                  Allocated to {armLabels[arm].toLowerCase()} {n(counts.allocated)}
                </p>
                <ul className="list-disc pl-5">
                  <li>
                    Received the allocated {arm === 'intervention' ? 'intervention' : 'programme'} {n(counts.received)}
                  </li>
                  <li>
                    Did not receive the allocated {arm === 'intervention' ? 'intervention' : 'programme'} {n(counts.notReceived)}
                  </li>
                </ul>
              </Box>
            );
          })}
        </div>
        <Stage>Follow-up</Stage>
        <div className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-2">
          {armOrder.map((arm) => {
            const counts = consort.arms[arm];
            return (
              <Box key={arm} testId={`consort-follow-up-${arm}`}>
                <p className="font-medium">{armLabels[arm]}</p>
                <ul className="list-disc pl-5">
                  <li>Lost to follow-up {n(counts.lostToFollowUp)}</li>
                  <li>Discontinued the intervention {n(counts.discontinued)}</li>
                  <li>Withdrew {n(counts.withdrawn)}</li>
                </ul>
              </Box>
            );
          })}
        </div>
        <Stage>Analysis</Stage>
        <div className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-2">
          {armOrder.map((arm) => {
            const counts = consort.arms[arm];
            return (
              <Box key={arm} testId={`consort-analysed-${arm}`}>
                <p className="font-medium">
                  {armLabels[arm]}: analysed {n(counts.analysed)}
                </p>
                <ul className="list-disc pl-5">
                  <li>Excluded from analysis {n(counts.excludedFromAnalysis)}</li>
                </ul>
              </Box>
            );
          })}
        </div>
      </div>
      <details className="max-w-4xl text-sm">
        <summary className="cursor-pointer font-medium">The participant flow as a table</summary>
        <table className="mt-2 w-full text-left" data-testid="consort-table">
          <caption className="sr-only">CONSORT counts by arm, up to {formatDate(asOf.slice(0, 10))}</caption>
          <thead>
            <tr>
              <th scope="col" className="py-1 pr-4">
                Stage
              </th>
              {armOrder.map((arm) => (
                <th key={arm} scope="col" className="py-1 pr-4 text-right">
                  {armLabels[arm]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(
              [
                ['Allocated', 'allocated'],
                ['Received the allocation', 'received'],
                ['Did not receive the allocation', 'notReceived'],
                ['Lost to follow-up', 'lostToFollowUp'],
                ['Discontinued the intervention', 'discontinued'],
                ['Withdrew', 'withdrawn'],
                ['Analysed', 'analysed'],
                ['Excluded from analysis', 'excludedFromAnalysis'],
              ] as const
            ).map(([label, key]) => (
              <tr key={key} className="border-t border-separator">
                <th scope="row" className="py-1 pr-4 font-normal">
                  {label}
                </th>
                {armOrder.map((arm) => (
                  <td key={arm} className="py-1 pr-4 text-right tabular-nums">
                    {formatCount(consort.arms[arm][key])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
