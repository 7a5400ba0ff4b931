import type { Metadata } from 'next';
import { getDatabase } from '@/db/client';
import { parsePlatformAdherenceQuery } from '@/features/healthcare-impact';
import { NationalImpactView } from '@/features/healthcare-impact/components/national-impact-view';
import { getMeasuredImprovement } from '@/features/healthcare-impact/server/get-measured-improvement';
import { getSignedInUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: 'National Healthcare Impact' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function NationalHealthcareImpactPage({ searchParams }: Props) {
  const actor = await getSignedInUser();
  const measured = await getMeasuredImprovement({ database: getDatabase(), actor });
  // The manufacturing portal's link may carry the platform's measured adherence; a bad one is ignored and said so.
  const linked = parsePlatformAdherenceQuery(await searchParams);
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">National Healthcare Impact</h1>
      <p className="max-w-3xl text-muted">
        What a gain in medication adherence would be expected to avoid in a country each year — hospital admissions, deaths and the cost of
        those admissions — for hypertension, type 2 diabetes and hyperlipidaemia. Choose a country preset and move the sliders; every
        parameter says where it comes from.
      </p>
      <NationalImpactView
        measured={measured}
        platformAdherence={linked.kind === 'valid' ? linked.adherence : null}
        platformAdherenceProblem={linked.kind === 'invalid' ? linked.problem : null}
      />
    </article>
  );
}
