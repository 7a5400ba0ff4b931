'use client';

/**
 * The risk worklist: patients by pseudonym, highest risk first, the reasons in words, and a "Contacted" button
 * per patient that records the contact (audited) and shows when it was made.
 */
import { Button } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { formatDate, formatDateTime, formatPercent } from '@/lib/format';
import type { ActionResult } from '@/lib/server/action-result';
import type { RiskWorklistDto } from '../schemas';
import { TableScroll } from '@/lib/components/table-scroll';

export function RiskWorklistView({
  worklist,
  recordContact,
}: {
  worklist: RiskWorklistDto;
  recordContact: (input: unknown) => Promise<ActionResult<{ patientId: string; contactedAt: string }>>;
}) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  if (worklist.modelVersion === null) return <p>No version of the risk model has been trained yet, so there is no one to list.</p>;
  if (worklist.rows.length === 0) {
    return <p>No patient of yours has a risk score from version {worklist.modelVersion} of the model yet (scores are computed nightly).</p>;
  }
  return (
    <div className="flex flex-col gap-3">
      <p className="max-w-3xl text-muted" data-testid="worklist-scope">
        Risk of confirming fewer than 80% of doses over the 7 days from{' '}
        {worklist.scoredOn === null ? 'the scoring day' : formatDate(worklist.scoredOn)}, by model version {worklist.modelVersion}; your
        organisations’ patients with doses due in the 30 days before, highest risk first (at most 200).
      </p>
      <p aria-live="polite" className="text-sm">
        {message}
      </p>
      <TableScroll label="Patients ranked by risk">
        <table className="min-w-full text-sm" data-testid="risk-worklist">
          <caption className="sr-only">Patients ranked by risk</caption>
          <thead>
            <tr className="border-b border-separator text-left">
              <th scope="col" className="py-2 pr-4">
                Patient
              </th>
              <th scope="col" className="py-2 pr-4">
                Risk
              </th>
              <th scope="col" className="py-2 pr-4">
                Why
              </th>
              <th scope="col" className="py-2 pr-4">
                Contact
              </th>
            </tr>
          </thead>
          <tbody>
            {worklist.rows.map((row) => (
              <tr key={row.patientId} className="border-b border-separator">
                <th scope="row" className="py-2 pr-4 text-left font-medium">
                  {row.pseudonym}
                  {row.synthetic ? ' (synthetic)' : ''}
                </th>
                <td className="py-2 pr-4">{formatPercent(row.risk)}</td>
                <td className="py-2 pr-4">{row.reasons.length === 0 ? 'no factor above the average' : row.reasons.join('; ')}</td>
                <td className="py-2 pr-4">
                  <div className="flex items-center gap-2">
                    <Button
                      size="sm"
                      variant="secondary"
                      isDisabled={busy !== null}
                      aria-label={`Record that ${row.pseudonym} was contacted`}
                      onPress={async () => {
                        setBusy(row.patientId);
                        const result = await recordContact({ patientId: row.patientId });
                        setBusy(null);
                        setMessage(result.ok ? `Recorded: ${row.pseudonym} contacted.` : result.error.message);
                        if (result.ok) router.refresh();
                      }}
                    >
                      Contacted
                    </Button>
                    {row.lastContactedAt !== null && <span className="text-muted">last {formatDateTime(row.lastContactedAt)}</span>}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}
