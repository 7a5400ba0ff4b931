'use client';

import { Button, Description, FieldError, Form, Input, Label, TextArea, TextField } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import type { ActionResult } from '@/lib/server/action-result';

export type CreateTrialFormInput = {
  id: string;
  name: string;
  startDate: string;
  targetEnrolment: number;
  analysisPlan: string;
};

type Props = {
  /** Today: the default start date. */
  today: string;
  /** The protocol's default analysis plan, to start from. */
  defaultAnalysisPlan: string;
  create: (input: CreateTrialFormInput) => Promise<ActionResult<{ id: string }>>;
};

/** The admin's "Set up a trial": id, name, start, target and the analysis plan; then on to the trial's page. */
export function CreateTrialForm({ today, defaultAnalysisPlan, create }: Props) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (field: string) => String(data.get(field) ?? '').trim();
    const target = text('targetEnrolment');
    const input: CreateTrialFormInput = {
      id: text('id'),
      name: text('name'),
      startDate: text('startDate'),
      targetEnrolment: /^\d+$/.test(target) ? Number(target) : Number.NaN,
      analysisPlan: text('analysisPlan'),
    };
    if (Number.isNaN(input.targetEnrolment)) {
      setErrors({ targetEnrolment: 'Target enrolment must be a whole number.' });
      return;
    }
    setBusy(true);
    setError(null);
    setErrors({});
    const result = await create(input).catch(() => null);
    setBusy(false);
    if (result === null) setError('We could not reach the server. No trial was created.');
    else if (!result.ok) {
      setErrors(result.error.fieldErrors ?? {});
      setError(result.error.message);
    } else router.push(`/trials/${encodeURIComponent(result.data.id)}`);
  };
  return (
    <section aria-labelledby="create-trial-heading" className="flex max-w-4xl flex-col gap-3">
      <h2 id="create-trial-heading" className="text-xl font-semibold">
        Set up a trial
      </h2>
      <Form
        className="flex flex-col gap-3"
        aria-label="Set up a trial"
        validationBehavior="aria"
        validationErrors={busy ? {} : errors}
        onSubmit={(event) => void submit(event)}
      >
        <div className="flex flex-wrap gap-3">
          <TextField name="id" className="w-64" isRequired>
            <Label>Trial id</Label>
            <Input />
            <Description>Lower-case letters, digits and hyphens; part of the page’s address.</Description>
            <FieldError />
          </TextField>
          <TextField name="name" className="w-80" isRequired>
            <Label>Name</Label>
            <Input />
            <FieldError />
          </TextField>
          <TextField name="startDate" defaultValue={today} className="w-44" isRequired>
            <Label>Start date</Label>
            <Input type="date" />
            <FieldError />
          </TextField>
          <TextField name="targetEnrolment" defaultValue="100" className="w-44" isRequired>
            <Label>Target enrolment</Label>
            <Input inputMode="numeric" />
            <Description>Participants in both arms</Description>
            <FieldError />
          </TextField>
        </div>
        <TextField name="analysisPlan" defaultValue={defaultAnalysisPlan} isRequired>
          <Label>Analysis plan</Label>
          <TextArea rows={6} />
          <Description>Frozen, with its SHA-256 shown, once the first participant is enrolled.</Description>
          <FieldError />
        </TextField>
        <div>
          <Button type="submit" isDisabled={busy}>
            Set up the trial
          </Button>
        </div>
        {error === null ? null : (
          <p role="alert" className="rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger-soft-foreground">
            {error}
          </p>
        )}
      </Form>
    </section>
  );
}
