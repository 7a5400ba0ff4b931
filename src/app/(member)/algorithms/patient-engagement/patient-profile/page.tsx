import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { getDatabase } from '@/db/client';
import { PatientProfileView } from '@/features/patient-adherence/components/patient-profile-view';
import { getPatientProfile } from '@/features/patient-adherence/server/get-patient-profile';
import { getSessionUser } from '@/lib/server/session';

export const metadata: Metadata = { title: 'Patient Profile' };

type Props = { searchParams: Promise<{ patient?: string | string[] }> };

export default async function PatientProfilePage({ searchParams }: Props) {
  const requested = (await searchParams).patient;
  const profile = await getPatientProfile({
    database: getDatabase(),
    actor: await getSessionUser(await headers()),
    patientId: typeof requested === 'string' ? requested : null,
  });
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Patient Profile</h1>
      <p className="max-w-3xl text-muted">
        One patient’s medication journey over the last 12 months: regimen, a calendar of doses, the proportion of days covered, adherence in
        sliding windows, refill gaps and treatment episodes, and messages. Patients see their own record, clinicians the patients of their
        organisations, everyone else a de-identified example. Patients are shown by pseudonym only.
      </p>
      <PatientProfileView profile={profile} />
    </article>
  );
}
