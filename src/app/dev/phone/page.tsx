import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDatabase } from '@/db/client';
import { DevPhone } from '@/features/messaging-webhooks/components/dev-phone';
import { TestNumberForm } from '@/features/messaging-webhooks/components/test-number-form';
import { TestPatientForm } from '@/features/messaging-webhooks/components/test-patient-form';
import { getPhoneView, listPhonePatients } from '@/features/messaging-webhooks';
import { outboxIsAvailable } from '@/features/outbox';
import { FormSelect } from '@/components/form-select';
import { getEnvironment } from '@/lib/env';
import { createTestPatientAction, giveTestNumberAction, requestMessageNowAction, sendPhoneReplyAction } from './actions';

export const metadata: Metadata = { title: 'Phone' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Development page: a patient's WhatsApp and SMS threads as their phone shows them; replies go through the webhooks. */
export default async function PhonePage({ searchParams }: Props) {
  const environment = getEnvironment();
  if (!outboxIsAvailable(environment)) notFound();
  const database = getDatabase();
  const params = await searchParams;
  const chosen = typeof params.patient === 'string' ? params.patient : null;
  const patients = await listPhonePatients({ database });
  const selected = patients.find((patient) => patient.pseudonym === chosen) ?? null;
  const view = selected === null ? null : await getPhoneView({ database, environment, patientId: selected.id });
  return (
    <article className="flex flex-col gap-4">
      <h1 className="text-3xl font-semibold tracking-tight">Phone</h1>
      <p className="max-w-3xl text-muted">
        The local channel’s phone: a patient’s WhatsApp and SMS threads as stored in the message table, newest at the bottom. Taps and
        replies are signed as WhatsApp and Twilio sign them and posted to this server’s own webhooks. Only patients whose account has a
        verified phone number are listed.
      </p>
      <form method="get" className="flex flex-wrap items-end gap-3" aria-label="Choose a patient">
        <FormSelect
          name="patient"
          label="Patient (pseudonym)"
          defaultValue={selected?.pseudonym ?? ''}
          options={patients.map((patient) => [patient.pseudonym, patient.pseudonym] as const)}
        />
        <button type="submit" className="rounded-lg bg-accent px-4 py-2 font-medium text-accent-foreground">
          Show phone
        </button>
      </form>
      {patients.length === 0 ? <p>No patient has a verified phone number yet.</p> : null}
      {chosen !== null && view === null ? <p role="status">No patient with a verified number has that pseudonym.</p> : null}
      {view === null ? null : <DevPhone view={view} sendReply={sendPhoneReplyAction} sendNow={requestMessageNowAction} />}
      <section aria-labelledby="test-number-heading" className="flex flex-col gap-2">
        <h2 id="test-number-heading" className="text-xl font-semibold">
          Another patient
        </h2>
        <p className="max-w-3xl text-muted">
          A patient appears above once their account has a verified number. Here you can give the account linked to a patient (the demo
          patient’s, for example) a verified test number in the fictional +1 555 range.
        </p>
        <TestNumberForm give={giveTestNumberAction} />
        <p className="max-w-3xl text-muted">
          Or make a new test patient: an account with a verified test number, WhatsApp and SMS reminder opt-ins, enrolled in the fixed daily
          programme (in the demo clinic when there is one). Nobody else is affected by what you do with them.
        </p>
        <TestPatientForm create={createTestPatientAction} />
      </section>
    </article>
  );
}
