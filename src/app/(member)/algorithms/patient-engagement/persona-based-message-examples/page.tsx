import type { Metadata } from 'next';
import { updateTemplateAction } from '@/app/_actions/message-template-actions';
import { getDatabase } from '@/db/client';
import { MessageExamplesView } from '@/features/message-templates/components/message-examples-view';
import { getMessageExamplesPage } from '@/features/message-templates';
import { parsePeriodQuery } from '@/lib/period-query';
import { getSignedInUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: 'Persona-Based Message Examples' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? undefined : value);

export default async function PersonaBasedMessageExamplesPage({ searchParams }: Props) {
  const query = await searchParams;
  const period = parsePeriodQuery(query);
  const lang = single(query.lang);
  const language = lang === 'es' ? 'es' : 'en';
  const addressProblem =
    lang === undefined || lang === 'en' || lang === 'es' ? null : 'lang: choose en or es in the address. Showing English.';
  const actor = await getSignedInUser();
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Persona-Based Message Examples</h1>
      <p className="max-w-3xl text-muted">
        The messages patients receive about their medicines, as their phone shows them: every template of the library in English and
        Spanish, by category and framing, with what WhatsApp knows it by, and which templates each persona receives most.
      </p>
      <MessageExamplesView
        page={await getMessageExamplesPage({
          database: getDatabase(),
          actor,
          language,
          choice: period.choice,
          editTemplateId: single(query.edit) ?? null,
          now: new Date(),
        })}
        periodProblem={period.problem}
        addressProblem={addressProblem}
        save={updateTemplateAction}
      />
    </article>
  );
}
