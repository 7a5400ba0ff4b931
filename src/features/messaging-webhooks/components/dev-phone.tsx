'use client';

import { Button, Form, Input, Label, TextField } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { type FormEvent, useEffect, useState } from 'react';
import type { ActionResult } from '@/lib/server/action-result';
import type { PhoneMessageDto, PhoneReplyInput, PhoneThreadDto, PhoneViewDto } from '../phone-schemas';

type Props = {
  view: PhoneViewDto;
  sendReply: (input: PhoneReplyInput) => Promise<ActionResult<{ status: number }>>;
  sendNow: (input: { patientId: string }) => Promise<ActionResult<{ jobId: string }>>;
};

/** How often the threads are read again, so a message the loop sends appears within seconds. */
const refreshMilliseconds = 2000;

const channelNames = { whatsapp: 'WhatsApp', sms: 'SMS' } as const;

/** WhatsApp's ticks, in words for screen readers. */
function statusMark(status: string): { mark: string; words: string } {
  switch (status) {
    case 'read':
      return { mark: '✓✓', words: 'read' };
    case 'delivered':
      return { mark: '✓✓', words: 'delivered' };
    case 'sent':
    case 'queued':
    case 'accepted':
      return { mark: '✓', words: status };
    case 'failed':
    case 'undelivered':
      return { mark: '⚠', words: status };
    default:
      return { mark: '', words: status };
  }
}

const timeFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

function Bubble({ message }: { message: PhoneMessageDto }) {
  const outbound = message.direction === 'outbound';
  const status = statusMark(message.status);
  return (
    <li className={`flex ${outbound ? 'justify-start' : 'justify-end'}`} data-testid={`phone-message-${message.direction}`}>
      <div
        className={`max-w-[85%] rounded-2xl px-3 py-2 ${outbound ? 'border border-separator bg-surface' : 'bg-accent text-accent-foreground'}`}
      >
        <p className="sr-only">{outbound ? 'From Medaptive:' : 'From the patient:'}</p>
        <p className="whitespace-pre-wrap text-sm">{message.body}</p>
        {/* Faded only on our bubbles: on the accent colour of the patient's, faded text fails the contrast check. */}
        <p className={`mt-1 text-right text-xs ${outbound ? 'opacity-80' : ''}`}>
          {timeFormat.format(new Date(message.sentAt))}
          {outbound ? (
            <>
              {' '}
              <span aria-hidden="true" className={message.status === 'read' ? 'text-accent' : undefined}>
                {status.mark}
              </span>
              <span className="sr-only">{status.words}</span>
            </>
          ) : null}
        </p>
      </div>
    </li>
  );
}

function Thread({ thread, busy, send }: { thread: PhoneThreadDto; busy: boolean; send: (input: PhoneReplyInput) => Promise<boolean> }) {
  const name = channelNames[thread.channel];
  const [draft, setDraft] = useState('');
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (draft.trim() === '') return;
    if (await send({ kind: 'text', patientId: '', channel: thread.channel, text: draft })) setDraft('');
  };
  return (
    <section
      aria-labelledby={`thread-${thread.channel}`}
      className="flex flex-col gap-3 rounded-3xl border border-separator bg-surface-secondary p-4"
    >
      <h2 id={`thread-${thread.channel}`} className="text-xl font-semibold">
        {name}
      </h2>
      {thread.messages.length === 0 ? <p className="text-sm text-muted">No {name} messages yet.</p> : null}
      <ol aria-label={`${name} messages`} className="flex max-h-[28rem] flex-col gap-2 overflow-y-auto">
        {thread.messages.map((message) => (
          <Bubble key={message.id} message={message} />
        ))}
      </ol>
      {thread.channel === 'whatsapp' && thread.buttonsFor !== null && thread.choices !== null ? (
        <div
          role="group"
          aria-label={
            thread.choices.kind === 'list'
              ? 'List choices of the latest message'
              : thread.choices.kind === 'quick-replies'
                ? 'Quick replies to the latest message'
                : 'Reply buttons of the latest message'
          }
          className="flex flex-wrap gap-2"
        >
          {thread.choices.options.map((option) => (
            <Button
              key={option.id}
              variant="secondary"
              size="sm"
              isDisabled={busy}
              onPress={() => void send({ kind: 'choice', patientId: '', messageId: thread.buttonsFor!, choiceId: option.id })}
            >
              {option.label}
            </Button>
          ))}
        </div>
      ) : null}
      {thread.channel === 'whatsapp' && thread.buttonsFor !== null && thread.choices === null ? (
        <div role="group" aria-label="Quick replies to the latest message" className="flex flex-wrap gap-2">
          {thread.replyOptions.map((option) => (
            <Button
              key={option.value}
              variant="secondary"
              size="sm"
              isDisabled={busy}
              onPress={() =>
                void send({
                  kind: 'button',
                  patientId: '',
                  messageId: thread.buttonsFor!,
                  action: option.value as 'taken' | 'not-yet' | 'skip',
                })
              }
            >
              {option.label}
            </Button>
          ))}
        </div>
      ) : null}
      {thread.channel === 'sms' ? (
        <div role="group" aria-label="SMS reply keywords" className="flex flex-wrap gap-2">
          {thread.replyOptions.map((option) => (
            <Button
              key={option.value}
              variant="secondary"
              size="sm"
              isDisabled={busy}
              onPress={() => void send({ kind: 'text', patientId: '', channel: 'sms', text: option.value })}
            >
              {option.label}
            </Button>
          ))}
        </div>
      ) : null}
      <Form className="flex items-end gap-2" onSubmit={(event) => void submit(event)} aria-label={`Reply by ${name}`}>
        <TextField name={`reply-${thread.channel}`} value={draft} onChange={setDraft} maxLength={1600} className="flex-1">
          <Label>{name} reply</Label>
          <Input placeholder="Type a reply" />
        </TextField>
        <Button type="submit" variant="primary" isDisabled={busy || draft.trim() === ''}>
          Send
        </Button>
      </Form>
    </section>
  );
}

