import { consentChannelLabels, consentPurposeLabels, consentSourceLabels } from '@/lib/domain/consent';
import { displayLocale, formatCount } from '@/lib/format';
import type { PatientConsentsDto } from '../schemas';
import { TableScroll } from '@/lib/components/table-scroll';

// UTC, said on the page: the same text on the server and in any browser.
const whenFormat = new Intl.DateTimeFormat(displayLocale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** Every change to the patient's consents, newest first: when, what, where it came from. */
export function ConsentHistory({ consents }: { consents: PatientConsentsDto }) {
  if (consents.history.length === 0) return <p>No consent has been recorded for you yet, so we send you no messages.</p>;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-muted">
        {consents.historyTotal > consents.history.length
          ? `The latest ${formatCount(consents.history.length)} of ${formatCount(consents.historyTotal)} changes to your consents, newest first.`
          : `All ${formatCount(consents.historyTotal)} changes to your consents, newest first.`}{' '}
        Times are UTC.
      </p>
      <TableScroll label="History of your consents">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">History of your consents</caption>
          <thead>
            <tr className="border-b border-separator">
              <th scope="col" className="py-2 pr-4">
                When (UTC)
              </th>
              <th scope="col" className="py-2 pr-4">
                Change
              </th>
              <th scope="col" className="py-2">
                Made through
              </th>
            </tr>
          </thead>
          <tbody>
            {consents.history.map((event) => (
              <tr key={event.id} className="border-b border-separator">
                <td className="py-2 pr-4 whitespace-nowrap">
                  <time dateTime={event.effectiveAt}>{whenFormat.format(new Date(event.effectiveAt))}</time>
                </td>
                <td className="py-2 pr-4">
                  {event.granted ? 'Opted in to' : 'Opted out of'} {consentPurposeLabels[event.purpose].toLowerCase()} by{' '}
                  {consentChannelLabels[event.channel]}
                </td>
                <td className="py-2">{consentSourceLabels[event.source]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}
