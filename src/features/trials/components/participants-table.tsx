'use client';

import { Button, Description, Form, Input, Label, ListBox, Select, TextField } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import type { TrialArm, TrialExitKind, TrialParticipant } from '../contracts';
import { formatDate } from '@/lib/format';
import type { ActionResult } from '@/lib/server/action-result';
import { exitKindLabels, participantStatusLabels } from './trial-format';
import { TableScroll } from '@/lib/components/table-scroll';

export type ExitInput = { trialId: string; patientId: string; kind: TrialExitKind; reason: string; on: string };

type Props = {
  trialId: string;
  participants: TrialParticipant[];
  armLabels: Record<TrialArm, string>;
  /** Today in the trial's calendar: the default date of an exit. */
  today: string;
  recordExit: (input: ExitInput) => Promise<ActionResult<unknown>>;
};

const exitKinds = Object.keys(exitKindLabels) as TrialExitKind[];

function ExitForm({
  trialId,
  participant,
  today,
  recordExit,
  onDone,
}: {
  trialId: string;
  participant: TrialParticipant;
  today: string;
  recordExit: Props['recordExit'];
  onDone: (message: string) => void;
}) {
  const [kind, setKind] = useState<TrialExitKind>('withdrawn');
  const [reason, setReason] = useState('');
  const [on, setOn] = useState(today);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Checked from the controlled values; each error is the field's description, not react-aria's invalid state,
  // which in a native-validation form set the input's custom validity and silently blocked the next submit.
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problems: Record<string, string> = {};
    if (reason.trim() === '') problems.reason = 'Reason: say why (no names or contact details).';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(on.trim())) problems.on = 'Date: give the day as YYYY-MM-DD.';
    setErrors(problems);
    setError(null);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    const result = await recordExit({ trialId, patientId: participant.patientId, kind, reason: reason.trim(), on: on.trim() }).catch(
      () => null,
    );
    setBusy(false);
    if (result === null) setError('We could not reach the server. Nothing was recorded.');
    else if (!result.ok) {
      setErrors(result.error.fieldErrors ?? {});
      setError(result.error.message);
    } else onDone(`${exitKindLabels[kind]} of ${participant.pseudonym} recorded.`);
  };
  return (
    <Form
      className="flex flex-wrap items-start gap-3 rounded-xl border border-separator p-3"
      aria-label={`Record an exit of ${participant.pseudonym}`}
      onSubmit={(event) => void submit(event)}
    >
      <Select
        name="kind"
        selectedKey={kind}
        onSelectionChange={(key) => setKind(key as TrialExitKind)}
        className="w-64"
        variant="secondary"
      >
        <Label>What happened</Label>
        <Select.Trigger>
          <Select.Value />
          <Select.Indicator />
        </Select.Trigger>
        <Select.Popover>
          <ListBox>
            {exitKinds.map((value) => (
              <ListBox.Item key={value} id={value} textValue={exitKindLabels[value]}>
                {exitKindLabels[value]}
                <ListBox.ItemIndicator />
              </ListBox.Item>
            ))}
          </ListBox>
        </Select.Popover>
      </Select>
      <TextField name="reason" value={reason} onChange={setReason} className="w-72">
        <Label>Reason (required)</Label>
        <Input />
        <Description className="text-danger">{errors.reason ?? ''}</Description>
      </TextField>
      <TextField name="on" value={on} onChange={setOn} className="w-44">
        <Label>Date</Label>
        <Input type="date" />
        <Description className="text-danger">{errors.on ?? ''}</Description>
      </TextField>
      <div className="flex flex-col gap-1 self-end">
        <Button type="submit" isDisabled={busy}>
          Save exit
        </Button>
      </div>
      {error === null ? null : (
        <p role="alert" className="w-full rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger-soft-foreground">
          {error}
        </p>
      )}
    </Form>
  );
}

/**
 * The participants the viewer may see (their organisation's, or all for admins), each with their status, and a
 * form to record a withdrawal, a loss to follow-up or a discontinuation (reason and date required).
 */
export function ParticipantsTable({ trialId, participants, armLabels, today, recordExit }: Props) {
  const router = useRouter();
  const [open, setOpen] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  return (
    <section aria-labelledby="participants-heading" className="flex max-w-5xl flex-col gap-3" data-testid="trial-participants">
      <h2 id="participants-heading" className="text-xl font-semibold">
        Participants ({participants.length})
      </h2>
      <p className="text-sm text-muted">
        The participants of this trial you may see, by pseudonym, with their status today ({formatDate(today)}).
      </p>
      <p role="status" className="text-sm">
        {notice}
      </p>
      {participants.length === 0 ? (
        <p className="text-sm">No one you may see is enrolled yet.</p>
      ) : (
        <TableScroll label="Participants">
          <table className="w-full text-left text-sm">
            <thead>
              <tr>
                <th scope="col" className="py-2 pr-4">
                  Participant
                </th>
                <th scope="col" className="py-2 pr-4">
                  Arm
                </th>
                <th scope="col" className="py-2 pr-4">
                  Enrolled on
                </th>
                <th scope="col" className="py-2 pr-4">
                  Follow-up ends on
                </th>
                <th scope="col" className="py-2 pr-4">
                  Status
                </th>
                <th scope="col" className="py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {participants.map((participant) => (
                <ParticipantRow
                  key={participant.patientId}
                  participant={participant}
                  armLabel={armLabels[participant.arm]}
                  isOpen={open === participant.patientId}
                  toggle={() => setOpen((current) => (current === participant.patientId ? null : participant.patientId))}
                  form={
                    <ExitForm
                      trialId={trialId}
                      participant={participant}
                      today={today}
                      recordExit={recordExit}
                      onDone={(message) => {
                        setOpen(null);
                        setNotice(message);
                        router.refresh();
                      }}
                    />
                  }
                />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

function ParticipantRow({
  participant,
  armLabel,
  isOpen,
  toggle,
  form,
}: {
  participant: TrialParticipant;
  armLabel: string;
  isOpen: boolean;
  toggle: () => void;
  form: React.ReactNode;
}) {
  // A participant who discontinued the intervention stays in follow-up and may still withdraw or be lost.
  const active = participant.status === 'in-follow-up' || participant.status === 'discontinued';
  return (
    <>
      <tr className="border-t border-separator" data-testid="trial-participant">
        <th scope="row" className="py-2 pr-4 font-normal">
          {participant.pseudonym}
        </th>
        <td className="py-2 pr-4">{armLabel}</td>
        <td className="py-2 pr-4">{formatDate(participant.enrolledOn)}</td>
        <td className="py-2 pr-4">{formatDate(participant.followUpEndsOn)}</td>
        <td className="py-2 pr-4">{participantStatusLabels[participant.status]}</td>
        <td className="py-2">
          {active ? (
            <Button size="sm" variant="secondary" onPress={toggle} aria-expanded={isOpen}>
              {isOpen ? 'Cancel' : 'Record withdrawal / loss to follow-up / discontinuation'}
              <span className="sr-only"> of {participant.pseudonym}</span>
            </Button>
          ) : null}
        </td>
      </tr>
      {isOpen ? (
        <tr>
          <td colSpan={6} className="pb-3">
            {form}
          </td>
        </tr>
      ) : null}
    </>
  );
}
