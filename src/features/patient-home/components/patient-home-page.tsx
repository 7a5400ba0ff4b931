'use client';

import { Button, Card } from '@heroui/react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { channelLabels } from '@/lib/domain/channels';
import { formatDate, formatDateTime, formatPercent } from '@/lib/format';
import { routes } from '@/lib/routes';
import type { ActionResult } from '@/lib/server/action-result';
import { type AppDoseAnswer, doseAnswerUndoMinutes, doseSourceWords } from '../dose-answer-rules';
import type { PatientHome, TodayDose } from '../patient-home-dto';

type Props = {
  home: PatientHome;
  answer: (input: {
    productId: string;
    scheduledAt: string;
    answer: AppDoseAnswer;
  }) => Promise<ActionResult<{ doseEventId: string; undoUntil: string }>>;
  undo: (input: { doseEventId: string }) => Promise<ActionResult<{ undone: true }>>;
};

const answerWords: Record<string, string> = { taken: 'Taken', skipped: 'Skipped', missed: 'Missed', unknown: 'Not known' };

function DoseRow({
  dose,
  onAnswer,
  onUndo,
  busy,
}: {
  dose: TodayDose;
  onAnswer: (answer: AppDoseAnswer) => void;
  onUndo: () => void;
  busy: boolean;
}) {
  const name = `${dose.medication}${dose.of > 1 ? `, dose ${dose.index + 1} of ${dose.of}` : ''}, ${dose.localTime}`;
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 border-b border-separator py-3" data-testid="today-dose">
      <div>
        <p className="font-medium">{dose.medication}</p>
        <p className="text-sm text-muted">
          {dose.localTime}
          {dose.of > 1 ? ` · dose ${dose.index + 1} of ${dose.of}` : ''}
        </p>
      </div>
      {dose.answer === null ? (
        <div className="flex gap-2" role="group" aria-label={`Answer for ${name}`}>
          <Button size="sm" variant="primary" isDisabled={busy} onPress={() => onAnswer('taken')} aria-label={`Taken: ${name}`}>
            Taken
          </Button>
          <Button size="sm" variant="secondary" isDisabled={busy} onPress={() => onAnswer('skipped')} aria-label={`Skipped: ${name}`}>
            Skipped
          </Button>
        </div>
      ) : (
        <div className="flex items-center gap-2">
          <span data-testid="dose-answer">
            {answerWords[dose.answer.status] ?? dose.answer.status} {doseSourceWords[dose.answer.source] ?? ''}
          </span>
          {dose.answer.undoUntil !== null ? (
            <Button size="sm" variant="ghost" isDisabled={busy} onPress={onUndo} aria-label={`Undo the answer for ${name}`}>
              Undo
            </Button>
          ) : null}
        </div>
      )}
    </li>
  );
}

