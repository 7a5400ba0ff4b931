'use client';

import { Button, Form, Input, Label, TextField } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { type MessagingProgramme, messagingProgrammeLabels, messagingProgrammes } from '@/lib/domain/messaging-programmes';
import type { ActionResult } from '@/lib/server/action-result';

type Props = {
  create: (input: {
    language: string;
    timezone: string;
    programme: MessagingProgramme;
  }) => Promise<ActionResult<{ id: string; pseudonym: string; phoneNumber: string }>>;
};

/** /dev/phone: make a new test patient (verified number, reminder opt-ins, the chosen programme) and open their phone. */
export function TestPatientForm({ create }: Props) {
  const router = useRouter();
  const [language, setLanguage] = useState('en');
  const [timezone, setTimezone] = useState('UTC');
  const [programme, setProgramme] = useState<MessagingProgramme>('fixed-daily');
  const [notice, setNotice] = useState<{ error?: string; text?: string }>({});
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setNotice({});
    const result = await create({ language, timezone, programme }).catch(() => null);
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
      <label className="flex flex-col gap-1 text-sm font-medium">
        Language
        <select
          value={language}
          onChange={(event) => setLanguage(event.target.value)}
          className="rounded-lg border border-separator bg-surface px-3 py-2 font-normal"
        >
          <option value="en">English</option>
          <option value="es">Spanish</option>
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Messaging programme
        <select
          name="programme"
          value={programme}
          onChange={(event) => setProgramme(messagingProgrammes.find((value) => value === event.target.value) ?? 'fixed-daily')}
          className="rounded-lg border border-separator bg-surface px-3 py-2 font-normal"
        >
          {messagingProgrammes.map((value) => (
            <option key={value} value={value}>
              {messagingProgrammeLabels[value]}
            </option>
          ))}
        </select>
      </label>
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
