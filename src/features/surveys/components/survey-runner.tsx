'use client';

import { Button, Description, Form, Input, Label, Radio, RadioGroup, TextField } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { ActionResult } from '@/lib/server/action-result';
import type { SurveyState } from '../server/survey-store';
import { SurveyResultView } from './survey-result-view';

type Props = {
  surveyKey: string;
  title: string;
  description: string;
  initial: SurveyState | null;
  start: (input: unknown) => Promise<ActionResult<SurveyState>>;
  answer: (input: unknown) => Promise<ActionResult<SurveyState>>;
};

/**
 * One survey, one question at a time: each answer is saved as it is given, focus moves to the next question,
 * progress is shown in words and as a bar, and the patient may stop at any time and continue later.
 */
export function SurveyRunner({ surveyKey, title, description, initial, start, answer }: Props) {
  const router = useRouter();
  const [state, setState] = useState<SurveyState | null>(initial);
  // An unfinished response opened on the page is shown as "continue" until the patient chooses to.
  const [active, setActive] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // "Stop for now" removes the button that had focus: focus goes to "Continue this survey" instead of the page.
  const [stopped, setStopped] = useState(false);
  const questionHeading = useRef<HTMLHeadingElement>(null);
  const continueButton = useRef<HTMLButtonElement>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const headingId = `survey-${surveyKey}-heading`;
  const questionId = state?.question?.id ?? null;
  const completed = state?.completedAt ?? null;

  // Focus follows the survey: to each new question, then to the result.
  useEffect(() => {
    if (!active) return;
    if (questionId !== null) questionHeading.current?.focus();
    else if (completed !== null) resultHeading.current?.focus();
  }, [active, questionId, completed]);
  useEffect(() => {
    if (stopped && !active) continueButton.current?.focus();
  }, [stopped, active]);

  /**
   * The server action's answer, or a failed result when the request itself failed (offline, a redeploy): the form
   * then says so and can be used again, rather than staying disabled.
   */
  async function call(action: (input: unknown) => Promise<ActionResult<SurveyState>>, input: unknown): Promise<ActionResult<SurveyState>> {
    setBusy(true);
    setError(null);
    try {
      return await action(input);
    } catch {
      return {
        ok: false,
        error: { code: 'unavailable', message: 'We could not reach Medaptive. Your saved answers are kept; please try again.' },
      };
    } finally {
      setBusy(false);
    }
  }

  async function begin(restart: boolean) {
    const result = await call(start, { surveyKey, restart });
    if (!result.ok) return setError(result.error.message);
    setState(result.data);
    setValue('');
    setActive(true);
    setStopped(false);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state === null || state.question === null) return;
    const question = state.question;
    if (value.trim() === '') return setError(question.kind === 'choice' ? 'Choose an answer.' : `Enter the ${question.unit}.`);
    const result = await call(answer, {
      responseId: state.responseId,
      questionId: question.id,
      answer: question.kind === 'number' ? Number(value) : value,
    });
    if (!result.ok) return setError(result.error.message);
    setState(result.data);
    setValue('');
    // The cohort figures beside the survey include the patient's result once finished.
    if (result.data.completedAt !== null) router.refresh();
  }

  const progress = state === null ? null : state.progress;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 rounded-lg border border-separator p-4">
      <h2 id={headingId} className="text-xl font-semibold">
        {title}
      </h2>
      <p className="text-sm text-muted">{description}</p>

      {state === null ? (
        <div>
          {/* The visible text starts the name, so a list of buttons still tells the surveys apart (label in name). */}
          <Button onPress={() => void begin(false)} isDisabled={busy} aria-label={`Start this survey: ${title}`}>
            Start this survey
          </Button>
        </div>
      ) : state.completedAt !== null && state.result !== null ? (
        <div className="flex flex-col gap-3">
          <h3 ref={resultHeading} tabIndex={-1} className="text-lg font-medium outline-none">
            Your results
          </h3>
          <SurveyResultView result={state.result} order={state.order} completedAt={state.completedAt} />
          <div>
            <Button variant="secondary" onPress={() => void begin(true)} isDisabled={busy} aria-label={`Take this survey again: ${title}`}>
              Take this survey again
            </Button>
          </div>
        </div>
      ) : !active ? (
        <div className="flex flex-col gap-2">
          <p>
            You have answered {state.progress.answered} of {state.order === 'fixed' ? '' : 'at most '}
            {state.progress.total} questions. Your answers are saved.
          </p>
          <div>
            <Button
              ref={continueButton}
              onPress={() => {
                setActive(true);
                setStopped(false);
              }}
              aria-label={`Continue this survey: ${title}`}
            >
              Continue this survey
            </Button>
          </div>
        </div>
      ) : state.question !== null && progress !== null ? (
        <Form
          className="flex flex-col gap-4"
          aria-labelledby={`${headingId} survey-${surveyKey}-question`}
          onSubmit={(event) => void submit(event)}
        >
          <div className="flex flex-col gap-1">
            <p id={`survey-${surveyKey}-progress`}>
              Question {progress.answered + 1} of {state.order === 'fixed' ? '' : 'at most '}
              {progress.total}
            </p>
            <progress
              className="h-2 w-full max-w-md"
              value={progress.answered}
              max={progress.total}
              aria-labelledby={`survey-${surveyKey}-progress`}
            />
          </div>
          <h3 id={`survey-${surveyKey}-question`} ref={questionHeading} tabIndex={-1} className="text-lg font-medium outline-none">
            {state.question.text}
          </h3>
          {state.question.kind === 'choice' ? (
            <RadioGroup
              key={state.question.id}
              name="answer"
              // null, not '': React Aria takes '' for a chosen value and then leaves no radio reachable by Tab.
              value={value === '' ? null : value}
              onChange={setValue}
              aria-labelledby={`survey-${surveyKey}-question`}
            >
              {state.question.help === null ? null : <Description>{state.question.help}</Description>}
              {state.question.options.map((option) => (
                <Radio key={option.value} value={option.value}>
                  <Radio.Control>
                    <Radio.Indicator />
                  </Radio.Control>
                  <Radio.Content>
                    <Label>{option.label}</Label>
                  </Radio.Content>
                </Radio>
              ))}
            </RadioGroup>
          ) : (
            <TextField
              key={state.question.id}
              name="answer"
              value={value}
              onChange={setValue}
              className="max-w-xs"
              inputMode="numeric"
              // Named by its unit and its question, so the field alone says what is asked.
              aria-labelledby={`survey-${surveyKey}-question`}
            >
              <Label>{state.question.unit.charAt(0).toUpperCase() + state.question.unit.slice(1)}</Label>
              <Input type="number" min={state.question.min} max={state.question.max} step={1} />
              <Description>
                {state.question.help === null ? '' : `${state.question.help} `}A whole number from {state.question.min} to{' '}
                {state.question.max}.
              </Description>
            </TextField>
          )}
          <p role="alert" className="text-sm text-danger">
            {error ?? ''}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" isDisabled={busy}>
              Save and continue
            </Button>
            <Button
              variant="secondary"
              onPress={() => {
                setActive(false);
                setStopped(true);
              }}
            >
              Stop for now
            </Button>
          </div>
          <p className="text-sm text-muted">Each answer is saved when you continue; you can stop and come back later.</p>
        </Form>
      ) : null}
      {(active && state?.question != null) || error === null ? null : (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
    </section>
  );
}
