import type { Metadata } from 'next';
import { getDatabase } from '@/db/client';
import { getMessageFlow } from '@/features/message-flow';
import { MessageFlowView } from '@/features/message-flow/components/message-flow-view';
import { getSignedInUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: 'Personalised Message Flow' };

export default async function PersonalisedMessageFlowPage() {
  const actor = await getSignedInUser();
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Personalised Message Flow</h1>
      <p className="max-w-3xl text-muted">
        How the learning policy decides each patient’s messages, step by step: the patient’s data become the context of a decision; the
        posterior (what the policy has learned so far) turns the context into a probability for every action; one is drawn; the message goes
        out; the patient may reply; the day’s confirmed doses become the reward; and the nightly update learns from the rewards. The counts
        come from the live decision log, and the latest decision is traced from start to end.
      </p>
      <MessageFlowView flow={await getMessageFlow({ database: getDatabase(), actor, now: new Date() })} />
    </article>
  );
}