/** `/` for a signed-in patient: today's doses to confirm, the next refill, this month, the latest messages. */
export function PatientHomePage({ home, answer, undo }: Props) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  if (home.kind === 'no-record') {
    return (
      <article className="flex flex-col gap-4">
        <h1 className="text-3xl font-semibold tracking-tight">Your medicines today</h1>
        <p>
          Your account is not linked to a patient record yet, so there are no doses to show. Your care team links it when they enrol you;
          until then you can keep your{' '}
          <Link href={routes.profile} className="underline">
            profile
          </Link>{' '}
          up to date.
        </p>
      </article>
    );
  }

  const run = (work: () => Promise<ActionResult<unknown>>, done: string) => {
    setError(null);
    setNotice(null);
    startTransition(async () => {
      const result = await work();
      if (!result.ok) setError(result.error.message);
      else setNotice(done);
      router.refresh();
    });
  };

  const { month } = home;
  const share = month.answered === 0 ? null : month.taken / month.answered;
  return (
    <article className="flex flex-col gap-8">
      <header className="flex flex-col gap-1">
        <h1 className="text-3xl font-semibold tracking-tight">Your medicines today</h1>
        <p className="text-muted">
          {formatDate(home.today.date)} · times in {home.timeZone}
          {home.synthetic ? ' · synthetic demo data' : ''}
        </p>
      </header>

      <section aria-labelledby="doses-heading" className="flex flex-col gap-2">
        <h2 id="doses-heading" className="text-xl font-semibold">
          Today’s doses
        </h2>
        {home.today.doses.length === 0 ? (
          <p>No doses are scheduled for today.</p>
        ) : (
          <ul className="flex flex-col">
            {home.today.doses.map((dose) => (
              <DoseRow
                key={`${dose.productId}-${dose.index}`}
                dose={dose}
                busy={pending}
                onAnswer={(value) =>
                  run(
                    () => answer({ productId: dose.productId, scheduledAt: dose.scheduledAt, answer: value }),
                    `${dose.medication} at ${dose.localTime}: ${value === 'taken' ? 'taken' : 'skipped'}. You can undo this for ${doseAnswerUndoMinutes} minutes.`,
                  )
                }
                onUndo={() =>
                  dose.answer === null
                    ? undefined
                    : run(() => undo({ doseEventId: dose.answer!.doseEventId }), 'The answer was taken back.')
                }
              />
            ))}
          </ul>
        )}
        <div aria-live="polite">
          {error !== null ? (
            <p role="alert" className="text-sm text-danger">
              {error}
            </p>
          ) : null}
          {notice !== null ? <p className="text-sm">{notice}</p> : null}
        </div>
      </section>

      <div className="grid gap-4 md:grid-cols-2">
        <Card>
          <Card.Header>
            <Card.Title>Next refill</Card.Title>
          </Card.Header>
          <Card.Content>
            {home.nextRefill === null ? (
              <p>No pharmacy fills are on record for you.</p>
            ) : (
              <p>
                {home.nextRefill.medication}: due {formatDate(home.nextRefill.dueOn)}
                {home.nextRefill.daysLeft > 0
                  ? ` (in ${home.nextRefill.daysLeft} day${home.nextRefill.daysLeft === 1 ? '' : 's'})`
                  : home.nextRefill.daysLeft === 0
                    ? ' (today)'
                    : ` (${-home.nextRefill.daysLeft} day${home.nextRefill.daysLeft === -1 ? '' : 's'} ago: your last fill’s supply has run out)`}
                . This is when the supply of your last fill runs out.
              </p>
            )}
          </Card.Content>
        </Card>
        <Card>
          <Card.Header>
            <Card.Title>{month.label} so far</Card.Title>
          </Card.Header>
          <Card.Content>
            {share === null ? (
              <p>
                No doses have an answer this month yet ({formatDate(month.from)} to {formatDate(month.through)}).
              </p>
            ) : (
              <p data-testid="month-adherence">
                You took {month.taken} of the {month.answered} doses with an answer from {formatDate(month.from)} to{' '}
                {formatDate(month.through)} ({formatPercent(share)}
                {month.skipped > 0 ? `; ${month.skipped} skipped` : ''}
                {month.missed > 0 ? `; ${month.missed} missed` : ''}).{' '}
                {share >= 0.8
                  ? 'That is at or above 80%, the share usually taken to mean a medicine can work as intended.'
                  : 'That is below 80%, the share usually taken to mean a medicine can work as intended; your care team can help if something gets in the way.'}
              </p>
            )}
          </Card.Content>
        </Card>
      </div>

      <section aria-labelledby="messages-heading" className="flex flex-col gap-2">
        <h2 id="messages-heading" className="text-xl font-semibold">
          Latest messages
        </h2>
        {home.messages.length === 0 ? (
          <p>No messages yet.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {home.messages.map((message) => (
              <li key={message.id} className="rounded-xl bg-surface px-3 py-2">
                <p className="text-xs text-muted">
                  {message.direction === 'outbound' ? 'To you' : 'From you'} ·{' '}
                  {channelLabels[message.channel as keyof typeof channelLabels] ?? message.channel} · {formatDateTime(message.sentAt)}
                </p>
                <p className="whitespace-pre-line">{message.text}</p>
              </li>
            ))}
          </ul>
        )}
        <Link href="/algorithms/patient-engagement/patient-profile" className="self-start underline">
          Your full journey: calendar, refills and adherence
        </Link>
      </section>
    </article>
  );
}
