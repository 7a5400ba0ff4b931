import { retentionDays } from '@/lib/domain/retention';
import { buttonVariants } from '@heroui/react';
import { Suspense } from 'react';
import { MessageFilterForm } from '@/components/message-filter-form';
import { describePeriod, ReportingPeriodBar } from '@/components/reporting-period-bar';
import { consentPurposeLabels, consentPurposes } from '@/lib/domain/consent';
import { formatCount, formatDateTime, formatPercent } from '@/lib/format';
import { periodQueryOf } from '@/lib/period-query';
import { patientEngagementPrefix } from '@/lib/routes';
import { type CollectedTable, collectedFields, collectedTableLabels } from '../collected-fields';
import { filterQueryParams, type DataQualityReport, type SuppressibleCount } from '../schemas';
import type { MessageDataQuality } from '../server/find-message-data-quality';
import type { MessageDataCollectionPage } from '../server/get-message-data-collection-page';
import { LiveMessageFeed } from './live-message-feed';
import { TableScroll } from '@/lib/components/table-scroll';
import { SuppressionNote, suppressedText } from '@/lib/components/suppressed-cell';
import { SMALL_CELL_THRESHOLD } from '@/engine/aggregation/small-cell-suppression';

export const messageDataCollectionPath = `${patientEngagementPrefix}message-data-collection`;

const scopeWords = {
  all: 'all patients',
  organisation: 'the patients of your organisations',
  companies: 'the patients dispensed your companies’ products',
} as const;

function queryString(params: Record<string, string | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  return search.toString();
}

