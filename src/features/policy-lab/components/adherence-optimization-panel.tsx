'use client';

import { Button, Description, FieldError, Form, Input, Label, TextField } from '@heroui/react';
import { usePathname, useRouter } from 'next/navigation';
import { type FormEvent, useState, useTransition } from 'react';
import type { PersonalisedSettings } from '@/engine/policy/personalised';
import { formatCount, formatDecimal, formatPercent } from '@/lib/format';
import { submitChecked } from '@/lib/components/submit-checked';
import type { ActionResult } from '@/lib/server/action-result';
import {
  labDays,
  labPeriodText,
  labFormFieldLabels,
  labFormSchema,
  type LabFormValues,
  labFormValuesOf,
  labLimits,
  type LabPolicyOutcome,
  labPolicyLabels,
  type LabRunProgress,
  labRunParameter,
  labStartDate,
  labWeeks,
} from '../schemas';
import { describeSettings } from './describe-settings';
import { LabRunStatus } from './lab-run-status';
import { TableScroll } from '@/lib/components/table-scroll';

/** A run as this page shows it: progress, and once finished the policies' outcomes. */
export type LabRunView = {
  run: LabRunProgress;
  outcomes: LabPolicyOutcome[] | null;
  settings: PersonalisedSettings;
  patients: number;
  seed: number;
};

type Props = {
  defaultRun: LabRunView;
  whatIf: LabRunView | null;
  /** Why the address's run cannot be shown. */
  runProblem: string | null;
  startWhatIf: (input: unknown) => Promise<ActionResult<LabRunProgress>>;
};

const fieldNames = Object.keys(labFormFieldLabels) as (keyof LabFormValues)[];

function OutcomeRows({ label, outcome, testId }: { label: string; outcome: LabPolicyOutcome | undefined; testId: string }) {
  if (outcome === undefined) return null;
  return (
    <tr className="border-b border-separator" data-testid={testId}>
      <th scope="row" className="py-2 pr-4 font-medium">
        {label}
      </th>
      <td className="py-2 pr-4 text-right tabular-nums">{formatDecimal(outcome.meanPdc, 3)}</td>
      <td className="py-2 pr-4 text-right tabular-nums">{formatPercent(outcome.shareAdherent, 1)}</td>
      <td className="py-2 text-right tabular-nums">{formatDecimal(outcome.messagesPerPatientPerWeek, 2)}</td>
    </tr>
  );
}

function OutcomeTable({ defaultRun, whatIf }: { defaultRun: LabRunView; whatIf: LabRunView | null }) {
  const outcome = (view: LabRunView | null, policy: LabPolicyOutcome['policy']) => view?.outcomes?.find((entry) => entry.policy === policy);
  const mine = outcome(whatIf, 'personalised');
  const standard = outcome(defaultRun, 'personalised');
  return (
    <div className="flex flex-col gap-3">
      <TableScroll label="Expected adherence and message load">
        <table className="w-full text-left text-sm" data-testid="what-if-table">
          <caption className="pb-2 text-left text-sm text-muted">
            Expected adherence and message load over {labWeeks} weeks ({labPeriodText({ startDate: labStartDate, days: labDays })}),{' '}
            {formatCount(defaultRun.patients)} simulated patients, seed {defaultRun.seed}, the same cohort in every row (synthetic ·
            simulated).
          </caption>
          <thead>
            <tr className="border-b border-separator align-bottom">
              <th scope="col" className="py-2 pr-4">
                Policy and settings
              </th>
              <th scope="col" className="py-2 pr-4 text-right">
                Mean PDC
              </th>
              <th scope="col" className="py-2 pr-4 text-right">
                Patients at PDC ≥ 0.8
              </th>
              <th scope="col" className="py-2 text-right">
                Messages per patient per week
              </th>
            </tr>
          </thead>
          <tbody>
            <OutcomeRows label="Personalised, your settings" outcome={mine} testId="what-if-row-settings" />
            <OutcomeRows label="Personalised, default settings" outcome={standard} testId="what-if-row-default" />
            <OutcomeRows
              label={labPolicyLabels['fixed-daily']}
              outcome={outcome(defaultRun, 'fixed-daily')}
              testId="what-if-row-fixed-daily"
            />
            <OutcomeRows
              label={labPolicyLabels['uniform-random']}
              outcome={outcome(defaultRun, 'uniform-random')}
              testId="what-if-row-uniform-random"
            />
          </tbody>
        </table>
      </TableScroll>
      {mine !== undefined && standard !== undefined ? (
        <p className="text-sm" data-testid="what-if-difference">
          Against the default settings, your settings change the share of patients at PDC ≥ 0.8 by{' '}
          {formatDecimal((mine.shareAdherent - standard.shareAdherent) * 100, 1)} percentage points and the messages per patient per week by{' '}
          {formatDecimal(mine.messagesPerPatientPerWeek - standard.messagesPerPatientPerWeek, 2)} (simulated, {labDays} days).
        </p>
      ) : null}
    </div>
  );
}

