import { buttonVariants, Chip } from '@heroui/react';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { describePeriod, ReportingPeriodBar } from '@/components/reporting-period-bar';
import { formatDaysLeft, formatDoseTime, templateLanguages, type TemplateLanguage } from '@/engine/messaging';
import { DEFAULT_PERIOD_CHOICE } from '@/engine/aggregation/reporting-period';
import { messageCategories } from '@/engine/policy/message-arms';
import { formatCount, formatDateTime, formatPercent } from '@/lib/format';
import { hrefWithPeriod } from '@/lib/period-query';
import type { ActionResult } from '@/lib/server/action-result';
import { exampleRecord, type StoredTemplate, type TemplateUpdateInput, type TemplateVersionDto } from '../schemas';
import type { LibraryCard, MessageExamplesPage } from '../server/get-message-examples-page';
import { personaLabel } from '@/lib/domain/personas';
import { approvalLabels, categoryLabels, framingLabels, messageCategoryLabels } from './labels';
import { SmsBubble, WhatsAppBubble } from './message-preview';
import { TemplateEditor } from './template-editor';

export const messageExamplesPath = '/algorithms/patient-engagement/persona-based-message-examples';

const languageNames: Readonly<Record<TemplateLanguage, string>> = { en: 'English', es: 'Español' };

type Props = {
  page: MessageExamplesPage;
  periodProblem: string | null;
  addressProblem: string | null;
  save: (input: TemplateUpdateInput) => Promise<ActionResult<StoredTemplate>>;
};

function Notice({ children }: { children: ReactNode }) {
  return <p className="rounded-xl bg-surface px-3 py-2 text-sm">{children}</p>;
}

/**
 * A coloured dot beside the approval status (the word carries the meaning): HeroUI's soft success, warning and
 * danger chips put light text on a light tint, below WCAG's contrast for small text (axe flags them).
 */
function approvalDotClass(status: string): string {
  if (status === 'approved') return 'bg-success';
  if (status === 'pending') return 'bg-warning';
  if (status === 'not-submitted') return 'bg-muted';
  return 'bg-danger';
}

/** The facts WhatsApp knows a template by, as badges. */
function TemplateBadges({ template }: { template: StoredTemplate }) {
  return (
    <div className="flex flex-wrap gap-1.5 text-xs">
      <Chip size="sm" variant="soft">
        <span className="font-mono">{template.whatsApp.name}</span>
      </Chip>
      <Chip size="sm" variant="soft">
        {categoryLabels[template.whatsApp.category]}
      </Chip>
      <Chip size="sm" variant="soft">
        <span aria-hidden="true" className={`mr-1 inline-block size-2 rounded-full ${approvalDotClass(template.whatsApp.approval)}`} />
        {approvalLabels[template.whatsApp.approval]}
      </Chip>
      <Chip size="sm" variant="soft" data-testid="template-version">
        Version {template.version}
      </Chip>
    </div>
  );
}

function TemplateCard({ card, editHref }: { card: LibraryCard; editHref: string | null }) {
  const headingId = `template-${card.templateId.replace(/\./g, '-')}`;
  return (
    <article
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-2xl border border-separator p-4"
      data-template-id={card.templateId}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h4 id={headingId} className="font-mono text-sm font-semibold">
            {card.templateId}
          </h4>
          <p className="text-xs text-muted">{framingLabels[card.framing] ?? card.framing}</p>
        </div>
        {editHref === null ? null : (
          <Link href={editHref} className={buttonVariants({ variant: 'secondary', size: 'sm' })} aria-label={`Edit ${card.templateId}`}>
            Edit
          </Link>
        )}
      </div>
      <TemplateBadges template={card} />
      {card.preview.problem !== null ? (
        <p role="alert" className="text-sm text-danger">
          The engine cannot render this version: {card.preview.problem}
        </p>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          {card.preview.whatsApp ? <WhatsAppBubble preview={card.preview.whatsApp} label={`${card.templateId} on WhatsApp`} /> : null}
          {card.preview.sms ? <SmsBubble preview={card.preview.sms} label={`${card.templateId} by SMS`} /> : null}
        </div>
      )}
    </article>
  );
}

