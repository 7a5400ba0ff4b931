'use client';

import { Button, Form, Input, Label, TextField } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import type { ActionResult } from '@/lib/server/action-result';

type Props = { give: (input: { pseudonym: string }) => Promise<ActionResult<{ pseudonym: string; phoneNumber: string }>> };

/** /dev/phone: give the account linked to a patient a verified test number, so the phone can play that patient. */
export function TestNumberForm({ give }: Props) {
  const router = useRouter();
  const [pseudonym, setPseudonym] = useState('');
  const [notice, setNotice] = useState<{ error?: string; text?: string }>({});
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setNotice({});
    const result = await give({ pseudonym }).catch(() => null);
    setBusy(false);
    if (result === null) setNotice({ error: 'We could not reach the server. Nothing was changed.' });
    else if (!result.ok) setNotice({ error: result.error.message });
    else {
      setNotice({ text: `${result.data.pseudonym} now has the verified test number ${result.data.phoneNumber}.` });
      router.push(`/dev/phone?patient=${encodeURIComponent(result.data.pseudonym)}`);
    }
  };
  return (
    <Form className="flex flex-wrap items-end gap-3" onSubmit={(event) => void submit(event)} aria-label="Give a test number">
      <TextField name="pseudonym" value={pseudonym} onChange={setPseudonym} isRequired maxLength={100}>
        <Label>Pseudonym of a patient with an account</Label>
        <Input />
      </TextField>
      <Button type="submit" variant="secondary" isDisabled={busy}>
        Give a test number
      </Button>
      <p role="status" className={notice.error ? 'text-danger' : 'text-muted'}>
        {notice.error ?? notice.text ?? ''}
      </p>
    </Form>
  );
}
