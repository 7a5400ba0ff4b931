import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { getDatabase } from '@/db/client';
import { PatientProfileView } from '@/features/patient-adherence/components/patient-profile-view';
import { patientProfileQuerySchema } from '@/features/patient-adherence/schemas';
import { getPatientProfile } from '@/features/patient-adherence/server/get-patient-profile';
import { listRepliesToRead } from '@/features/message-replies';
import { RepliesToRead } from '@/features/message-replies/components/replies-to-read';
import { markReplyReadAction } from '@/app/_actions/reply-actions';
import { setMessagingProgrammeAction } from '@/app/_actions/messaging-programme-actions';
import { listSurveyMessagesAction, offerSurveyByMessageAction } from '@/app/_actions/survey-actions';
import { SurveyByMessageForm } from '@/features/surveys/components/survey-by-message-form';
import { listSurveyMessages } from '@/features/surveys/server/list-survey-messages';
import { MessagingProgrammeForm } from '@/features/messaging-loop/components/messaging-programme-form';
import { PatientRiskLine } from '@/features/risk/components/patient-risk-line';
import { getPatientRisk } from '@/features/risk/server/get-patient-risk';
import { parsePeriodQuery } from '@/lib/period-query';
import { getSignedInUser } from '@/lib/server/current-user';
import { requestContextOf } from '@/lib/server/request-context';

export const metadata: Metadata = { title: 'Patient Profile' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function PatientProfilePage({ searchParams }: Props) {
  const params = await searchParams;
  const query = patientProfileQuerySchema.safeParse({ patient: params.patient });
  const period = parsePeriodQuery(params);
  // A malformed choice is answered like a patient the viewer may not see: the list to choose from, and why.
  const actor = await getSignedInUser();
  const request = requestContextOf(await headers());
  const profile = await getPatientProfile({
    database: getDatabase(),
    actor,
    patientId: query.success ? (query.data.patient ?? null) : 'not-a-patient-id',
    choice: period.choice,
    request,
  });
  // What the patient wrote that is not data yet: for their clinicians (and admins), never other roles.
  const replies =
    profile.status === 'ok' && (actor.role === 'clinician' || actor.role === 'admin')
      ? await listRepliesToRead({ database: getDatabase(), actor, patientId: profile.patient.id, request })
      : null;
  // The programme: changed by an admin or the patient's clinician (the use case checks again), read by the
  // patient themself, not shown to other roles (they see a de-identified example).
  const mayChangeProgramme =
    profile.status === 'ok' && (actor.role === 'admin' || (actor.role === 'clinician' && profile.access === 'organisation'));
  // The risk line is for care teams (the use case checks the patient is theirs).
  const showsRisk =
    profile.status === 'ok' && (actor.role === 'admin' || (actor.role === 'clinician' && profile.access === 'organisation'));
  const risk = showsRisk ? await getPatientRisk({ database: getDatabase(), actor, patientId: profile.patient.id }) : null;
  const mayReadProgramme = mayChangeProgramme || (profile.status === 'ok' && profile.access === 'self');
  // Surveys sent by message and their one automatic reminder: for those who send them (the use case checks again).
  const sentSurveys =
    profile.status === 'ok' && mayChangeProgramme
      ? await listSurveyMessages({ database: getDatabase(), actor, patientId: profile.patient.id, request })
      : [];
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Patient Profile</h1>
      <p className="max-w-3xl text-muted">
        One patient’s medication journey over the chosen period (by default the 12 months up to the last day of data): regimen, a calendar
        of doses, dose confirmations beside refills, the proportion of days covered, adherence in sliding windows, refill gaps and treatment
        episodes, messages as sent and received, and, for the patient’s clinicians, the replies to read. Patients see their own record,
        clinicians the patients of their organisations, everyone else a de-identified example. Patients are shown by pseudonym only.
      </p>
      {showsRisk && <PatientRiskLine risk={risk} />}
      <PatientProfileView profile={profile} periodProblem={period.problem} />
      {profile.status === 'ok' && mayReadProgramme ? (
        <MessagingProgrammeForm
          key={profile.patient.id}
          patientId={profile.patient.id}
          programme={profile.patient.messagingProgramme}
          save={mayChangeProgramme ? setMessagingProgrammeAction : undefined}
        />
      ) : null}
      {/* The same people as change the programme (the use case checks again and audits). */}
      {profile.status === 'ok' && mayChangeProgramme ? (
        <SurveyByMessageForm
          patientId={profile.patient.id}
          send={offerSurveyByMessageAction}
          list={listSurveyMessagesAction}
          sentSurveys={sentSurveys}
        />
      ) : null}
      {replies === null ? null : <RepliesToRead replies={replies} markRead={markReplyReadAction} />}
    </article>
  );
}