/** The loop's latest decision in words: what was chosen and what became of it (the reason when not sent). */
function describeDecision(decision: PhoneViewDto['latestDecision']): string {
  if (decision === null) return 'The daily loop has made no decision for this patient yet.';
  const what = decision.templateId === null ? 'no message' : `message ${decision.templateId}`;
  const outcome =
    decision.status === 'not-sent' ? `not sent (${decision.reason ?? 'no reason recorded'})` : decision.status.replace('-', ' ');
  return `Latest decision of the daily loop, for ${decision.localDate}: ${what}, ${outcome}. Decided by the ${decision.policyName} policy, version ${decision.policyVersion}.`;
}

/**
 * The local channel's phone: both threads side by side, tappable quick replies, a reply box per channel, and
 * "Send today's message now". Reads the threads again every two seconds (a server render).
 */
export function DevPhone({ view, sendReply, sendNow }: Props) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ error?: string; text?: string }>({});

  useEffect(() => {
    const timer = setInterval(() => router.refresh(), refreshMilliseconds);
    return () => clearInterval(timer);
  }, [router]);

  const send = async (input: PhoneReplyInput): Promise<boolean> => {
    setBusy(true);
    setNotice({});
    const result = await sendReply({ ...input, patientId: view.patient.id }).catch(() => null);
    setBusy(false);
    if (result === null) setNotice({ error: 'We could not reach the server. Nothing was sent.' });
    else if (!result.ok) setNotice({ error: result.error.message });
    else {
      setNotice({ text: 'Sent through the webhook.' });
      router.refresh();
      return true;
    }
    return false;
  };

  const requestNow = async () => {
    setBusy(true);
    setNotice({});
    const result = await sendNow({ patientId: view.patient.id }).catch(() => null);
    setBusy(false);
    if (result === null) setNotice({ error: 'We could not reach the server. Nothing was queued.' });
    else if (!result.ok) setNotice({ error: result.error.message });
    else setNotice({ text: 'Today’s message is queued; it appears here within seconds once the loop has sent it.' });
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-lg">
          Phone of <span className="font-semibold">{view.patient.pseudonym}</span>
        </p>
        <Button variant="secondary" isDisabled={busy} onPress={() => void requestNow()}>
          Send today’s message now
        </Button>
      </div>
      <p role="status" className={notice.error ? 'text-danger' : 'text-muted'}>
        {notice.error ?? notice.text ?? ''}
      </p>
      <p data-testid="latest-decision">{describeDecision(view.latestDecision)}</p>
      <div className="grid gap-4 lg:grid-cols-2">
        {view.threads.map((thread) => (
          <Thread key={thread.channel} thread={thread} busy={busy} send={send} />
        ))}
      </div>
    </div>
  );
}
