import { type ChatExportAnalysis, replyTimeBins } from '@/engine/chat-export';
import { formatCount, formatDateTime } from '@/lib/format';
import { Distribution, formatMinutes } from './distribution';
import { HourWeekdayHeatMap } from './heat-map';

/** The analysis of one WhatsApp export (just uploaded or saved): the same heat map and distribution as the store's. */
export function ChatExportAnalysisView({ analysis, title }: { analysis: ChatExportAnalysis; title: string }) {
  const span =
    analysis.firstAt === null || analysis.lastAt === null
      ? 'no dated messages'
      : `${formatDateTime(analysis.firstAt)} – ${formatDateTime(analysis.lastAt)}`;
  return (
    <section
      aria-labelledby="chat-analysis-heading"
      className="flex flex-col gap-4 rounded-2xl border border-separator p-4"
      data-testid="chat-analysis"
    >
      <h3 id="chat-analysis-heading" className="text-lg font-semibold">
        {title}
      </h3>
      <p data-testid="chat-totals">
        {formatCount(analysis.messages)} messages ({formatCount(analysis.text)} text, {formatCount(analysis.media)} media) from{' '}
        {formatCount(analysis.participants.length)} participants, and {formatCount(analysis.system)} system messages counted apart; {span}{' '}
        (times in {analysis.timeZone}).
      </p>
      <table className="w-full max-w-3xl text-left text-sm" data-testid="chat-participants">
        <caption className="mb-1 text-left text-muted">
          Messages and reply times per participant (a reply: a message after another participant’s).
        </caption>
        <thead>
          <tr className="border-b border-separator">
            <th scope="col" className="py-1 pr-3">
              Participant
            </th>
            <th scope="col" className="py-1 pr-3 text-right">
              Messages
            </th>
            <th scope="col" className="py-1 pr-3 text-right">
              Text
            </th>
            <th scope="col" className="py-1 pr-3 text-right">
              Media
            </th>
            <th scope="col" className="py-1 pr-3 text-right">
              Replies
            </th>
            <th scope="col" className="py-1 text-right">
              Median reply time
            </th>
          </tr>
        </thead>
        <tbody>
          {analysis.participants.map((participant) => (
            <tr key={participant.name} className="border-b border-separator">
              <th scope="row" className="py-1 pr-3 font-normal">
                {participant.name}
              </th>
              <td className="py-1 pr-3 text-right tabular-nums">{formatCount(participant.messages)}</td>
              <td className="py-1 pr-3 text-right tabular-nums">{formatCount(participant.text)}</td>
              <td className="py-1 pr-3 text-right tabular-nums">{formatCount(participant.media)}</td>
              <td className="py-1 pr-3 text-right tabular-nums">{formatCount(participant.replies.count)}</td>
              <td className="py-1 text-right tabular-nums">{formatMinutes(participant.replies.medianMinutes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        Reply time over all {formatCount(analysis.replies.count)} replies: median {formatMinutes(analysis.replies.medianMinutes)}, 90th
        percentile {formatMinutes(analysis.replies.p90Minutes)}.
      </p>
      <Distribution
        labels={replyTimeBins.map((bin) => bin.label)}
        counts={analysis.replies.bins}
        caption="Time until another participant answers."
        testId="chat-reply-times"
      />
      <HourWeekdayHeatMap
        cells={analysis.heatMap}
        caption={`Messages by weekday and hour, in ${analysis.timeZone}.`}
        testId="chat-heat-map"
      />
      {analysis.problems.length === 0 ? (
        <p className="text-sm text-muted">Every line was read.</p>
      ) : (
        <div>
          <h4 className="font-medium">Lines that could not be read ({formatCount(analysis.problems.length)})</h4>
          <ul className="list-disc pl-5 text-sm" data-testid="chat-problems">
            {analysis.problems.slice(0, 100).map((problem) => (
              <li key={`${problem.line}-${problem.message}`}>
                Line {problem.line}: {problem.message}
              </li>
            ))}
          </ul>
          {analysis.problems.length > 100 ? <p className="text-sm text-muted">The first 100 are listed.</p> : null}
        </div>
      )}
    </section>
  );
}
