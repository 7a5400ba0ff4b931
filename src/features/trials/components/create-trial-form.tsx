'use client';

import { Button, Description, Form, Input, Label, TextArea, TextField } from '@heroui/react';
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
  const [values, setValues] = useState({ id: '', name: '', startDate: today, targetEnrolment: '100', analysisPlan: defaultAnalysisPlan });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const field = (name: keyof typeof values) => ({
    name,
    value: values[name],
    onChange: (value: string) => setValues((current) => ({ ...current, [name]: value })),
  });
  // Checked from the controlled values; each error is shown as text in the field's description (as in the exit
  // form), not as react-aria's invalid state, which kept blocking the submit after the field was corrected.
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const target = values.targetEnrolment.trim();
    const input: CreateTrialFormInput = {
      id: values.id.trim(),
      name: values.name.trim(),
      startDate: values.startDate.trim(),
      targetEnrolment: /^\d+$/.test(target) ? Number(target) : Number.NaN,
      analysisPlan: values.analysisPlan.trim(),
    };
    const problems: Record<string, string> = {};
    if (input.id === '') problems.id = 'Trial id: give one (lower-case letters, digits and hyphens).';
    if (input.name === '') problems.name = 'Name: give the trial a name.';
    if (input.startDate === '') problems.startDate = 'Start date: give the first day of the trial.';
    if (Number.isNaN(input.targetEnrolment)) problems.targetEnrolment = 'Target enrolment must be a whole number.';
    if (input.analysisPlan === '') problems.analysisPlan = 'Analysis plan: write the plan before setting up the trial.';
    setErrors(problems);
    setError(null);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    const result = await create(input).catch(() => null);
    setBusy(false);
    if (result === null) setError('We could not reach the server. No trial was created.');
    else if (!result.ok) {
      setErrors(result.error.fieldErrors ?? {});
      setError(result.error.message);
    } else router.push(`/trials/${encodeURIComponent(result.data.id)}`);
  };
  const problem = (name: string) => (errors[name] === undefined ? null : <span className="block text-danger">{errors[name]}</span>);
  return (
    <section aria-labelledby="create-trial-heading" className="flex max-w-4xl flex-col gap-3">
      <h2 id="create-trial-heading" className="text-xl font-semibold">
        Set up a trial
      </h2>
      <Form className="flex flex-col gap-3" aria-label="Set up a trial" onSubmit={(event) => void submit(event)}>
        <div className="flex flex-wrap gap-3">
          <TextField {...field('id')} className="w-64">
            <Label>Trial id</Label>
            <Input aria-required />
            <Description>Lower-case letters, digits and hyphens; part of the page’s address.{problem('id')}</Description>
          </TextField>
          <TextField {...field('name')} className="w-80">
            <Label>Name</Label>
            <Input aria-required />
            <Description className="text-danger">{errors.name ?? ''}</Description>
          </TextField>
          <TextField {...field('startDate')} className="w-44">
            <Label>Start date</Label>
            <Input type="date" aria-required />
            <Description className="text-danger">{errors.startDate ?? ''}</Description>
          </TextField>
          <TextField {...field('targetEnrolment')} className="w-44">
            <Label>Target enrolment</Label>
            <Input inputMode="numeric" aria-required />
            <Description>Participants in both arms{problem('targetEnrolment')}</Description>
          </TextField>
        </div>
        <TextField {...field('analysisPlan')}>
          <Label>Analysis plan</Label>
          <TextArea rows={6} aria-required />
          <Description>Frozen, with its SHA-256 shown, once the first participant is enrolled.{problem('analysisPlan')}</Description>
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
