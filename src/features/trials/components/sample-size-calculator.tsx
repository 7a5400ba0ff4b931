'use client';

import { Button, Description, Form, Input, Label, TextField } from '@heroui/react';
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

type Values = Record<string, string>;

/** Controlled; the server's error is text in the description (react-aria's invalid state blocked later submits). */
function NumberField({
  name,
  label,
  values,
  setValues,
  error,
  description,
}: {
  name: string;
  label: string;
  values: Values;
  setValues: (update: (current: Values) => Values) => void;
  error: string | undefined;
  description?: string;
}) {
  return (
    <TextField
      name={name}
      value={values[name] ?? ''}
      onChange={(value) => setValues((current) => ({ ...current, [name]: value }))}
      className="w-48"
    >
      <Label>{label}</Label>
      <Input inputMode="decimal" />
      <Description className={description === undefined ? 'text-danger' : undefined}>
        {description}
        {error === undefined ? null : <span className={description === undefined ? undefined : 'block text-danger'}>{error}</span>}
      </Description>
    </TextField>
  );
}

function ProportionsForm({ calculate }: { calculate: Calculate }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [values, setValues] = useState<Values>({ p1: '0.5', p2: '0.65', alpha: '0.05', power: '0.8' });
  const [answer, setAnswer] = useState<string>('');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { p1 = '', p2 = '', alpha = '', power = '' } = values;
    void run(calculate, { kind: 'proportions', p1, p2, alpha, power }, (state) => {
      setErrors(state.errors);
      setAnswer(
        state.answer?.kind === 'proportions'
          ? `${formatCount(state.answer.n)} participants per arm (${formatCount(state.answer.nContinuityCorrected)} with the continuity correction), rounded up.`
          : state.problem,
      );
    });
  };
  return (
    <Form className="flex flex-col gap-3" aria-label="Sample size for two proportions" onSubmit={submit}>
      <h3 className="text-lg font-semibold">Two proportions (e.g. the share with adherence ≥ 0.8)</h3>
      <div className="flex flex-wrap gap-3">
        <NumberField name="p1" label="Proportion in the control arm (p1)" values={values} setValues={setValues} error={errors.p1} />
        <NumberField name="p2" label="Proportion in the intervention arm (p2)" values={values} setValues={setValues} error={errors.p2} />
        <NumberField
          name="alpha"
          label="Significance level (α)"
          description="Two-sided"
          values={values}
          setValues={setValues}
          error={errors.alpha}
        />
        <NumberField name="power" label="Power" values={values} setValues={setValues} error={errors.power} />
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
  const [values, setValues] = useState<Values>({ sd: '0.25', delta: '0.08', alpha: '0.05', power: '0.8' });
  const [answer, setAnswer] = useState<string>('');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { sd = '', delta = '', alpha = '', power = '' } = values;
    void run(calculate, { kind: 'means', sd, delta, alpha, power }, (state) => {
      setErrors(state.errors);
      setAnswer(state.answer?.kind === 'means' ? `${formatCount(state.answer.n)} participants per arm, rounded up.` : state.problem);
    });
  };
  return (
    <Form className="flex flex-col gap-3" aria-label="Sample size for two means" onSubmit={submit}>
      <h3 className="text-lg font-semibold">Two means (e.g. mean dose-level adherence)</h3>
      <div className="flex flex-wrap gap-3">
        <NumberField
          name="sd"
          label="Standard deviation"
          description="Common to both arms"
          values={values}
          setValues={setValues}
          error={errors.sd}
        />
        <NumberField name="delta" label="Difference to detect" values={values} setValues={setValues} error={errors.delta} />
        <NumberField
          name="alpha"
          label="Significance level (α)"
          description="Two-sided"
          values={values}
          setValues={setValues}
          error={errors.alpha}
        />
        <NumberField name="power" label="Power" values={values} setValues={setValues} error={errors.power} />
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
 * against statsmodels, through a server action (see sampleSizeOf for why not in the browser).
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
