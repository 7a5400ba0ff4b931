import type { ActionResult } from '@/lib/server/action-result';
import type { OwnConsentsDto, OwnConsentsUpdate, PatientConsentsDto } from '../schemas';
import { ConsentHistory } from './consent-history';
import { ConsentSettings } from './consent-settings';

type Props = {
  own: OwnConsentsDto;
  save: (input: OwnConsentsUpdate) => Promise<ActionResult<PatientConsentsDto>>;
};

/** /profile's consent section: the patient's choices per channel and purpose, and their history. */
export function ConsentSection({ own, save }: Props) {
  return (
    <section aria-labelledby="consent-heading" className="flex flex-col gap-4">
      <h2 id="consent-heading" className="text-xl font-semibold">
        Messages you agree to
      </h2>
      {own.status === 'no-patient-record' ? (
        <p>Consents to messages apply to patients: your account is not linked to a patient record.</p>
      ) : (
        <>
          <p className="max-w-3xl text-muted">
            Choose, for each way we can reach you, which messages we may send: reminders about doses, education about your medicines, short
            surveys, and invitations to research. Replying STOP to any message stops every message on every channel; START turns the channel
            you reply on back on.
          </p>
          <ConsentSettings current={own.consents.current} save={save} />
          <h3 className="text-lg font-semibold">History</h3>
          <ConsentHistory consents={own.consents} />
        </>
      )}
    </section>
  );
}
