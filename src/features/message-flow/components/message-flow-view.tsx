import type { ReactNode } from 'react';
import type { ShownCount } from '@/engine/aggregation/small-cell-suppression';
import { formatCount, formatDate, formatDateTime, formatDecimal, formatPercent } from '@/lib/format';
import { type FlowStep, flowStepLabels, type MessageFlowResult, type TracedDecision } from '../schemas';
import { MessageFlowDiagram } from './message-flow-diagram';
import { TableScroll } from '@/lib/components/table-scroll';
import { ShownCountText, SuppressionNote } from '@/lib/components/suppressed-cell';

const TABLE_CLASS = 'w-full min-w-max text-left text-sm [&_td]:pr-4 [&_td]:py-1 [&_th]:pr-4 [&_th]:py-1';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-3 rounded-xl border border-separator bg-surface p-4" aria-labelledby={id}>
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

const countText = (value: ShownCount) => (value.suppressed || value.count === null ? value.display : formatCount(value.count));

function Count({ value }: { value: ShownCount }) {
  return (
    <span data-testid="flow-count">
      <ShownCountText value={value} format={formatCount} />
    </span>
  );
}

const scopeText = {
  organisation: 'the patients of your organisations',
  companies: 'the patients given your companies’ products',
  all: 'all patients',
};

