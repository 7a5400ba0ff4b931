'use client';

import { Button, Form, Input, Label, TextField } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { ChoiceSelect } from '@/components/choice-select';
import { type FormEvent, useState } from 'react';
import { type MessagingProgramme, messagingProgrammeLabels, messagingProgrammes } from '@/lib/domain/messaging-programmes';
import type { ActionResult } from '@/lib/server/action-result';

type Props = {
  create: (input: {
    language: string;
    timezone: string;
    programme: MessagingProgramme;
    preferredChannel: 'whatsapp' | 'sms';
  }) => Promise<ActionResult<{ id: string; pseudonym: string; phoneNumber: string }>>;
};

/** /dev/phone: make a new test patient (verified number, reminder opt-ins, the chosen programme) and open their phone. */
export function TestPatientForm({ create }: Props) {
  const router = useRouter();
  const [language, setLanguage] = useState('en');
  const [timezone, setTimezone] = useState('UTC');
  const [programme, setProgramme] = useState<MessagingProgramme>('fixed-daily');
  const [preferredChannel, setPreferredChannel] = useState<'whatsapp' | 'sms'>('whatsapp');
  const [notice, setNotice] = useState<{ error?: string; text?: string }>({});
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setNotice({});
    const result = await create({ language, timezone, programme, preferredChannel }).catch(() => null);
    setBusy(false);
    if (result === null) setNotice({ error: 'We could not reach the server. Nothing was created.' });
    else if (!result.ok) setNotice({ error: result.error.message });
    else {
      setNotice({ text: `${result.data.pseudonym} was created with the test number ${result.data.phoneNumber}.` });
      router.push(`/dev/phone?patient=${encodeURIComponent(result.data.pseudonym)}`);
    }
  };
  return (
    <Form className="flex flex-wrap items-end gap-3" onSubmit={(event) => void submit(event)} aria-label="Create a test patient">
      <ChoiceSelect
        label="Language"
        className="w-40"
        value={language}
        onChange={setLanguage}
        options={[
          ['en', 'English'],
          ['es', 'Spanish'],
        ]}
      />
      <ChoiceSelect
        label="Messaging programme"
        className="w-64"
        value={programme}
        onChange={(value) => setProgramme(messagingProgrammes.find((candidate) => candidate === value) ?? 'fixed-daily')}
        options={messagingProgrammes.map((value) => [value, messagingProgrammeLabels[value]] as const)}
      />
      <ChoiceSelect
        label="Preferred channel"
        className="w-44"
        value={preferredChannel}
        onChange={(value) => setPreferredChannel(value === 'sms' ? 'sms' : 'whatsapp')}
        options={[
          ['whatsapp', 'WhatsApp'],
          ['sms', 'SMS'],
        ]}
      />
      <TextField name="timezone" value={timezone} onChange={setTimezone} isRequired maxLength={64}>
        <Label>Time zone</Label>
        <Input />
      </TextField>
      <Button type="submit" variant="secondary" isDisabled={busy}>
        Create a test patient
      </Button>
      <p role="status" className={notice.error ? 'text-danger' : 'text-muted'}>
        {notice.error ?? notice.text ?? ''}
      </p>
    </Form>
  );
}
