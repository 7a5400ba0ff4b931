import type { PolicyStateSummaryDto } from '@/features/policy-learning';
import { formatCount, formatDateTime, formatDecimal } from '@/lib/format';
import { personaLabel } from '@/lib/domain/personas';
import { actionLabel } from '../schemas';
import { TableScroll } from '@/lib/components/table-scroll';

/** Arms listed per persona: the policy's three best guesses, enough to see what it favours without 120 rows. */
const armsShownPerPersona = 3;

/**
 * The live policy's stored versions (learned nightly from real patients' logged decisions and their observed
 * rewards) and the newest version's beliefs: per persona, the arms with the highest mean advantage.
 * Aggregates of the posterior only: no patient appears here.
 */
export function LivePolicyVersions({ versions }: { versions: PolicyStateSummaryDto[] }) {
  const current = versions.at(-1);
  if (current === undefined) {
    return (
      <p className="text-sm" data-testid="live-policy-note">
        The live policy has no stored version yet. Its prior is stored as version 0 when the daily loop first decides for a patient in the
        personalised programme, and each night it learns from the decisions whose observed rewards are in.
      </p>
    );
  }
  const personas = [...new Set(current.posterior.map((row) => row.persona))];
  const learnedFrom =
    current.trainedThrough === null
      ? 'It has not learned from any decision yet: it decides from the prior, the same for every patient of a persona.'
      : `It has learned from ${formatCount(current.decisionsUsed)} rewarded decisions of patients in the personalised programme, made up to ${formatDateTime(current.trainedThrough)}.`;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm" data-testid="live-policy-note">
        The daily loop decides with version {current.version} (stored {formatDateTime(current.createdAt)}). {learnedFrom}
      </p>
      <TableScroll label="Live policy versions">
        <table className="w-full text-left text-sm" data-testid="live-policy-versions">
          <caption className="pb-2 text-left text-sm text-muted">
            The latest {formatCount(versions.length)} stored versions of the live policy, oldest first.
          </caption>
          <thead>
            <tr className="border-b border-separator">
              <th scope="col" className="py-2 pr-4">
                Version
              </th>
              <th scope="col" className="py-2 pr-4">
                Stored
              </th>
              <th scope="col" className="py-2 pr-4 text-right">
                Decisions learned from
              </th>
              <th scope="col" className="py-2">
                Latest decision learned from
              </th>
            </tr>
          </thead>
          <tbody>
            {versions.map((version) => (
              <tr key={version.version} className="border-b border-separator">
                <th scope="row" className="py-2 pr-4 font-medium">
                  {version.version}
                </th>
                <td className="py-2 pr-4">{formatDateTime(version.createdAt)}</td>
                <td className="py-2 pr-4 text-right tabular-nums">{formatCount(version.decisionsUsed)}</td>
                <td className="py-2">{version.trainedThrough === null ? 'None (the prior)' : formatDateTime(version.trainedThrough)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <TableScroll label="Live policy beliefs">
        <table className="w-full text-left text-sm" data-testid="live-policy-posterior">
          <caption className="pb-2 text-left text-sm text-muted">
            Version {current.version}: per persona, the {armsShownPerPersona} arms with the highest mean advantage over no message (change
            in the share of the day’s doses confirmed), with the 95% credible interval and the live decisions behind it.
          </caption>
          <thead>
            <tr className="border-b border-separator">
              <th scope="col" className="py-2 pr-4">
                Persona
              </th>
              <th scope="col" className="py-2 pr-4">
                Arm
              </th>
              <th scope="col" className="py-2 pr-4 text-right">
                Mean
              </th>
              <th scope="col" className="py-2 pr-4 text-right">
                95% credible interval
              </th>
              <th scope="col" className="py-2 text-right">
                Observations
              </th>
            </tr>
          </thead>
          <tbody>
            {personas.flatMap((persona) =>
              current.posterior
                .filter((row) => row.persona === persona)
                .sort((a, b) => b.mean - a.mean)
                .slice(0, armsShownPerPersona)
                .map((row, index) => (
                  <tr key={`${persona}-${row.arm}`} className="border-b border-separator">
                    {index === 0 ? (
                      <th scope="rowgroup" rowSpan={armsShownPerPersona} className="py-2 pr-4 align-top font-medium">
                        {personaLabel(persona)}
                      </th>
                    ) : null}
                    <td className="py-2 pr-4">{actionLabel(row.arm)}</td>
                    <td className="py-2 pr-4 text-right tabular-nums">{formatDecimal(row.mean, 3)}</td>
                    <td className="py-2 pr-4 text-right tabular-nums">
                      {formatDecimal(row.lower, 3)} to {formatDecimal(row.upper, 3)}
                    </td>
                    <td className="py-2 text-right tabular-nums">{formatCount(row.observations)}</td>
                  </tr>
                )),
            )}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}