/** /algorithms/patient-engagement/adherence-optimization: the what-if form, the runs' progress and their outcomes. */
export function AdherenceOptimizationPanel({ defaultRun, whatIf, runProblem, startWhatIf }: Props) {
  const router = useRouter();
  const pathname = usePathname();
  const [navigating, startNavigation] = useTransition();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formValues = labFormValuesOf((whatIf ?? defaultRun).settings);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = Object.fromEntries(fieldNames.map((name) => [name, String(data.get(name) ?? '')])) as LabFormValues;
    const submitted = await submitChecked({
      schema: labFormSchema,
      input,
      send: startWhatIf,
      unreachableMessage: 'We could not reach the server. Nothing was started; please try again.',
      setErrors,
      setMessage,
      setBusy,
    });
    if (submitted !== null)
      startNavigation(() =>
        router.push(`${pathname}?${new URLSearchParams({ [labRunParameter]: submitted.data.id }).toString()}`, { scroll: false }),
      );
  };

  const running = busy || navigating;
  return (
    <div className="flex flex-col gap-8">
      {runProblem !== null ? (
        <p role="alert" className="rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger-soft-foreground" data-testid="lab-run-problem">
          {runProblem}
        </p>
      ) : null}
      <section aria-labelledby="what-if-settings-heading" className="flex flex-col gap-4">
        <h2 id="what-if-settings-heading" className="text-xl font-semibold">
          What if the policy’s settings were…
        </h2>
        <Form
          key={whatIf?.run.id ?? 'default'}
          className="grid max-w-3xl gap-4 sm:grid-cols-2"
          validationErrors={errors}
          onSubmit={(event) => void submit(event)}
          aria-label="Policy settings"
        >
          <TextField name="messagesPerWeekCap" defaultValue={formValues.messagesPerWeekCap} inputMode="numeric">
            <Label>{labFormFieldLabels.messagesPerWeekCap}</Label>
            <Input />
            <Description>Most messages a patient receives in any 7 days: 0 to {labLimits.maximumMessagesPerWeek}.</Description>
            <FieldError />
          </TextField>
          <TextField name="explorationFloor" defaultValue={formValues.explorationFloor} inputMode="decimal">
            <Label>{labFormFieldLabels.explorationFloor} (%)</Label>
            <Input />
            <Description>
              The least chance of sending on a day, so the policy keeps learning: 0 to {labLimits.maximumSendProbabilityFloor * 100}%.
            </Description>
            <FieldError />
          </TextField>
          <TextField name="quietStart" defaultValue={formValues.quietStart}>
            <Label>{labFormFieldLabels.quietStart}</Label>
            <Input placeholder="21:00" />
            <Description>No messages from this time (24-hour clock, the patient’s local time).</Description>
            <FieldError />
          </TextField>
          <TextField name="quietEnd" defaultValue={formValues.quietEnd}>
            <Label>{labFormFieldLabels.quietEnd}</Label>
            <Input placeholder="08:00" />
            <Description>Until this time. Leave both empty for no quiet hours.</Description>
            <FieldError />
          </TextField>
          <TextField name="burdenWeight" defaultValue={formValues.burdenWeight} inputMode="decimal">
            <Label>{labFormFieldLabels.burdenWeight}</Label>
            <Input />
            <Description>
              How much recent messages count against sending another: 0 (not at all) to {labLimits.maximumBurdenWeight}.
            </Description>
            <FieldError />
          </TextField>
          <div className="flex flex-col gap-3 sm:col-span-2">
            {message ? (
              <p role="alert" className="rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger-soft-foreground">
                {message}
              </p>
            ) : null}
            <div>
              <Button type="submit" variant="primary" isDisabled={running}>
                {running ? 'Starting…' : 'Run the what-if'}
              </Button>
            </div>
            <p className="text-sm text-muted">
              A what-if simulates {formatCount(defaultRun.patients)} patients for {labWeeks} weeks under the personalised policy with these
              settings and under the two baselines, in the background (about a minute; runs with the same settings are shared).
            </p>
          </div>
        </Form>
      </section>
      <section aria-labelledby="what-if-results-heading" className="flex flex-col gap-4">
        <h2 id="what-if-results-heading" className="text-xl font-semibold">
          Expected adherence and message load
        </h2>
        {whatIf !== null ? (
          <p className="text-sm" data-testid="what-if-settings">
            Your settings: {describeSettings(whatIf.settings)}.
          </p>
        ) : (
          <p className="text-sm">
            Run a what-if to compare your settings with the default settings ({describeSettings(defaultRun.settings)}).
          </p>
        )}
        {defaultRun.outcomes === null ? <LabRunStatus run={defaultRun.run} label="Default settings run" /> : null}
        {whatIf !== null && whatIf.outcomes === null ? <LabRunStatus run={whatIf.run} label="What-if run" /> : null}
        <OutcomeTable defaultRun={defaultRun} whatIf={whatIf} />
      </section>
    </div>
  );
}
