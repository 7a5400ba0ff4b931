import type { Metadata } from 'next';
import { deleteChatExportAction, getChatExportAction, saveChatExportAction } from '@/app/_actions/chat-export-actions';
import { getDatabase } from '@/db/client';
import { analysisFiltersSchema, defaultAnalysisChannel, getWhatsappAnalysisPage } from '@/features/whatsapp-analysis';
import { ChatExportPanel } from '@/features/whatsapp-analysis/components/chat-export-panel';
import { StoreAnalysisView } from '@/features/whatsapp-analysis/components/store-analysis-view';
import { parsePeriodQuery } from '@/lib/period-query';
import { getSignedInUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: 'WhatsApp Message Data Analysis' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function WhatsappAnalysisPage({ searchParams }: Props) {
  const query = await searchParams;
  const period = parsePeriodQuery(query);
  const parsed = analysisFiltersSchema.safeParse({ channel: query.channel, persona: query.persona, product: query.product });
  const filters = parsed.success
    ? { channel: parsed.data.channel, persona: parsed.data.persona, productId: parsed.data.product }
    : { channel: defaultAnalysisChannel, persona: null, productId: null };
  const filterProblem = parsed.success
    ? null
    : `The filters in the address are not valid (${parsed.error.issues.map((issue) => issue.message).join('; ')}). Showing every WhatsApp message.`;
  const actor = await getSignedInUser();
  const data = await getWhatsappAnalysisPage({ database: getDatabase(), actor, choice: period.choice, filters, now: new Date() });
  return (
    <article className="flex flex-col gap-8">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">WhatsApp Message Data Analysis</h1>
        <p className="max-w-3xl text-muted">
          How patients answer the messages they receive — reply rates, how soon, when in the week, what they say, and which templates work —
          and, below, the same analysis of any WhatsApp conversation you export from your phone.
        </p>
      </div>
      <section aria-labelledby="store-heading" className="flex flex-col gap-4">
        <h2 id="store-heading" className="text-2xl font-semibold">
          Messages in the message store
        </h2>
        <StoreAnalysisView page={data.store} periodProblem={period.problem} filterProblem={filterProblem} />
      </section>
      <section aria-labelledby="upload-heading" className="flex flex-col gap-4">
        <h2 id="upload-heading" className="text-2xl font-semibold">
          Analyse a WhatsApp chat export
        </h2>
        <p className="max-w-3xl text-muted">
          On your phone, open a chat, choose More → Export chat → Without media, and pick the .txt file here. Anyone signed in may analyse
          and save their own exports; a saved conversation is visible to you alone.
        </p>
        <ChatExportPanel saved={data.saved} save={saveChatExportAction} open={getChatExportAction} remove={deleteChatExportAction} />
      </section>
    </article>
  );
}
