'use client';

import { Button, Checkbox, CheckboxGroup, Label } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { consentChannelLabels, consentPurposeLabels } from '@/lib/domain/consent';
import type { ActionResult } from '@/lib/server/action-result';
// The lists from the domain module, not ../schemas, whose zod schemas would come to the browser with them.
import { type ConsentChannel, consentChannels, type ConsentPurpose, consentPurposes } from '@/lib/domain/consent';
import type { ConsentStateDto, OwnConsentsUpdate, PatientConsentsDto } from '../schemas';

type Props = {
  current: ConsentStateDto[];
  save: (input: OwnConsentsUpdate) => Promise<ActionResult<PatientConsentsDto>>;
};

const selectedOf = (current: ConsentStateDto[]): OwnConsentsUpdate => {
  const selected = Object.fromEntries(consentChannels.map((channel) => [channel, [] as ConsentPurpose[]])) as OwnConsentsUpdate;
  for (const state of current) if (state.granted) selected[state.channel].push(state.purpose);
  return selected;
};

/** /profile: which messages the patient agrees to, per channel and purpose; saved together with one button. */
export function ConsentSettings({ current, save }: Props) {
  const router = useRouter();
  const [draft, setDraft] = useState<OwnConsentsUpdate>(() => selectedOf(current));
  const [message, setMessage] = useState<{ error?: string; notice?: string }>({});
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    setSaving(true);
    setMessage({});
    const result = await save(draft).catch(() => null);
    setSaving(false);
    if (result === null) setMessage({ error: 'We could not reach the server. Nothing was changed.' });
    else if (!result.ok) setMessage({ error: result.error.message });
    else {
      setDraft(selectedOf(result.data.current));
      setMessage({ notice: 'Your consents are saved.' });
      // The history below is rendered on the server: read it again.
      router.refresh();
    }
  };

  const setChannel = (channel: ConsentChannel, purposes: string[]) =>
    setDraft((previous) => ({ ...previous, [channel]: consentPurposes.filter((purpose) => purposes.includes(purpose)) }));

  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="grid gap-4 sm:grid-cols-3">
        {consentChannels.map((channel) => (
          <CheckboxGroup
            key={channel}
            name={`consent-${channel}`}
            value={draft[channel]}
            onChange={(purposes) => setChannel(channel, purposes)}
            isDisabled={saving}
            className="rounded-xl border border-separator p-3"
          >
            <Label>{consentChannelLabels[channel]}</Label>
            {consentPurposes.map((purpose) => (
              <Checkbox key={purpose} value={purpose}>
                <Checkbox.Control>
                  <Checkbox.Indicator />
                </Checkbox.Control>
                <Checkbox.Content>
                  <Label>{consentPurposeLabels[purpose]}</Label>
                </Checkbox.Content>
              </Checkbox>
            ))}
          </CheckboxGroup>
        ))}
      </div>
      {message.error ? (
        <p role="alert" className="rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger-soft-foreground">
          {message.error}
        </p>
      ) : null}
      <p role="status" className="text-sm">
        {message.notice ?? ''}
      </p>
      <div>
        <Button type="submit" variant="primary" isDisabled={saving}>
          Save consents
        </Button>
      </div>
    </form>
  );
}
