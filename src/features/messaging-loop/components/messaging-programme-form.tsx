'use client';

import { Button, Form } from '@heroui/react';
import { ChoiceSelect } from '@/components/choice-select';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { type MessagingProgramme, messagingProgrammeLabels, messagingProgrammes } from '@/lib/domain/messaging-programmes';
import type { ActionResult } from '@/lib/server/action-result';
import type { MessagingEnrolmentDto } from '../schemas';

type Props = {
  patientId: string;
  programme: MessagingProgramme | null;
  /** Absent: the viewer may only read the programme (the patient themself). */
  save?: (input: { patientId: string; programme: MessagingProgramme | null }) => Promise<ActionResult<MessagingEnrolmentDto>>;
};

const notEnrolled = 'not-enrolled';
const labelOf = (programme: MessagingProgramme | null) =>
  programme === null ? 'Not enrolled (no live messages)' : messagingProgrammeLabels[programme];

/** The patient profile's messaging programme: read-only, or a select + Save for an admin or the patient's clinician. */
export function MessagingProgrammeForm({ patientId, programme, save }: Props) {
  const router = useRouter();
  const [choice, setChoice] = useState<string>(programme ?? notEnrolled);
  const [notice, setNotice] = useState<{ error?: string; text?: string }>({});
  const [busy, setBusy] = useState(false);
  // The stored programme can change under the form (this save's refresh, a trial enrolment): the select follows
  // it, and the form is not remounted, so the "Saved" notice of this save stays on screen.
  const [shown, setShown] = useState(programme);
  if (shown !== programme) {
    setShown(programme);
    setChoice(programme ?? notEnrolled);
  }
  if (save === undefined) {
    return (
      <section aria-labelledby="messaging-programme-heading" className="flex flex-col gap-1">
        <h2 id="messaging-programme-heading" className="text-xl font-semibold">
          Messaging programme
        </h2>
        <p>{labelOf(programme)}</p>
      </section>
    );
  }
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = messagingProgrammes.find((value) => value === choice) ?? null;
    setBusy(true);
    setNotice({});
    const result = await save({ patientId, programme: next }).catch(() => null);
    setBusy(false);
    if (result === null) setNotice({ error: 'We could not reach the server. The programme was not changed.' });
    else if (!result.ok) setNotice({ error: result.error.message });
    else {
      setNotice({ text: `Saved: the patient is now in “${labelOf(result.data.programme)}”.` });
      router.refresh();
    }
  };
  return (
    <section aria-labelledby="messaging-programme-heading" className="flex flex-col gap-2">
      <h2 id="messaging-programme-heading" className="text-xl font-semibold">
        Messaging programme
      </h2>
      <Form className="flex flex-wrap items-end gap-3" onSubmit={(event) => void submit(event)} aria-label="Change the messaging programme">
        <ChoiceSelect
          label="Programme"
          className="w-80"
          value={choice}
          onChange={setChoice}
          options={[[notEnrolled, labelOf(null)], ...messagingProgrammes.map((value) => [value, labelOf(value)] as const)]}
        />
        <Button type="submit" variant="secondary" isDisabled={busy}>
          Save programme
        </Button>
        <p role="status" className={notice.error ? 'text-danger' : 'text-muted'}>
          {notice.error ?? notice.text ?? ''}
        </p>
      </Form>
    </section>
  );
}