function FieldTables() {
  const tables: CollectedTable[] = ['messages', 'webhook_events', 'policy_decisions'];
  return (
    <section aria-labelledby="collected-heading" className="flex flex-col gap-3">
      <h2 id="collected-heading" className="text-xl font-semibold">
        What is collected with each message, and why
      </h2>
      <p className="max-w-3xl text-sm text-muted">
        Every field the product stores for a message, read from its database schema. Messages are sent for one consent purpose on one
        channel — {consentPurposes.map((purpose) => consentPurposeLabels[purpose]).join(', ')} — and only while the patient consents to it:
        reminders, refills and check-ins are “Reminders”, education and encouragement “Education” (surveys and research have no messages
        yet). What the providers report about delivering a message is kept to perform the service the patient consented to. Messages and
        decisions are part of the patient’s record and are kept until it is deleted; the webhook event log is removed by a nightly prune
        after {retentionDays.webhookEvents} days. Fields marked “sensitive” (message text, phone digits) never appear in logs, the live feed
        or the export.
      </p>
      {tables.map((table) => (
        <TableScroll key={table} label={collectedTableLabels[table]}>
          <table className="w-full text-left text-sm" data-testid={`collected-${table}`}>
            <caption className="pb-1 text-left font-medium">{collectedTableLabels[table]}</caption>
            <thead>
              <tr className="border-b border-separator">
                <th scope="col" className="py-1 pr-3">
                  Field
                </th>
                <th scope="col" className="py-1 pr-3">
                  Kept for
                </th>
                <th scope="col" className="py-1 pr-3">
                  Purpose
                </th>
                <th scope="col" className="py-1 pr-3">
                  Legal basis
                </th>
                <th scope="col" className="py-1 pr-3">
                  Retention
                </th>
              </tr>
            </thead>
            <tbody>
              {collectedFields
                .filter((field) => field.table === table)
                .map((field) => (
                  <tr key={field.column} className="border-b border-separator align-top">
                    <th scope="row" className="py-1 pr-3 font-mono text-xs font-normal">
                      {field.column}
                      {field.sensitive ? <span className="font-sans text-danger"> (sensitive)</span> : null}
                    </th>
                    <td className="py-1 pr-3">{field.appliesTo}</td>
                    <td className="py-1 pr-3">{field.purpose}</td>
                    <td className="py-1 pr-3">{field.legalBasis}</td>
                    <td className="py-1 pr-3">{field.retention}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </TableScroll>
      ))}
    </section>
  );
}

function countText(count: SuppressibleCount, minimum: number): string {
  if ('suppressed' in count) return minimum === SMALL_CELL_THRESHOLD ? suppressedText() : `<${minimum}`;
  return `${formatCount(count.messages)} (${formatCount(count.patients)} patients)`;
}

function shareText(part: SuppressibleCount, whole: SuppressibleCount): string {
  if ('suppressed' in part || 'suppressed' in whole || whole.messages === 0) return '';
  return ` — ${formatPercent(part.messages / whole.messages, 1)}`;
}

function seconds(value: number): string {
  if (value < 120) return `${value.toFixed(1)} s`;
  if (value < 7_200) return `${(value / 60).toFixed(1)} min`;
  return `${(value / 3_600).toFixed(1)} h`;
}

function DataQuality({ report, minimum, scopeWords: scope }: { report: DataQualityReport; minimum: number; scopeWords: string }) {
  const rows: { check: string; value: string; rule: string; testId: string }[] = [
    {
      check: 'Sent messages without a final status 24 h after sending',
      value: `${countText(report.withoutFinalStatus, minimum)} of ${countText(report.outboundChecked, minimum)}${shareText(report.withoutFinalStatus, report.outboundChecked)}`,
      rule: 'Sent in the period and at least 24 hours ago, with no delivered, read or failed status from the provider.',
      testId: 'quality-final-status',
    },
    {
      check: 'Replies not matched to a message',
      value: `${countText(report.unmatchedReplies, minimum)} of ${countText(report.inbound, minimum)}${shareText(report.unmatchedReplies, report.inbound)}`,
      rule: 'A reply that quotes a message (WhatsApp context) must find a sent message with that provider id on its channel; any other reply must have a message sent to the same patient on the same channel in the 24 hours before it.',
      testId: 'quality-unmatched',
    },
  ];
  if (report.unmatchedWebhookEvents !== null)
    rows.push({
      check: 'Provider events kept without effect',
      value: `${formatCount(report.unmatchedWebhookEvents.unknownMessage)} statuses of unknown messages, ${formatCount(report.unmatchedWebhookEvents.unknownSender)} messages from unknown numbers`,
      rule: 'Webhook events of the period for a message we do not hold (often a status arriving before the send path stored the id) or from a number of no patient.',
      testId: 'quality-webhooks',
    });
  const latency = report.latency;
  rows.push({
    check: 'Delivery latency (sent → delivered)',
    value:
      latency === null
        ? 'No delivered message'
        : 'suppressed' in latency
          ? `${countText(latency, minimum)} patients`
          : `p50 ${seconds(latency.p50)}, p90 ${seconds(latency.p90)}, p99 ${seconds(latency.p99)} over ${formatCount(latency.messages)} messages (${formatCount(latency.patients)} patients)`,
    rule: 'From the send time to the first “delivered” status the provider reported (percentile_cont: interpolated percentiles).',
    testId: 'quality-latency',
  });
  return (
    <table className="w-full text-left text-sm" data-testid="data-quality">
      <caption className="pb-1 text-left text-sm text-muted">Messages of {scope} in the period and filters above</caption>
      <thead>
        <tr className="border-b border-separator">
          <th scope="col" className="py-1 pr-3">
            Check
          </th>
          <th scope="col" className="py-1 pr-3">
            Result
          </th>
          <th scope="col" className="py-1 pr-3">
            Rule
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.testId} className="border-b border-separator align-top" data-testid={row.testId}>
            <th scope="row" className="py-1 pr-3 font-medium">
              {row.check}
            </th>
            <td className="py-1 pr-3">{row.value}</td>
            <td className="py-1 pr-3 text-muted">{row.rule}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The checks, awaited inside the page's Suspense boundary so the rest of the page does not wait for them. */
async function DataQualitySection({
  quality,
  page,
  scope,
}: {
  quality: Promise<MessageDataQuality>;
  page: Extract<MessageDataCollectionPage, { status: 'ok' }>;
  scope: string;
}) {
  const result = await quality;
  return (
    <>
      <p className="text-sm" data-testid="quality-population">
        Period: {describePeriod(page.period)}. Population: {scope}
        {result.patients === null ? '' : ` — ${formatCount(result.patients)} patients with a message in the period and filters`}.{' '}
        <span className="text-muted">Computed {formatDateTime(result.computedAt)} (reused for up to 5 minutes).</span>
      </p>
      {result.patients === null ? (
        <p role="status">
          Fewer than {page.minimumGroupSize} patients have a message in this selection, so no figures are shown (small groups could identify
          patients).
        </p>
      ) : result.dataQuality === null ? (
        <p role="status">No messages in this selection.</p>
      ) : (
        <>
          {page.suppressed ? <SuppressionNote /> : null}
          <TableScroll label="Data quality">
            <DataQuality report={result.dataQuality} minimum={page.minimumGroupSize} scopeWords={scope} />
          </TableScroll>
        </>
      )}
    </>
  );
}

export function MessageDataCollectionView({
  page,
  quality,
  periodProblem,
  filterProblem,
}: {
  page: MessageDataCollectionPage;
  /** The data-quality checks, still being computed (null for a viewer with no messages to check). */
  quality: Promise<MessageDataQuality> | null;
  periodProblem: string | null;
  filterProblem: string | null;
}) {
  if (page.status === 'no-company')
    return (
      <>
        <FieldTables />
        <p role="status">You belong to no drug company yet, so there are no messages to show; an admin can add you to one.</p>
      </>
    );
  const filterParams = filterQueryParams(page.filters);
  const periodParams = periodQueryOf(page.period.choice);
  const feedQuery = queryString(filterParams);
  const exportQuery = queryString({ ...periodParams, ...filterParams });
  const scope = scopeWords[page.scope];
  const pending = quality ?? Promise.resolve({ patients: 0, dataQuality: null, computedAt: new Date().toISOString() });
  return (
    <>
      <FieldTables />

      <section aria-labelledby="selection-heading" className="flex flex-col gap-3">
        <h2 id="selection-heading" className="text-xl font-semibold">
          Period and filters
        </h2>
        <ReportingPeriodBar period={page.period} path={messageDataCollectionPath} keep={filterParams} problem={periodProblem} />
        {filterProblem === null ? null : (
          <p role="alert" className="text-danger">
            {filterProblem}
          </p>
        )}
        <MessageFilterForm
          path={messageDataCollectionPath}
          label="Filter the messages"
          periodParams={periodParams}
          filters={page.filters}
          options={page.filterOptions}
          allChannels
        />
      </section>

      <section aria-labelledby="feed-heading" className="flex flex-col gap-2">
        <h2 id="feed-heading" className="text-xl font-semibold">
          Live feed of the latest messages and replies
        </h2>
        <p className="max-w-3xl text-sm text-muted">
          The latest messages of {scope} (channel, persona and product filters applied; the feed is about now, not the period), as they are
          stored: time, channel, direction, category or template, status and what a reply meant. Never the text or a phone number
          {page.seesPseudonyms ? '; patients by pseudonym.' : '; no patient is named.'} A status that changes after a row is shown is not
          updated in the feed.
        </p>
        <LiveMessageFeed query={feedQuery} showPseudonyms={page.seesPseudonyms} />
      </section>

      <section aria-labelledby="quality-heading" className="flex flex-col gap-2">
        <h2 id="quality-heading" className="text-xl font-semibold">
          Data quality
        </h2>
        <Suspense
          fallback={
            <p role="status" className="text-sm text-muted">
              Checking a period of messages…
            </p>
          }
        >
          <DataQualitySection quality={pending} page={page} scope={scope} />
        </Suspense>
      </section>

      <section aria-labelledby="export-heading" className="flex flex-col gap-2">
        <h2 id="export-heading" className="text-xl font-semibold">
          Export the message log
        </h2>
        {page.canExport ? (
          <>
            <p className="max-w-3xl text-sm text-muted">
              One row per message of {scope} in the period and filters above, by pseudonym: ids, channel, direction, category, framing,
              template, send time, status, delivery, read and failure times and codes, and what a reply meant. No message text and no phone
              number. Every download is recorded in the audit log.
            </p>
            <p>
              <a
                href={`/api/messages/export${exportQuery === '' ? '' : `?${exportQuery}`}`}
                download
                className={buttonVariants({ variant: 'primary' })}
                data-testid="export-message-log"
              >
                Download the message log (CSV)
              </a>
            </p>
          </>
        ) : (
          <p className="text-sm text-muted">Only clinicians and admins may download the message log of their patients.</p>
        )}
      </section>
    </>
  );
}
