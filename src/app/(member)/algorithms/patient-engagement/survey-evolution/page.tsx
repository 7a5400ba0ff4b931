import type { Metadata } from 'next';
import { getDatabase } from '@/db/client';
import { getSurveyEvolutionPage } from '@/features/surveys';
import { SurveyEvolutionView } from '@/features/surveys/components/survey-evolution-view';
import { getSignedInUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: 'Patient Micro-Survey Evolution' };

const scopeLabels: Record<string, string> = {
  clinician: 'the patients of your organisations',
  'drug-manufacturer': 'patients dispensed your companies’ products',
};

export default async function SurveyEvolutionPage() {
  const actor = await getSignedInUser();
  const page = await getSurveyEvolutionPage({ database: getDatabase(), actor });
  const scopeLabel = (actor !== null ? scopeLabels[actor.role] : undefined) ?? 'all patients';
  return (
    <article className="flex flex-col gap-8">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">Patient Micro-Survey Evolution</h1>
        <p className="max-w-3xl text-muted">
          How the micro-surveys learn who a patient is: how quickly the adaptive question order finds a patient’s persona compared with
          asking the questions in a fixed order, every version of each survey and what changed, how many patients answer on each channel,
          and how much each question tells us.
        </p>
      </header>
      <SurveyEvolutionView page={page} scopeLabel={scopeLabel} />
    </article>
  );
}
