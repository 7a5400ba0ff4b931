'use client';

import { Button } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { type Channel, channelLabels } from '@/lib/domain/channels';
import type { ActionResult } from '@/lib/server/action-result';
import type { ReplyToReadDto } from '../schemas';

type Props = {
  replies: ReplyToReadDto[];
  markRead: (input: { messageId: string }) => Promise<ActionResult<{ messageId: string; reviewedAt: string }>>;
};

const reasonText: Readonly<Record<ReplyToReadDto['reason'], string>> = {
  unrecognised: 'not recognised as an answer',
  media: 'a picture, voice note or other attachment',
  'no-message-answered': 'a dose answer to no message of the last 24 hours, so no dose was recorded',
  'survey-unreadable': 'a reply to a survey message we could not read, even after asking once more; the survey waits',
};
const timeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/**
 * The patient profile's "Replies to read": what the patient wrote that the engine could not turn into data,
 * for a clinician to read and mark as read. Newest first; times in UTC.
 */
export function RepliesToRead({ replies, markRead }: Props) {
  const router = useRouter();
  const [pending, setPending] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ error?: string; text?: string }>({});

  const mark = async (messageId: string) => {
    setPending(messageId);
    setNotice({});
    const result = await markRead({ messageId }).catch(() => null);
    setPending(null);
    if (result === null) setNotice({ error: 'We could not reach the server. Nothing was changed.' });
    else if (!result.ok) setNotice({ error: result.error.message });
    else {
      setNotice({ text: 'Marked as read.' });
      router.refresh();
    }
  };

  return (
    <section aria-labelledby="replies-to-read-heading" className="flex flex-col gap-3 rounded-xl border border-separator bg-surface p-4">
      <h2 id="replies-to-read-heading" className="text-xl font-semibold">
        Replies to read
      </h2>
      <p className="max-w-3xl text-muted">
        Replies from this patient, at any time, that the system could not turn into a dose confirmation or a consent change, and that no one
        has marked as read yet ({replies.length === 1 ? '1 reply' : `${replies.length} replies`}, newest first, at most 50; times in UTC).
      </p>
      <p role="status" className={notice.error ? 'text-danger' : 'text-muted'}>
        {notice.error ?? notice.text ?? ''}
      </p>
      {replies.length === 0 ? (
        <p>There are no replies to read.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {replies.map((reply) => (
            <li key={reply.id} className="flex flex-col gap-2 rounded-lg border border-separator p-3" data-testid="reply-to-read">
              <p className="text-sm text-muted">
                {channelLabels[reply.channel as Channel] ?? reply.channel} · {timeFormat.format(new Date(reply.receivedAt))} ·{' '}
                {reasonText[reply.reason]}
              </p>
              <p className="whitespace-pre-wrap">{reply.text}</p>
              <div>
                <Button size="sm" variant="secondary" isDisabled={pending !== null} onPress={() => void mark(reply.id)}>
                  Mark as read
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
