/** The Patient Profile's risk line for care teams: next week's risk and its top reasons in words. */
import { formatDate, formatPercent } from '@/lib/format';
import type { PatientRiskDto } from '../schemas';

export function PatientRiskLine({ risk }: { risk: PatientRiskDto | null }) {
  return (
    <section aria-labelledby="patient-risk" className="flex flex-col gap-1">
      <h2 id="patient-risk" className="text-xl font-semibold">
        Risk of missing doses next week
      </h2>
      <p data-testid="patient-risk-line">
        {risk === null
          ? 'Not scored yet: risk scores are computed nightly for patients with doses due in the last 30 days.'
          : `${formatPercent(risk.risk)} risk of confirming fewer than 80% of doses in the 7 days from ${formatDate(risk.scoredOn)} (model version ${risk.modelVersion})${
              risk.reasons.length === 0 ? '.' : ` — mainly: ${risk.reasons.join('; ')}.`
            }`}
      </p>
    </section>
  );
}
