import type { ReactNode } from 'react';
import type { TrialProtocol } from '../contracts';
import { formatCount, formatDate } from '@/lib/format';
import { armOrder } from './trial-format';

type Props = {
  protocol: TrialProtocol;
  /** The admin's plan editor, shown instead of the frozen text while no one is enrolled. */
  planEditor?: ReactNode;
};

/** The protocol as registered: objective, population, eligibility, arms, endpoints, allocation and the analysis plan. */
export function TrialProtocolSection({ protocol, planEditor }: Props) {
  const { analysisPlan } = protocol;
  return (
    <section aria-labelledby="trial-protocol-heading" className="flex flex-col gap-4" data-testid="trial-protocol">
      <h2 id="trial-protocol-heading" className="text-xl font-semibold">
        Protocol
      </h2>
      <dl className="grid max-w-4xl grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[12rem_1fr]">
        <dt className="font-medium">Objective</dt>
        <dd>{protocol.objective}</dd>
        <dt className="font-medium">Population</dt>
        <dd>{protocol.population}</dd>
        <dt className="font-medium">Eligibility</dt>
        <dd>
          <ul className="list-disc pl-5">
            {protocol.eligibility.map((criterion) => (
              <li key={criterion.id}>
                {criterion.text}{' '}
                <span className="text-muted">
                  ({criterion.checkedBy === 'system' ? 'checked by the system from the records' : 'confirmed by the enrolling clinician'})
                </span>
              </li>
            ))}
          </ul>
        </dd>
        <dt className="font-medium">Arms</dt>
        <dd>
          <ul className="list-disc pl-5">
            {armOrder.map((arm) => (
              <li key={arm}>
                <span className="font-medium">{protocol.arms[arm].label}</span>: {protocol.arms[arm].description}
              </li>
            ))}
          </ul>
        </dd>
        <dt className="font-medium">Duration</dt>
        <dd>
          {protocol.weeks} weeks of follow-up for each participant, from their enrolment date; trial start {formatDate(protocol.startDate)}
          {protocol.followUpEndsOn === null ? '' : `; the last participant’s follow-up ends on ${formatDate(protocol.followUpEndsOn)}`}.
        </dd>
        <dt className="font-medium">Recruitment</dt>
        <dd>
          {protocol.targetEnrolment === null ? 'No enrolment target' : `Target: ${formatCount(protocol.targetEnrolment)} participants`}
          {protocol.recruitmentClosedOn === null ? '' : `; recruitment closed on ${formatDate(protocol.recruitmentClosedOn)}`}.
        </dd>
        <dt className="font-medium">Primary endpoint</dt>
        <dd>{protocol.primaryEndpoint}</dd>
        <dt className="font-medium">Secondary endpoints</dt>
        <dd>
          <ul className="list-disc pl-5">
            {protocol.secondaryEndpoints.map((endpoint) => (
              <li key={endpoint}>{endpoint}</li>
            ))}
          </ul>
        </dd>
        <dt className="font-medium">Allocation</dt>
        <dd>
          {protocol.allocation.ratio}; {protocol.allocation.method}; stratified by {protocol.allocation.stratifiedBy}.
        </dd>
      </dl>
      <div className="flex flex-col gap-2" data-testid="trial-analysis-plan">
        <h3 className="text-lg font-semibold">Statistical analysis plan</h3>
        {planEditor ?? (
          <>
            <pre className="max-w-4xl whitespace-pre-wrap rounded-xl border border-separator bg-surface p-3 font-sans text-sm">
              {analysisPlan.text === '' ? 'No analysis plan has been written yet.' : analysisPlan.text}
            </pre>
            <p className="text-sm">
              SHA-256: <code className="break-all">{analysisPlan.sha256 ?? 'none yet (no plan text)'}</code>
            </p>
            <p className="text-sm text-muted">
              {analysisPlan.frozen
                ? 'Frozen since enrolment started: the plan can no longer be changed.'
                : 'Not frozen yet: the plan may change until the first participant is enrolled.'}
            </p>
          </>
        )}
      </div>
    </section>
  );
}
