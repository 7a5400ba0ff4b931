import type { Metadata } from 'next';
import { getDatabase } from '@/db/client';
import { ComplianceJourneyView } from '@/features/patient-adherence/components/compliance-journey-view';
import { journeyFiltersSchema } from '@/features/patient-adherence/schemas';
import { getComplianceJourney } from '@/features/patient-adherence/server/get-compliance-journey';
import { validationError } from '@/lib/parse-input';
import { parsePeriodQuery } from '@/lib/period-query';
import { getSignedInUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: '12-Month Compliance Journey' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ComplianceJourneyPage({ searchParams }: Props) {
  const query = await searchParams;
  const parsed = journeyFiltersSchema.safeParse({ persona: query.persona, product: query.product });
  const period = parsePeriodQuery(query);
  const actor = await getSignedInUser();
  // Every field at fault, named (the same words parseInput gives a route).
  const problem = parsed.success ? null : validationError(parsed.error, 'The cohort in the address').message;
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">12-Month Compliance Journey</h1>
      <p className="max-w-3xl text-muted">
        How a cohort takes its medicines over the first 12 months from each patient’s first fill in the chosen period: the spread of the
        proportion of days covered month by month, and how many are still on treatment (a gap of more than 60 days without medicine counts
        as stopping), by persona and by product. A month is shown for the patients followed for all of it before the data ends. Choose a
        persona or a product to narrow the whole page to it.
      </p>
      {/* A malformed address names the field; the lists to choose from come with the whole cohort's options. */}
      <ComplianceJourneyView
        journey={await getComplianceJourney({
          database: getDatabase(),
          actor,
          filters: parsed.success ? parsed.data : undefined,
          choice: period.choice,
        })}
        addressProblem={problem === null ? null : `${problem.replace(/\.?$/, '.')} Choose the persona and product from the lists.`}
        periodProblem={period.problem}
      />
    </article>
  );
}