function VersionHistory({ versions }: { versions: TemplateVersionDto[] }) {
  return (
    <table className="w-full text-left text-sm" aria-label="Version history">
      <thead>
        <tr className="border-b border-separator">
          <th scope="col" className="py-1 pr-3">
            Version
          </th>
          <th scope="col" className="py-1 pr-3">
            Saved
          </th>
          <th scope="col" className="py-1 pr-3">
            By
          </th>
          <th scope="col" className="py-1 pr-3">
            Approval · category
          </th>
          <th scope="col" className="py-1 pr-3">
            Body
          </th>
          <th scope="col" className="py-1">
            Note
          </th>
        </tr>
      </thead>
      <tbody>
        {versions.map((version) => (
          <tr key={version.version} className="border-b border-separator align-top">
            <td className="py-1 pr-3">{version.version}</td>
            <td className="py-1 pr-3">{formatDateTime(version.createdAt)}</td>
            <td className="py-1 pr-3">{version.editedBy === null ? 'The library' : (version.editedByEmail ?? 'A deleted account')}</td>
            <td className="py-1 pr-3">
              {approvalLabels[version.whatsApp.approval]} · {categoryLabels[version.whatsApp.category]}
            </td>
            <td className="py-1 pr-3">{version.body}</td>
            <td className="py-1">{version.note ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PersonaSection({ page, cardsById }: { page: MessageExamplesPage; cardsById: Map<string, LibraryCard> }) {
  const top = page.topByPersona;
  if (top.status === 'no-company') {
    return <Notice>Your account belongs to no drug company, so there are no patients whose messages to count.</Notice>;
  }
  const scopeWords =
    top.scope === 'organisation'
      ? 'patients of your organisations'
      : top.scope === 'companies'
        ? 'patients dispensed your companies’ products'
        : 'all patients';
  const groups = new Map(top.personas.map((group) => [group.persona, group]));
  // Every simulator persona, then any other value found in the data (imported records without one).
  const keys = [...page.personas, ...top.personas.map((group) => group.persona).filter((key) => !page.personas.includes(key))];
  return (
    <div className="flex flex-col gap-3">
      <p data-testid="persona-population">
        Population: {scopeWords} who received a template message (WhatsApp, SMS or app, simulated and live) from{' '}
        {describePeriod(top.period)}:{' '}
        {top.patients === null
          ? 'total not shown, so that a small group cannot be worked out from it'
          : `${formatCount(top.patients)} patients, ${formatCount(top.messages ?? 0)} messages`}
        .{top.suppressed ? ` Groups of fewer than ${top.minimumGroupSize} patients are not shown for your role.` : ''} Shares are of the
        persona’s template messages in the period.
      </p>
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {keys.map((key) => {
          const group = groups.get(key);
          return (
            <section key={key} aria-label={personaLabel(key)} className="flex flex-col gap-2 rounded-2xl border border-separator p-4">
              <h3 className="font-semibold">{personaLabel(key)}</h3>
              {group === undefined ? (
                <p className="text-sm text-muted">No template messages in the period.</p>
              ) : group.suppressed ? (
                <p className="text-sm text-muted">Fewer than {top.minimumGroupSize} patients: not shown.</p>
              ) : (
                <>
                  <p className="text-sm text-muted">
                    {formatCount(group.patients ?? 0)} patients, {formatCount(group.messages ?? 0)} template messages
                  </p>
                  <ol className="flex flex-col gap-2">
                    {group.top.map((row) => {
                      const card = cardsById.get(row.templateId);
                      return (
                        <li key={row.templateId} className="flex flex-col gap-1 text-sm">
                          <span>
                            <span className="font-mono font-medium">{row.templateId}</span>: {formatCount(row.messages)} messages (
                            {formatPercent(row.share)}) to {formatCount(row.patients)} patients
                          </span>
                          {card?.preview.whatsApp ? <span className="text-muted">“{card.preview.whatsApp.text}”</span> : null}
                        </li>
                      );
                    })}
                  </ol>
                  {group.hiddenTemplates > 0 ? (
                    <p className="text-xs text-muted">
                      {group.hiddenTemplates} templates received by fewer than {top.minimumGroupSize} patients are not listed.
                    </p>
                  ) : null}
                </>
              )}
            </section>
          );
        })}
      </div>
    </div>
  );
}

/** The page: language switch, what each persona receives most, the editor (admins), the library by category. */
export function MessageExamplesView({ page, periodProblem, addressProblem, save }: Props) {
  const choice = page.topByPersona.status === 'ok' ? page.topByPersona.period.choice : undefined;
  // Links keep the period chosen (and the language): the same address shows the same page.
  const href = (extra: Record<string, string | null>) => hrefWithPeriod(messageExamplesPath, choice ?? DEFAULT_PERIOD_CHOICE, extra);
  const cardsById = new Map(page.cards.map((card) => [card.templateId, card]));
  const language = page.language;
  const example = `${exampleRecord.medicine}, dose at ${formatDoseTime(exampleRecord.doseMinute, language)}, ${formatDaysLeft(exampleRecord.daysOfSupplyLeft, language)} of supply left`;
  return (
    <div className="flex flex-col gap-8">
      {addressProblem === null ? null : (
        <p role="alert" className="rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger-soft-foreground">
          {addressProblem}
        </p>
      )}
      <nav aria-label="Language" className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-medium">Language:</span>
        {templateLanguages.map((code) => (
          <Link
            key={code}
            href={href({ lang: code === 'en' ? null : code })}
            lang={code}
            aria-current={code === language ? 'page' : undefined}
            className={buttonVariants({ variant: code === language ? 'primary' : 'ghost', size: 'sm' })}
          >
            {languageNames[code]}
          </Link>
        ))}
      </nav>
      <p className="max-w-3xl rounded-xl bg-surface px-3 py-2 text-sm" data-testid="example-record">
        Placeholders are filled from an example record, not a patient’s: {example}. Messages never carry a name.
      </p>

      <section aria-labelledby="persona-heading" className="flex flex-col gap-3">
        <h2 id="persona-heading" className="text-xl font-semibold">
          What each persona receives most
        </h2>
        <p className="max-w-3xl text-muted">
          Templates are not written per persona: every patient can receive any of them. The messaging policy chooses a category and a
          framing for each patient and day, so personas differ in which templates they receive. These are the three each persona received
          most, counted from the message store.
        </p>
        {page.topByPersona.status === 'ok' ? (
          <ReportingPeriodBar
            period={page.topByPersona.period}
            path={messageExamplesPath}
            keep={{ lang: language === 'en' ? null : language }}
            problem={periodProblem}
          />
        ) : null}
        <PersonaSection page={page} cardsById={cardsById} />
      </section>

      {page.editProblem !== null ? (
        <p role="alert" className="text-danger">
          {page.editProblem}
        </p>
      ) : null}
      {page.editing === null ? null : (
        <section id="template-editor" aria-labelledby="editor-heading" className="flex flex-col gap-4 rounded-2xl border border-accent p-4">
          <h2 id="editor-heading" className="text-xl font-semibold">
            Edit {page.editing.card.templateId} ({languageNames[language]})
          </h2>
          <p className="text-sm text-muted">
            Saving adds a version; earlier versions are kept, and messages already sent keep the version they were sent with. Only an
            approved template can be sent on WhatsApp outside the 24-hour customer-service window.
          </p>
          <TemplateBadges template={page.editing.card} />
          <TemplateEditor template={page.editing.card} save={save} />
          <h3 className="font-semibold">Version history</h3>
          <VersionHistory versions={page.editing.versions} />
          <Link href={href({ lang: language === 'en' ? null : language })} className="text-sm underline">
            Close the editor
          </Link>
        </section>
      )}

      <section aria-labelledby="library-heading" className="flex flex-col gap-6">
        <h2 id="library-heading" className="text-xl font-semibold">
          The template library by category
        </h2>
        <p className="max-w-3xl text-muted">
          {page.cards.length} templates in {languageNames[language]}: five categories, four framings, three variants each. Each is shown as
          the patient receives it on WhatsApp (with its quick-reply buttons) and by SMS (with its reply keywords). Reminders, refills and
          check-ins are WhatsApp utility templates; education and encouragement are marketing templates.
        </p>
        {page.surveyInvitations.length === 0 ? null : (
          <section aria-labelledby="category-survey" className="flex flex-col gap-3">
            <h3 id="category-survey" className="text-lg font-semibold">
              Survey invitation and its reminder
            </h3>
            <p className="max-w-3xl text-sm text-muted">
              Sent instead of a survey’s questions when the patient has not written on WhatsApp for 24 hours (decision 056): a utility
              template with “Start” and “Not now” buttons. Only once it is recorded as approved by WhatsApp does it go; until then such a
              survey goes by SMS when the patient agreed to it. When it stays unanswered for two days, the one automatic reminder goes as
              the reminder template, with the same buttons (decision 065); until that one is approved, the invitation is sent again instead.
              Shown for an example survey of five questions; surveys are in English.
            </p>
            <div className="grid gap-4 lg:grid-cols-2">
              {page.surveyInvitations.map((card) => (
                <TemplateCard
                  key={card.templateId}
                  card={card}
                  editHref={page.canEdit ? `${href({ edit: card.templateId })}#template-editor` : null}
                />
              ))}
            </div>
          </section>
        )}
        {messageCategories.map((category) => {
          const cards = page.cards.filter((card) => card.category === category);
          if (cards.length === 0) return null;
          return (
            <section key={category} aria-labelledby={`category-${category}`} className="flex flex-col gap-3">
              <h3 id={`category-${category}`} className="text-lg font-semibold">
                {messageCategoryLabels[category] ?? category}
              </h3>
              <div className="grid gap-4 lg:grid-cols-2">
                {cards.map((card) => (
                  <TemplateCard
                    key={card.templateId}
                    card={card}
                    editHref={
                      page.canEdit ? `${href({ lang: language === 'en' ? null : language, edit: card.templateId })}#template-editor` : null
                    }
                  />
                ))}
              </div>
            </section>
          );
        })}
      </section>
    </div>
  );
}
