import type { Metadata } from 'next';
import { getDatabase } from '@/db/client';
import { PatientOutcomesView } from '@/features/healthcare-impact/components/patient-outcomes-view';
import { outcomesQuerySchema } from '@/features/healthcare-impact/schemas';
import { getPatientOutcomes } from '@/features/healthcare-impact/server/get-patient-outcomes';
import { validationError } from '@/lib/parse-input';
import { parsePeriodQuery } from '@/lib/period-query';
import { getSignedInUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: 'Patient Outcomes with Universal Health Impact' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function PatientOutcomesPage({ searchParams }: Props) {
  const query = await searchParams;
  const parsed = outcomesQuerySchema.safeParse({ country: query.country });
  const period = parsePeriodQuery(query);
  const actor = await getSignedInUser();
  const problem = parsed.success ? null : validationError(parsed.error, 'The country in the address').message;
  const country = parsed.success ? parsed.data.country : outcomesQuerySchema.parse({}).country;
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Patient Outcomes with Universal Health Impact</h1>
      <p className="max-w-3xl text-muted">
        Hospital admissions and deaths expected to be avoided each year per 1,000 patients, by persona, condition and age band, from the
        adherence the platform observed (the share with a proportion of days covered of at least 0.8 over the period) compared with the
        chosen country’s baseline adherence, using the same sourced relative risks as the national impact model.
      </p>
      <PatientOutcomesView
        outcomes={await getPatientOutcomes({ database: getDatabase(), actor, country, choice: period.choice })}
        countryProblem={problem}
        periodProblem={period.problem}
      />
    </article>
  );
}
