'use client';

import { Button, Description, Form, Label, TextArea, TextField } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import type { ActionResult } from '@/lib/server/action-result';

export type AnalysisPlanInput = { trialId: string; analysisPlan: string };

type Props = {
  trialId: string;
  plan: { text: string; sha256: string | null };
  save: (input: AnalysisPlanInput) => Promise<ActionResult<unknown>>;
};

/**
 * The admin's editor of the analysis plan before enrolment starts. The server refuses a change once anyone is
 * enrolled (the plan is frozen by a trigger); the refusal is shown in words, as any other error.
 */
export function AnalysisPlanForm({ trialId, plan, save }: Props) {
  const router = useRouter();
  const [text, setText] = useState(plan.text);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ error?: string; fieldErrors?: Record<string, string>; saved?: string }>({});
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setNotice({});
    const result = await save({ trialId, analysisPlan: text }).catch(() => null);
    setBusy(false);
    if (result === null) setNotice({ error: 'We could not reach the server. The plan was not changed.' });
    else if (!result.ok) setNotice({ error: result.error.message, fieldErrors: result.error.fieldErrors });
    else {
      setNotice({ saved: 'Analysis plan saved.' });
      router.refresh();
    }
  };
  return (
    <Form className="flex max-w-4xl flex-col gap-3" aria-label="Edit the analysis plan" onSubmit={(event) => void submit(event)}>
      <TextField name="analysisPlan" value={text} onChange={setText}>
        <Label>Analysis plan</Label>
        <TextArea rows={8} aria-required />
        {/* The server's error as text in the description, not react-aria's invalid state (it blocked later submits). */}
        <Description>
          Editable until the first participant is enrolled; frozen from then on, with its SHA-256 shown.
          {notice.fieldErrors?.analysisPlan === undefined ? null : (
            <span className="block text-danger">{notice.fieldErrors.analysisPlan}</span>
          )}
        </Description>
      </TextField>
      <p className="text-sm">
        SHA-256 of the saved plan: <code className="break-all">{plan.sha256 ?? 'none yet (no plan text)'}</code>
      </p>
      <div className="flex items-center gap-3">
        <Button type="submit" variant="secondary" isDisabled={busy}>
          Save analysis plan
        </Button>
      </div>
      {notice.error ? (
        <p role="alert" className="rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger-soft-foreground">
          {notice.error}
        </p>
      ) : null}
      <p role="status" className="text-sm">
        {notice.saved ?? ''}
      </p>
    </Form>
  );
}
