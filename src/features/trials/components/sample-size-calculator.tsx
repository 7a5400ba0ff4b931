'use client';

import { Button, Description, FieldError, Form, Input, Label, TextField } from '@heroui/react';
import { type FormEvent, useState } from 'react';
import { formatCount } from '@/lib/format';
import type { ActionResult } from '@/lib/server/action-result';
import type { SampleSizeAnswer, SampleSizeInput } from '../sample-size';

type Calculate = (input: SampleSizeInput) => Promise<ActionResult<SampleSizeAnswer>>;

/** Sends one form's fields; shows the answer, the server's field errors, or that it could not be reached. */
async function run(
  calculate: Calculate,
  input: SampleSizeInput,
  show: (state: { errors: Record<string, string>; answer: SampleSizeAnswer | null; problem: string }) => void,
) {
  const result = await calculate(input).catch(() => null);
  if (result === null) show({ errors: {}, answer: null, problem: 'We could not reach the server; please try again.' });
  else if (!result.ok) show({ errors: result.error.fieldErrors ?? {}, answer: null, problem: '' });
  else show({ errors: {}, answer: result.data, problem: '' });
}

function NumberField({
  name,
  label,
  defaultValue,
  description,
}: {
  name: string;
  label: string;
  defaultValue: string;
  description?: string;
}) {
  return (
    <TextField name={name} defaultValue={defaultValue} className="w-48">
      <Label>{label}</Label>
      <Input inputMode="decimal" />
      {description === undefined ? null : <Description>{description}</Description>}
      <FieldError />
    </TextField>
  );
}

const fieldsOf = (event: FormEvent<HTMLFormElement>) =>
  Object.fromEntries([...new FormData(event.currentTarget).entries()].map(([key, value]) => [key, String(value)]));

function ProportionsForm({ calculate }: { calculate: Calculate }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [answer, setAnswer] = useState<string>('');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void run(calculate, { kind: 'proportions', fields: fieldsOf(event) }, (state) => {
      setErrors(state.errors);
      setAnswer(
        state.answer?.kind === 'proportions'
          ? `${formatCount(state.answer.n)} participants per arm (${formatCount(state.answer.nContinuityCorrected)} with the continuity correction), rounded up.`
          : state.problem,
      );
    });
  };
  return (
    <Form
      className="flex flex-col gap-3"
      aria-label="Sample size for two proportions"
      validationBehavior="aria"
      validationErrors={errors}
      onSubmit={submit}
    >
      <h3 className="text-lg font-semibold">Two proportions (e.g. the share with adherence ≥ 0.8)</h3>
      <div className="flex flex-wrap gap-3">
        <NumberField name="p1" label="Proportion in the control arm (p1)" defaultValue="0.5" />
        <NumberField name="p2" label="Proportion in the intervention arm (p2)" defaultValue="0.65" />
        <NumberField name="alpha" label="Significance level (α)" defaultValue="0.05" description="Two-sided" />
        <NumberField name="power" label="Power" defaultValue="0.8" />
      </div>
      <div>
        <Button type="submit" variant="secondary">
          Calculate for two proportions
        </Button>
      </div>
      <p role="status" className="text-sm font-medium" data-testid="sample-size-proportions">
        {answer}
      </p>
    </Form>
  );
}

function MeansForm({ calculate }: { calculate: Calculate }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [answer, setAnswer] = useState<string>('');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void run(calculate, { kind: 'means', fields: fieldsOf(event) }, (state) => {
      setErrors(state.errors);
      setAnswer(state.answer?.kind === 'means' ? `${formatCount(state.answer.n)} participants per arm, rounded up.` : state.problem);
    });
  };
  return (
    <Form
      className="flex flex-col gap-3"
      aria-label="Sample size for two means"
      validationBehavior="aria"
      validationErrors={errors}
      onSubmit={submit}
    >
      <h3 className="text-lg font-semibold">Two means (e.g. mean dose-level adherence)</h3>
      <div className="flex flex-wrap gap-3">
        <NumberField name="sd" label="Standard deviation" defaultValue="0.25" description="Common to both arms" />
        <NumberField name="delta" label="Difference to detect" defaultValue="0.08" />
        <NumberField name="alpha" label="Significance level (α)" defaultValue="0.05" description="Two-sided" />
        <NumberField name="power" label="Power" defaultValue="0.8" />
      </div>
      <div>
        <Button type="submit" variant="secondary">
          Calculate for two means
        </Button>
      </div>
      <p role="status" className="text-sm font-medium" data-testid="sample-size-means">
        {answer}
      </p>
    </Form>
  );
}

/**
 * Participants needed per arm (normal approximation, two-sided), by the engine functions the tests check
 * against statsmodels, through a server action (see calculateSampleSize for why not in the browser).
 */
export function SampleSizeCalculator({ calculate }: { calculate: Calculate }) {
  return (
    <section aria-labelledby="sample-size-heading" className="flex max-w-4xl flex-col gap-4" data-testid="sample-size">
      <h2 id="sample-size-heading" className="text-xl font-semibold">
        Sample-size calculator
      </h2>
      <p className="text-sm text-muted">
        For planning a trial like this one: how many participants each arm needs for the chosen significance level and power.
      </p>
      <ProportionsForm calculate={calculate} />
      <MeansForm calculate={calculate} />
    </section>
  );
}
