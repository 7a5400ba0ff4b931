'use client';

import { Button } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ImportBatchDetails, ImportBatchSummary, UndoImportBatchResult } from '@/features/data-import';
import type { ImportBatchCounts, ImportBatchTable } from '@/lib/domain/import-batches';
import { formatCount, formatDateTime } from '@/lib/format';
import { useJobProgress } from '@/lib/hooks/use-job-progress';
import type { ActionResult } from '@/lib/server/action-result';
import { TableScroll } from '@/lib/components/table-scroll';

type Props = {
  batches: ImportBatchSummary[];
  /** Administrators see every import; clinicians the ones they ran. */
  seesEveryBatch: boolean;
  getBatch: (batchId: unknown) => Promise<ActionResult<ImportBatchDetails>>;
  undoBatch: (batchId: unknown) => Promise<ActionResult<UndoImportBatchResult>>;
};

const tableWords: Record<ImportBatchTable, [string, string]> = {
  patients: ['patient', 'patients'],
  regimens: ['regimen', 'regimens'],
  dispensings: ['dispensing', 'dispensings'],
  doseEvents: ['dose event', 'dose events'],
  products: ['product', 'products'],
  dataSources: ['source', 'sources'],
};
const shownTables: ImportBatchTable[] = ['patients', 'regimens', 'dispensings', 'doseEvents', 'products', 'dataSources'];

/** "2 patients, 30 dispensings", or `empty` when there are none. */
export function describeCounts(counts: ImportBatchCounts | null, empty = 'nothing'): string {
  const parts = shownTables
    .filter((table) => (counts?.[table] ?? 0) > 0)
    .map((table) => {
      const count = counts![table]!;
      return `${formatCount(count)} ${tableWords[table][count === 1 ? 0 : 1]}`;
    });
  return parts.length === 0 ? empty : parts.join(', ');
}

const statusWords: Record<ImportBatchSummary['status'], string> = {
  running: 'Running',
  completed: 'Completed',
  failed: 'Stopped part-way (what it wrote is kept)',
  undoing: 'Being removed',
  undone: 'Removed',
};

function batchName(batch: ImportBatchSummary): string {
  return batch.fileName ?? (batch.format === 'csv' ? 'CSV upload' : 'FHIR upload');
}

function UndoProgress({ jobId, onEnd }: { jobId: string; onEnd: () => void }) {
  const job = useJobProgress(jobId, { onEnd }).job;
  const percent = job?.progressTotal ? Math.min(100, Math.round((job.progressDone / job.progressTotal) * 100)) : null;
  return (
    <span className="flex flex-col gap-1">
      <progress className="w-40" max={100} value={percent ?? undefined} aria-label="Removal progress">
        {percent ?? 0}%
      </progress>
      <span className="text-xs text-muted" aria-live="polite">
        {percent === null ? 'Waiting to start…' : `${percent}% of its rows checked`}
      </span>
    </span>
  );
}

