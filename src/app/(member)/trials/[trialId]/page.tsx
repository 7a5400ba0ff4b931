import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDatabase } from '@/db/client';
import {
  enrolTrialParticipantAction,
  recordTrialExclusionAction,
  recordTrialExitAction,
  updateTrialAnalysisPlanAction,
} from '@/app/_actions/trial-actions';
import { calculateSampleSizeAction } from '@/app/_actions/trial-sample-size-actions';
import { getTrialOverview, getTrialParticipation, getTrialResults, listTrialCandidates, listTrialParticipants } from '@/features/trials';
import { AnalysisPlanForm } from '@/features/trials/components/analysis-plan-form';
import { ConsortDiagram } from '@/features/trials/components/consort-diagram';
import { EnrolmentPanel } from '@/features/trials/components/enrolment-panel';
import { ParticipantsTable } from '@/features/trials/components/participants-table';
import { SampleSizeCalculator } from '@/features/trials/components/sample-size-calculator';
import { TrialProtocolSection } from '@/features/trials/components/trial-protocol-section';
import { TrialResultsSection } from '@/features/trials/components/trial-results-section';
import { TrialStatusLine } from '@/features/trials/components/trial-status-line';
import { YourParticipation } from '@/features/trials/components/your-participation';
import { hasPermission } from '@/lib/permissions';
import { getSignedInUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: '12-Week Trial' };

type Props = { params: Promise<{ trialId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The candidate search: a pseudonym prefix, bounded (anything else is simply no match). */
const searchOf = (value: string | string[] | undefined) => (typeof value === 'string' ? value.trim().slice(0, 40) : '');

export default async function TrialPage({ params, searchParams }: Props) {
  const { trialId } = await params;
  const search = searchOf((await searchParams).search);
  const viewer = await getSignedInUser();
  const database = getDatabase();
  const now = new Date();
  const overview = await getTrialOverview({ database, trialId, viewer, now });
  if (overview === null) notFound();
  const { protocol } = overview;
  const staff = hasPermission(viewer.role, 'trials:enrol');
  const [results, participants, candidates, participation] = await Promise.all([
    getTrialResults({ database, trialId, viewer, now }),
    staff ? listTrialParticipants({ database, trialId, viewer, now }) : null,
    // Enrolment is open from set-up (the first enrolment starts recruitment) until recruitment closes.
    staff && (protocol.status === 'set-up' || protocol.status === 'recruiting')
      ? listTrialCandidates({ database, trialId, viewer, now, ...(search === '' ? {} : { search }) })
      : null,
    viewer.role === 'patient' ? getTrialParticipation({ database, trialId, viewer, now }) : null,
  ]);
  const armLabels = { control: protocol.arms.control.label, intervention: protocol.arms.intervention.label };
  const mayEditPlan = viewer.role === 'admin' && !protocol.analysisPlan.frozen;
  return (
    <article className="flex flex-col gap-8">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">12-Week Trial</h1>
        <p className="text-lg font-medium">
          {protocol.name}{' '}
          <Link href="/trials" className="text-sm font-normal text-accent underline">
            All trials
          </Link>
        </p>
        <p className="max-w-3xl text-muted">
          A randomised trial of personalised reminder messages against the standard programme: its protocol, the participant flow, and the
          results by intention to treat, computed from the trial’s records. Patients appear by pseudonym only.
        </p>
        <TrialStatusLine overview={overview} />
      </div>
      {participation === null ? null : <YourParticipation participation={participation} arms={protocol.arms} />}
      <TrialProtocolSection
        protocol={protocol}
        planEditor={
          mayEditPlan ? (
            <AnalysisPlanForm trialId={protocol.id} plan={protocol.analysisPlan} save={updateTrialAnalysisPlanAction} />
          ) : undefined
        }
      />
      {candidates === null ? null : (
        <EnrolmentPanel
          trialId={protocol.id}
          candidates={candidates}
          search={search}
          eligibility={protocol.eligibility}
          arms={protocol.arms}
          enrol={enrolTrialParticipantAction}
          exclude={recordTrialExclusionAction}
        />
      )}
      {participants === null ? null : (
        <ParticipantsTable
          trialId={protocol.id}
          participants={participants}
          armLabels={armLabels}
          today={overview.asOf.slice(0, 10)}
          recordExit={recordTrialExitAction}
        />
      )}
      <ConsortDiagram consort={overview.consort} armLabels={armLabels} asOf={overview.asOf} />
      <TrialResultsSection
        results={results}
        armLabels={armLabels}
        datasetHref={
          hasPermission(viewer.role, 'trials:analysis-dataset')
            ? `/api/trials/${encodeURIComponent(protocol.id)}/analysis-dataset`
            : undefined
        }
      />
      <SampleSizeCalculator calculate={calculateSampleSizeAction} />
    </article>
  );
}
