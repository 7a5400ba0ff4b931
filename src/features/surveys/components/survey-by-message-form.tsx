'use client';

import { Button, Form } from '@heroui/react';
import { ChoiceSelect } from '@/components/choice-select';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import type { ActionResult } from '@/lib/server/action-result';
import type { OfferSurveyByMessageResult, SurveyMessageStatus } from '../schemas';
import { type SurveyKey, surveyKeys } from '../survey-keys';
import { surveyTitles } from './labels';
import { describeSentSurvey, mayChangeByItself } from './sent-survey-sentence';

const timeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

type Props = {
  patientId: string;
  send: (input: { patientId: string; surveyKey: SurveyKey }) => Promise<ActionResult<OfferSurveyByMessageResult>>;
  /** Reads the list again (after a send, and while a survey waits on the patient). */
  list: (input: { patientId: string }) => Promise<ActionResult<SurveyMessageStatus[]>>;
  /** The patient's surveys sent by message, newest first (as they were when the page was drawn). */
  sentSurveys?: readonly SurveyMessageStatus[];
};

/** How often the list is read again while a survey may still change without the clinician doing anything. */
const sentSurveysPollMs = 10_000;
/** How long the list waits for a just-queued send to appear (the send job runs within a minute). */
const expectedSendWaitMs = 5 * 60_000;

/**
 * The patient profile's "Survey by message" (decision 051): a clinician or admin sends a survey's next questions
 * by WhatsApp or SMS, at most 3 a message; the patient's replies continue it, and a reply that cannot be read after
 * one clarification appears under "Replies to read".
 */
export function SurveyByMessageForm({ patientId, send, list, sentSurveys: initialSurveys = [] }: Props) {
  const [surveyKey, setSurveyKey] = useState<SurveyKey>('adherence-barriers');
  const [notice, setNotice] = useState<{ error?: string; text?: string }>({});
  const [busy, setBusy] = useState(false);
  const [sentSurveys, setSentSurveys] = useState<readonly SurveyMessageStatus[]>(initialSurveys);
  // Set when a refresh failed: the list then says it may be out of date, and since when.
  const [staleSince, setStaleSince] = useState<string | null>(null);
  // A send queued just now: its message appears on the list only once the send job has claimed it (within a
  // minute), so the list is read again until it does, for at most `expectedSendWaitMs`.
  const [expected, setExpected] = useState<{ responseId: string; sendsAt: number; until: number } | null>(null);
  const refresh = useCallback(async () => {
    const result = await list({ patientId }).catch(() => null);
    if (result?.ok) {
      setSentSurveys(result.data);
      setStaleSince(null);
      setExpected((current) =>
        current === null ||
        Date.now() > current.until ||
        result.data.some((survey) => survey.responseId === current.responseId && Date.parse(survey.last.at) >= current.sendsAt)
          ? null
          : current,
      );
    } else setStaleSince((since) => since ?? new Date().toISOString());
  }, [list, patientId]);
  const waiting = sentSurveys.some(mayChangeByItself) || expected !== null;
  useEffect(() => {
    // Only while something can change by itself (the patient's reply, the send job, the one reminder), and only
    // while the tab is shown: one small query per poll, read by the use case with the same permission check.
    if (!waiting) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void refresh();
    }, sentSurveysPollMs);
    return () => clearInterval(timer);
  }, [waiting, refresh]);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setNotice({});
    const result = await send({ patientId, surveyKey }).catch(() => null);
    setBusy(false);
    if (result === null) setNotice({ error: 'We could not reach the server. Nothing was sent.' });
    else if (!result.ok) setNotice({ error: result.error.message });
    else {
      const sendsAt = Date.parse(result.data.sendsAt);
      // Sent within the minute: follow it on the list. Held for quiet hours: the notice says when; no poll for hours.
      if (result.data.status === 'queued' && sendsAt - Date.now() <= 5 * 60_000)
        setExpected({ responseId: result.data.responseId, sendsAt: sendsAt - 1000, until: Date.now() + expectedSendWaitMs });
      void refresh();
      // The patient's "Not now" to the last invitation (decision 056): said first, so asking again is a choice made knowingly.
      const declined =
        result.data.declinedAt === null
          ? ''
          : `The patient answered “Not now” to this survey’s last invitation (${timeFormat.format(new Date(result.data.declinedAt))} UTC). `;
      if (result.data.status === 'awaiting-answer')
        setNotice({ text: `${declined}A message of this survey is already waiting for the patient’s answer; nothing more was sent.` });
      else if (Date.parse(result.data.sendsAt) - Date.now() > 5 * 60_000)
        setNotice({
          text: `${declined}Queued for the end of the patient’s quiet hours (21:00–08:00 their time): ${timeFormat.format(new Date(result.data.sendsAt))} UTC, by WhatsApp or SMS as they agreed.`,
        });
      else
        setNotice({ text: `${declined}Queued: the next questions go to the patient within a minute, by WhatsApp or SMS as they agreed.` });
    }
  };
  return (
    <section aria-labelledby="survey-by-message-heading" className="flex flex-col gap-2">
      <h2 id="survey-by-message-heading" className="text-xl font-semibold">
        Survey by message
      </h2>
      <p className="max-w-3xl text-muted">
        Sends the patient a survey by WhatsApp or SMS, only on channels they agreed to surveys on, at most 3 questions a message. On
        WhatsApp, more than 24 hours after their last WhatsApp message, they first get an invitation with “Start” and “Not now” buttons; the
        questions follow their “Start”. An unfinished survey continues where it stopped, in the browser or by message. A message left
        unanswered for two days is sent once more, automatically, never a second time.
      </p>
      {sentSurveys.length === 0 ? null : (
        <ul aria-label="Surveys sent by message" className="flex max-w-3xl flex-col gap-1">
          {sentSurveys.map((survey) => (
            <li key={survey.responseId} data-testid="survey-sent-by-message">
              <span className="font-medium">{surveyTitles[survey.surveyKey] ?? survey.surveyKey}:</span> {describeSentSurvey(survey)}
            </li>
          ))}
        </ul>
      )}
      {staleSince === null ? null : (
        <p className="text-danger">
          This list could not be refreshed since {timeFormat.format(new Date(staleSince))} UTC; it may be out of date. It tries again every{' '}
          {sentSurveysPollMs / 1000} seconds.
        </p>
      )}
      <Form className="flex flex-wrap items-end gap-3" onSubmit={(event) => void submit(event)} aria-label="Send a survey by message">
        <ChoiceSelect
          label="Survey"
          className="w-80"
          value={surveyKey}
          onChange={(key) => setSurveyKey(surveyKeys.find((candidate) => candidate === key) ?? 'adherence-barriers')}
          options={surveyKeys.map((key) => [key, surveyTitles[key] ?? key] as const)}
        />
        <Button type="submit" variant="secondary" isDisabled={busy}>
          Send survey
        </Button>
        <p role="status" className={notice.error ? 'text-danger' : 'text-muted'}>
          {notice.error ?? notice.text ?? ''}
        </p>
      </Form>
    </section>
  );
}