function SampleTable<Row extends Record<string, string | number | null>>(props: {
  caption: string;
  rows: Row[];
  columns: [keyof Row, string][];
}) {
  if (props.rows.length === 0) return null;
  return (
    <table className="text-left text-xs">
      <caption className="text-left font-medium">{props.caption}</caption>
      <thead>
        <tr>
          {props.columns.map(([key, label]) => (
            <th key={String(key)} scope="col" className="pr-3">
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row, index) => (
          <tr key={index}>
            {props.columns.map(([key]) => (
              <td key={String(key)} className="pr-3">
                {row[key] ?? '—'}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ConfirmRemoval(props: { details: ImportBatchDetails; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { details } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const { sample } = details;
  return (
    <section
      aria-labelledby="confirm-removal-heading"
      className="flex flex-col gap-3 rounded-xl border border-danger p-4"
      data-testid="confirm-removal"
    >
      <h3 id="confirm-removal-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold">
        Remove {batchName(details.batch)}?
      </h3>
      {details.removable === null ? (
        <p>
          This deletes the rows this import added — at most {describeCounts(details.batch.createdRows)} — except those another import also
          delivered. It runs in the background.
        </p>
      ) : (
        <p data-testid="removal-summary">
          This deletes {describeCounts(details.removable, 'no rows')}.
          {details.kept
            ? ` It keeps ${formatCount(details.kept)} rows this import delivered that another import also delivered or other data refers to.`
            : ''}
        </p>
      )}
      <p className="text-sm text-muted">A sample of the rows it added (pseudonyms only):</p>
      <div className="flex flex-wrap gap-6">
        <SampleTable
          caption="Patients"
          rows={sample.patients}
          columns={[
            ['pseudonym', 'Pseudonym'],
            ['sex', 'Sex'],
            ['ageBand', 'Age band'],
          ]}
        />
        <SampleTable
          caption="Dispensings"
          rows={sample.dispensings}
          columns={[
            ['pseudonym', 'Patient'],
            ['medication', 'Medication'],
            ['dispensedOn', 'Dispensed'],
            ['daysSupply', 'Days'],
          ]}
        />
        <SampleTable
          caption="Regimens"
          rows={sample.regimens}
          columns={[
            ['pseudonym', 'Patient'],
            ['medication', 'Medication'],
            ['startDate', 'From'],
            ['endDate', 'To'],
          ]}
        />
        <SampleTable
          caption="Dose events"
          rows={sample.doseEvents}
          columns={[
            ['pseudonym', 'Patient'],
            ['medication', 'Medication'],
            ['scheduledAt', 'Scheduled'],
            ['status', 'Status'],
          ]}
        />
        <SampleTable
          caption="Products"
          rows={sample.products}
          columns={[
            ['id', 'Id'],
            ['name', 'Name'],
          ]}
        />
      </div>
      <div className="flex gap-3">
        <Button variant="danger" isDisabled={props.busy} onPress={props.onConfirm}>
          Remove import
        </Button>
        <Button variant="secondary" isDisabled={props.busy} onPress={props.onCancel}>
          Cancel
        </Button>
      </div>
    </section>
  );
}

/**
 * The imports as batches (the latest 20 the viewer may see): who ran each, when, from which file, what it added;
 * removing one asks for confirmation with what will be deleted, then deletes it (or follows the background job).
 */
export function ImportBatches({ batches, seesEveryBatch, getBatch, undoBatch }: Props) {
  const router = useRouter();
  const [confirming, setConfirming] = useState<ImportBatchDetails | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'error' | 'status'; text: string } | null>(null);
  const refresh = useCallback(() => router.refresh(), [router]);

  const ask = async (batch: ImportBatchSummary) => {
    setMessage(null);
    setBusy(true);
    const result = await getBatch(batch.id);
    setBusy(false);
    if (!result.ok) setMessage({ kind: 'error', text: result.error.message });
    else setConfirming(result.data);
  };
  const confirm = async () => {
    if (confirming === null) return;
    setBusy(true);
    const result = await undoBatch(confirming.batch.id);
    setBusy(false);
    if (!result.ok) {
      setMessage({ kind: 'error', text: result.error.message });
      return;
    }
    setMessage({
      kind: 'status',
      text:
        result.data.status === 'undone'
          ? `Removed ${batchName(confirming.batch)}: deleted ${describeCounts(result.data.removedRows, 'no rows')}.`
          : `Removing ${batchName(confirming.batch)} in the background.`,
    });
    setConfirming(null);
    router.refresh();
  };

  return (
    <section aria-labelledby="import-batches-heading" className="flex flex-col gap-3">
      <h2 id="import-batches-heading" className="text-xl font-semibold">
        Import history
      </h2>
      <p className="max-w-3xl text-sm text-muted">
        {seesEveryBatch ? 'The latest 20 imports by anyone' : 'The latest 20 imports you ran'}, each with the rows it added to the database
        when it ran. Removing an import deletes the rows it added, except those another import also delivered; it stays listed as removed.
        Demo data loaded by the seed command is not an import and is not listed.
      </p>
      {message ? (
        <p role={message.kind === 'error' ? 'alert' : 'status'} className={message.kind === 'error' ? 'text-sm text-danger' : 'text-sm'}>
          {message.text}
        </p>
      ) : null}
      {confirming ? (
        <ConfirmRemoval details={confirming} busy={busy} onConfirm={() => void confirm()} onCancel={() => setConfirming(null)} />
      ) : null}
      {batches.length === 0 ? (
        <p className="text-muted">No imports yet.</p>
      ) : (
        <TableScroll label="Imports">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Imports, newest first</caption>
            <thead>
              <tr className="border-b border-separator">
                <th scope="col" className="py-2 pr-4">
                  Started
                </th>
                <th scope="col" className="py-2 pr-4">
                  File
                </th>
                <th scope="col" className="py-2 pr-4">
                  Ran by
                </th>
                <th scope="col" className="py-2 pr-4">
                  Status
                </th>
                <th scope="col" className="py-2 pr-4">
                  Rows added
                </th>
                <th scope="col" className="py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {batches.map((batch) => (
                <tr key={batch.id} className="border-b border-separator align-top" data-testid="import-batch">
                  <td className="py-2 pr-4">{formatDateTime(batch.startedAt)}</td>
                  <th scope="row" className="py-2 pr-4 font-normal">
                    <span className="font-medium">{batchName(batch)}</span>
                    <span className="block text-xs text-muted">
                      {batch.format === 'csv' ? 'Pharmacy CSV' : 'FHIR'} · source {batch.source}
                      {batch.resources === null
                        ? ''
                        : ` · ${formatCount(batch.resources)} ${batch.format === 'csv' ? 'rows' : 'resources'}`}
                      {batch.skipped ? `, ${formatCount(batch.skipped)} skipped` : ''}
                    </span>
                  </th>
                  <td className="py-2 pr-4">{batch.ranBy ?? 'Command line'}</td>
                  <td className="py-2 pr-4" data-testid="import-batch-status">
                    {statusWords[batch.status]}
                    {batch.undoneAt ? <span className="block text-xs text-muted">{formatDateTime(batch.undoneAt)}</span> : null}
                  </td>
                  <td className="py-2 pr-4" data-testid="import-batch-counts">
                    {batch.status === 'undone' ? (
                      <>
                        <s>{describeCounts(batch.createdRows)}</s>
                        <span className="block text-xs">removed: {describeCounts(batch.removedRows, 'no rows')}</span>
                      </>
                    ) : (
                      describeCounts(batch.createdRows, batch.status === 'running' ? 'counted when it finishes' : 'nothing new')
                    )}
                  </td>
                  <td className="py-2">
                    {batch.status === 'undoing' && batch.undoJobId ? (
                      <UndoProgress jobId={batch.undoJobId} onEnd={refresh} />
                    ) : batch.status === 'completed' || batch.status === 'failed' ? (
                      <Button
                        size="sm"
                        variant="danger-soft"
                        isDisabled={busy}
                        aria-label={`Remove ${batchName(batch)}, imported ${formatDateTime(batch.startedAt)}`}
                        onPress={() => void ask(batch)}
                      >
                        Remove
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