function DefinitionList({ label, rows }: { label: string; rows: { name: string; value: ReactNode }[] }) {
  return (
    <dl aria-label={label} className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
      {rows.map((row) => (
        <div key={row.name} className="contents">
          <dt className="text-muted">{row.name}</dt>
          <dd className="break-words">{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Trace({ decision }: { decision: TracedDecision }) {
  const message = decision.message;
  const reply = decision.reply;
  return (
    <div className="flex flex-col gap-4" data-testid="traced-decision">
      <p>
        Patient <span className="font-semibold">{decision.pseudonym}</span>
        {decision.synthetic ? (
          <span className="ml-2 rounded-full border border-separator px-2 py-0.5 text-sm" data-testid="synthetic-label">
            synthetic demo data
          </span>
        ) : null}
        , local day {formatDate(decision.localDate)}, decided {formatDateTime(decision.decidedAt)} by policy version{' '}
        {decision.policyVersion}.
      </p>
      <h3 className="text-lg font-semibold">1. Context the policy saw</h3>
      <DefinitionList label="Context" rows={decision.context.map((entry) => ({ name: entry.name, value: entry.value }))} />
      <h3 className="text-lg font-semibold">2. Probabilities of every action</h3>
      {decision.probabilities === null ? (
        <p>This decision did not log every action’s probability; only the chosen action’s propensity is known.</p>
      ) : (
        <TableScroll label="Probability of every action">
          <table className={TABLE_CLASS}>
            <caption className="text-left font-medium">Probability of every action at decision time (0 is no message)</caption>
            <thead>
              <tr>
                <th scope="col">Action</th>
                <th scope="col">Message type</th>
                <th scope="col">Probability</th>
                <th scope="col">Chosen</th>
              </tr>
            </thead>
            <tbody>
              {decision.probabilities.map((entry) => (
                <tr key={entry.action} className={`border-t border-separator ${entry.chosen ? 'font-semibold' : ''}`}>
                  <td>{entry.action}</td>
                  <th scope="row" className={entry.chosen ? 'font-semibold' : 'font-normal'}>
                    {entry.label}
                  </th>
                  <td>{formatPercent(entry.probability, 1)}</td>
                  <td>{entry.chosen ? 'chosen' : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <h3 className="text-lg font-semibold">3. Choice, message, reply, reward and update</h3>
      <DefinitionList
        label="What followed"
        rows={[
          { name: 'Choice', value: `${decision.choice.label} (propensity ${formatDecimal(decision.choice.propensity, 3)})` },
          {
            name: 'Decision status',
            value: decision.statusReason === null ? decision.status : `${decision.status} (${decision.statusReason})`,
          },
          {
            name: 'Message sent',
            value:
              message === null
                ? 'None'
                : `${message.channel}, ${formatDateTime(message.sentAt)}, ${message.status}; template ${message.templateId ?? 'not recorded'}${
                    message.templateLanguage === null ? '' : ` (${message.templateLanguage}`
                  }${message.templateVersion === null ? '' : `, version ${message.templateVersion}`}${message.templateLanguage === null ? '' : ')'}`,
          },
          ...(message?.body ? [{ name: 'Message text', value: message.body }] : []),
          {
            name: 'Reply',
            value:
              reply === null
                ? message === null
                  ? 'No message, so no reply'
                  : 'No reply'
                : `${formatDateTime(reply.receivedAt)}${reply.reading === null ? '' : `, read as ${reply.reading}`}${reply.text === null ? '' : `: “${reply.text}”`}`,
          },
          {
            name: 'Reward',
            value:
              decision.reward !== null
                ? `${formatPercent(decision.reward)} of the day’s scheduled doses confirmed`
                : decision.rewardedAt !== null
                  ? 'No dose was scheduled that day: nothing to learn from'
                  : 'Not yet: the day is not over or not yet rewarded',
          },
          {
            name: 'Learned from in',
            value: decision.learnedIn === null ? 'No posterior update has learned from it yet' : `policy version ${decision.learnedIn}`,
          },
        ]}
      />
    </div>
  );
}

export function MessageFlowView({ flow }: { flow: MessageFlowResult }) {
  if (flow.status === 'no-company') {
    return (
      <p role="status" className="max-w-3xl rounded-xl border border-separator bg-surface p-4">
        Your account belongs to no drug company yet, so there are no patients to show. An administrator can add you to your company.
      </p>
    );
  }
  const period = `the ${flow.periodDays} days to ${formatDateTime(flow.periodEnd)}`;
  const latest = flow.latestVersion;
  const notes: Partial<Record<FlowStep, string>> = {
    'patient-data': `${countText(flow.enrolled)} enrolled`,
    posterior: latest === null ? 'no stored version yet' : `version ${latest.version}`,
    update: `${formatCount(flow.versionsInPeriod)} new version${flow.versionsInPeriod === 1 ? '' : 's'}`,
  };
  return (
    <div className="flex flex-col gap-6">
      <section aria-label="Period and population" className="flex max-w-3xl flex-col gap-2">
        <p data-testid="flow-population">
          Period: {period} (decisions made from {formatDateTime(flow.periodStart)}). Population: {scopeText[flow.scope]} in the personalised
          programme — <Count value={flow.enrolled} /> enrolled now, <Count value={flow.patientsDecided} /> with a live decision in the
          period.
        </p>
        {flow.suppressed ? <SuppressionNote className="text-muted" /> : null}
        <p className="text-muted">
          Posterior in use:{' '}
          {latest === null
            ? 'none stored yet — the policy decides from its prior until the first nightly update.'
            : `version ${latest.version}, stored ${formatDateTime(latest.createdAt)}, learned from ${formatCount(latest.decisionsUsed)} rewarded decisions${
                latest.trainedThrough === null ? ' (the prior)' : ` made up to ${formatDateTime(latest.trainedThrough)}`
              }.`}
        </p>
      </section>

      <Section id="flow-diagram" title="The pipeline, with live counts">
        <MessageFlowDiagram edges={flow.edges} notes={notes} period={period} />
        <TableScroll label="Counts on each edge">
          <table className={TABLE_CLASS} data-testid="flow-table">
            <caption className="text-left font-medium">The same counts as a table: {period}</caption>
            <thead>
              <tr>
                <th scope="col">From</th>
                <th scope="col">To</th>
                <th scope="col">What passed</th>
                <th scope="col">Count</th>
              </tr>
            </thead>
            <tbody>
              {flow.edges.map((edge) => (
                <tr key={edge.id} className="border-t border-separator" data-testid={`flow-edge-${edge.id}`}>
                  <th scope="row" className="font-normal">
                    {flowStepLabels[edge.from]}
                  </th>
                  <td>{flowStepLabels[edge.to]}</td>
                  <td>{edge.what}</td>
                  <td>
                    <Count value={edge.count} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </Section>

      <Section id="flow-trace" title="One decision traced end to end">
        {flow.trace.status === 'traced' ? (
          <Trace decision={flow.trace.decision} />
        ) : flow.trace.status === 'none-yet' ? (
          <p role="status" data-testid="no-live-decision">
            No live decision of the personalised policy exists yet among {scopeText[flow.scope]}: there is nothing to trace, and the counts
            of patients and decisions above are zero. Decisions appear once a patient is enrolled in the personalised programme and the
            daily loop has planned their day.
          </p>
        ) : (
          <p role="status" data-testid="trace-not-shown">
            Live decisions exist, but only of real patients: one patient’s day is individual data that only their care team may see, and no
            synthetic demo patient has a live personalised decision to show instead.
          </p>
        )}
      </Section>
    </div>
  );
}
