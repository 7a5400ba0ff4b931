import type { Metadata } from 'next';
import { answerSurveyAction, saveSurveyDefinitionAction, startSurveyAction } from '@/app/_actions/survey-actions';
import { getDatabase } from '@/db/client';
import { getLifestyleSurveysPage, surveyKeys } from '@/features/surveys';
import { CohortDistributionView } from '@/features/surveys/components/cohort-distribution-view';
import { PatientResultsTable } from '@/features/surveys/components/patient-results-table';
import { SurveyDefinitionEditor } from '@/features/surveys/components/survey-definition-editor';
import { SurveyRunner } from '@/features/surveys/components/survey-runner';
import { getSignedInUser } from '@/lib/server/current-user';
import { SuppressionNote } from '@/lib/components/suppressed-cell';

export const metadata: Metadata = { title: 'Lifestyle Micro-Surveys' };

const scopeLabels: Record<string, string> = {
  clinician: 'the patients of your organisations',
  'drug-manufacturer': 'patients dispensed your companies’ products',
};

export default async function LifestyleSurveysPage() {
  const actor = await getSignedInUser();
  const page = await getLifestyleSurveysPage({ database: getDatabase(), actor });
  const scopeLabel = (actor !== null ? scopeLabels[actor.role] : undefined) ?? 'all patients';
  return (
    <article className="flex flex-col gap-8">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">Lifestyle Micro-Surveys</h1>
        <p className="max-w-3xl text-muted">
          Short surveys about physical activity (IPAQ short form), alcohol (AUDIT-C), sleep, smoking, diet and stress, and about what gets
          in the way of taking medicines. Patients answer one question at a time and see what their answers mean beside the cohort’s
          results; the barrier survey picks each next question from the answers so far, so it asks only what tells us most. Care teams see
          their patients’ results.
        </p>
      </header>

      {page.viewer === 'self' ? (
        <div className="flex flex-col gap-6">
          {surveyKeys.map((key) => {
            const cohort = page.cohort.find((entry) => entry.surveyKey === key)!;
            return (
              <SurveyRunner
                key={key}
                surveyKey={key}
                title={cohort.title}
                description={page.own[key]?.description ?? cohort.description}
                initial={page.own[key] ?? null}
                start={startSurveyAction}
                answer={answerSurveyAction}
              />
            );
          })}
        </div>
      ) : page.viewer === 'unlinked' ? (
        <p>Surveys are taken by patients: your account is not linked to a patient record, so there is nowhere to keep answers.</p>
      ) : (
        <p>Surveys are taken by patients. Below are the results of {scopeLabel}.</p>
      )}

      {page.patientResults === null ? null : <PatientResultsTable results={page.patientResults} limit={200} />}

      <section aria-labelledby="cohort-heading" className="flex flex-col gap-4">
        <h2 id="cohort-heading" className="text-xl font-semibold">
          Results across the cohort
        </h2>
        {page.cohort.some((distribution) => distribution.suppressed) ? <SuppressionNote /> : null}
        {page.cohort.map((distribution) => (
          <CohortDistributionView key={distribution.surveyKey} distribution={distribution} scopeLabel={scopeLabel} />
        ))}
      </section>

      {page.definitions === null ? null : (
        <section aria-labelledby="definitions-heading" className="flex flex-col gap-3">
          <h2 id="definitions-heading" className="text-xl font-semibold">
            Survey definitions
          </h2>
          <p className="text-sm text-muted">Every save is a new version; responses keep the version they were given on.</p>
          {page.definitions.map((definition) => (
            <SurveyDefinitionEditor key={definition.surveyKey} definition={definition} save={saveSurveyDefinitionAction} />
          ))}
        </section>
      )}
    </article>
  );
}
