'use client';

import { Button, Description, Form, Input, Label, Radio, RadioGroup, TextField } from '@heroui/react';
import { FormSelect } from '@/components/form-select';
import { useRouter } from 'next/navigation';
import { FileTrigger } from 'react-aria-components';
import { type FormEvent, useCallback, useState } from 'react';
import { type JobEnd, useJobProgress } from '@/lib/hooks/use-job-progress';
import { formatCount, formatDateTime } from '@/lib/format';
import type { ActionResult } from '@/lib/server/action-result';
import type { DataSourceOverview, ImportJobSummary } from '../server/get-data-source-overview';
import { CsvImportPreview, type CsvUpload, dateFormatLabels, fetchCsvPreview } from './csv-import-preview';
import type { DateFormat, DispensingCsvPreview } from '@/engine/ingestion';
import { TableScroll } from '@/lib/components/table-scroll';

type Props = {
  overview: DataSourceOverview;
  createApiKey: (name: unknown) => Promise<ActionResult<{ id: string; name: string; apiKey: string }>>;
  revokeApiKey: (sourceId: unknown) => Promise<ActionResult<null>>;
};

const sourceNames: Record<string, string> = {
  fhir: 'FHIR (health records)',
  'pharmacy-csv': 'Pharmacy dispensing files',
  'dose-event-api': 'Dose-event API (smart bottles, apps)',
  simulation: 'Simulator (synthetic demo data)',
  whatsapp: 'WhatsApp',
  sms: 'SMS',
};

function reportSummary(result: Record<string, unknown> | null): string {
  if (result === null) return '';
  const sum = (value: unknown) =>
    typeof value === 'object' && value !== null
      ? Object.values(value as Record<string, number>).reduce((total, count) => total + Number(count || 0), 0)
      : 0;
  const skipped = Array.isArray(result.skipped) ? result.skipped.length : 0;
  return `${formatCount(Number(result.resources ?? 0))} records: ${formatCount(sum(result.created))} created, ${formatCount(sum(result.unchanged))} unchanged, ${formatCount(skipped)} skipped`;
}

function ImportProgress({ job }: { job: ImportJobSummary }) {
  const percent = job.progressTotal ? Math.min(100, Math.round((job.progressDone / job.progressTotal) * 100)) : null;
  return (
    <div className="flex flex-col gap-1" data-testid="import-job" data-job-id={job.id}>
      <div className="flex flex-wrap items-baseline gap-2 text-sm">
        <span className="font-medium">{job.kind === 'import-fhir' ? 'FHIR import' : 'CSV import'}</span>
        <span className="text-muted">{formatDateTime(job.createdAt)}</span>
        <span data-testid="import-status">{job.status}</span>
      </div>
      {job.status === 'running' || job.status === 'queued' ? (
        <>
          <progress className="w-full" max={100} value={percent ?? undefined} aria-label="Import progress">
            {percent ?? 0}%
          </progress>
          <p className="text-sm text-muted" aria-live="polite">
            {percent === null ? 'Waiting to start…' : `${percent}% · ${formatCount(job.rate ?? 0)} records per second`}
          </p>
        </>
      ) : null}
      {job.status === 'succeeded' ? <p className="text-sm">{reportSummary(job.result)}</p> : null}
      {job.status === 'failed' ? (
        <p role="alert" className="whitespace-pre-line text-sm text-danger">
          {job.error}
        </p>
      ) : null}
    </div>
  );
}

function ImportForm({ onQueued }: { onQueued: (jobId: string) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The chosen file (HeroUI has no file field: a react-aria FileTrigger opens the picker from a HeroUI button).
  const [file, setFile] = useState<File | null>(null);
  // A CSV is previewed (read, nothing stored) before it is queued.
  const [preview, setPreview] = useState<{ upload: CsvUpload; result: DispensingCsvPreview } | null>(null);
  const showPreview = async (upload: CsvUpload) => {
    setBusy(true);
    const outcome = await fetchCsvPreview(upload);
    setBusy(false);
    if (!outcome.ok) setError(outcome.message);
    else setPreview({ upload, result: outcome.preview });
  };
  const queue = async (file: File, format: string, query: URLSearchParams) => {
    setBusy(true);
    setError(null);
    // The server takes only these media types (a file's own type is often empty or text/plain).
    const contentType = format === 'csv' ? 'text/csv' : /\.ndjson$/i.test(file.name) ? 'application/fhir+ndjson' : 'application/fhir+json';
    const response = await fetch(`/api/imports?${query.toString()}`, {
      method: 'POST',
      body: file,
      headers: { 'Content-Type': contentType },
    }).catch(() => null);
    setBusy(false);
    if (response === null) {
      setError('We could not reach the server. Nothing was imported.');
      return;
    }
    const body = (await response.json().catch(() => null)) as { jobId?: string; error?: { message: string } } | null;
    if (!response.ok || !body?.jobId) setError(body?.error?.message ?? 'The import could not be started.');
    else {
      setPreview(null);
      onQueued(body.jobId);
    }
  };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const format = String(data.get('format') ?? 'fhir');
    if (file === null || file.size === 0) {
      setError(file === null ? 'File: choose a file to import.' : 'File: the chosen file is empty.');
      return;
    }
    setError(null);
    setPreview(null);
    const query = new URLSearchParams({ format, name: file.name });
    if (format === 'csv') {
      for (const key of [
        'dateFormat',
        'medicationCodes',
        'patientIdColumn',
        'dateColumn',
        'daysSupplyColumn',
        'dosesPerDayColumn',
        'medicationClassColumn',
      ]) {
        const value = String(data.get(key) ?? '').trim();
        if (value !== '') query.set(key, value);
      }
      await showPreview({ file, query });
    } else await queue(file, format, query);
  };
  const withDateFormat = (query: URLSearchParams, dateFormat: DateFormat) => {
    const next = new URLSearchParams(query);
    next.set('dateFormat', dateFormat);
    return next;
  };
  return (
    <form className="flex flex-col gap-3" onSubmit={(event) => void submit(event)} aria-label="Import a file">
      <RadioGroup name="format" defaultValue="fhir" orientation="horizontal" variant="secondary">
        <Label>Format</Label>
        <Radio value="fhir">
          <Radio.Control>
            <Radio.Indicator />
          </Radio.Control>
          <Radio.Content>
            <Label>FHIR R4 (Bundle or NDJSON)</Label>
          </Radio.Content>
        </Radio>
        <Radio value="csv">
          <Radio.Control>
            <Radio.Indicator />
          </Radio.Control>
          <Radio.Content>
            <Label>Pharmacy CSV (PATIENT_ID, DATE, PERDAY, CATEGORY, DURATION)</Label>
          </Radio.Content>
        </Radio>
      </RadioGroup>
      <details className="text-sm">
        <summary className="cursor-pointer">CSV columns and date format</summary>
        <div className="mt-2 grid gap-3 sm:grid-cols-3">
          <FormSelect
            name="dateFormat"
            label="Date format"
            defaultValue=""
            options={[['', 'Guess from the file'], ...Object.entries(dateFormatLabels)]}
          />
          <FormSelect
            name="medicationCodes"
            label="Medication column holds"
            defaultValue="names"
            options={[
              ['names', 'Any name, class or code'],
              ['catalogue', 'Product catalogue codes or names'],
            ]}
          />
          {(
            [
              ['patientIdColumn', 'Patient column', 'PATIENT_ID'],
              ['dateColumn', 'Date column', 'DATE'],
              ['daysSupplyColumn', 'Days’ supply column', 'DURATION'],
              ['dosesPerDayColumn', 'Doses a day column', 'PERDAY'],
              ['medicationClassColumn', 'Medication column', 'CATEGORY'],
            ] as const
          ).map(([name, label, standard]) => (
            <TextField key={name} name={name} maxLength={100} variant="secondary">
              <Label>{label}</Label>
              <Input />
              <Description>Empty: {standard}</Description>
            </TextField>
          ))}
        </div>
      </details>
      <div className="flex flex-col gap-1 text-sm">
        <span id="import-file-label" className="font-medium">
          File (at most 50 MB)
        </span>
        <div className="flex flex-wrap items-center gap-3">
          <FileTrigger
            acceptedFileTypes={['.json', '.ndjson', '.csv', '.txt', 'application/json', 'text/csv']}
            onSelect={(files) => {
              setFile(files?.[0] ?? null);
              if (files?.[0]) setError(null);
            }}
          >
            <Button variant="secondary" size="sm" aria-labelledby="import-file-choose import-file-label" id="import-file-choose">
              Choose a file
            </Button>
          </FileTrigger>
          <span data-testid="import-file-name">{file === null ? 'No file chosen' : file.name}</span>
        </div>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      <div>
        <Button type="submit" variant="primary" isDisabled={busy}>
          Import
        </Button>
      </div>
      {preview ? (
        <CsvImportPreview
          preview={preview.result}
          fileName={preview.upload.file.name}
          dateFormatChosen={preview.upload.query.has('dateFormat')}
          busy={busy}
          onDateFormatChange={(dateFormat) =>
            void showPreview({ ...preview.upload, query: withDateFormat(preview.upload.query, dateFormat) })
          }
          onConfirm={() => void queue(preview.upload.file, 'csv', withDateFormat(preview.upload.query, preview.result.dateFormat))}
          onCancel={() => setPreview(null)}
        />
      ) : null}
    </form>
  );
}

function ApiKeys({ overview, createApiKey, revokeApiKey }: Props) {
  const router = useRouter();
  const [created, setCreated] = useState<{ name: string; apiKey: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const result = await createApiKey(new FormData(form).get('name'));
    if (!result.ok) setError(result.error.message);
    else {
      setError(null);
      setCreated(result.data);
      form.reset();
      router.refresh();
    }
  };
  return (
    <section aria-labelledby="api-keys-heading" className="flex flex-col gap-3">
      <h2 id="api-keys-heading" className="text-xl font-semibold">
        Dose-event API keys
      </h2>
      {overview.apiSources.length === 0 ? <p className="text-muted">No device or app sends dose events yet.</p> : null}
      <ul className="flex flex-col gap-2">
        {overview.apiSources.map((source) => (
          <li key={source.id} className="flex flex-wrap items-center gap-3 text-sm">
            <span className="font-medium">{source.name}</span>
            <span>{source.status}</span>
            <span className="text-muted">
              {formatCount(source.doseEvents)} events · last activity{' '}
              {source.lastActivityAt ? formatDateTime(source.lastActivityAt) : 'never'}
            </span>
            {source.status === 'active' ? (
              <Button size="sm" variant="danger-soft" onPress={() => void revokeApiKey(source.id).then(() => router.refresh())}>
                Revoke {source.name}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      <Form className="flex flex-wrap items-end gap-3" onSubmit={(event) => void create(event)} aria-label="Create an API key">
        <TextField name="name" isRequired maxLength={100}>
          <Label>Device or app name</Label>
          <Input />
        </TextField>
        <Button type="submit" variant="secondary">
          Create API key
        </Button>
      </Form>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      {created ? (
        <p role="status" className="rounded-xl bg-surface p-3 text-sm">
          Key for {created.name} (shown once; send it as <code>Authorization: Bearer …</code> to <code>POST /api/dose-events</code>):{' '}
          <code data-testid="new-api-key" className="break-all">
            {created.apiKey}
          </code>
        </p>
      ) : null}
    </section>
  );
}

/** /algorithms/patient-engagement/data-sources: sources with volume and recency, imports with progress, API keys. */
export function DataSourcesPanel(props: Props) {
  const { overview } = props;
  const router = useRouter();
  const [jobId, setJobId] = useState<string | null>(null);
  // A finished import changes the volumes above: reload them. (The import keeps running if the page is left; it shows here again.)
  const refresh = useCallback(
    (end: JobEnd<Record<string, unknown>>) => {
      if (end.kind === 'finished') router.refresh();
    },
    [router],
  );
  const current = useJobProgress(jobId, { onEnd: refresh }).job;

  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="volumes-heading" className="flex flex-col gap-3">
        <h2 id="volumes-heading" className="text-xl font-semibold">
          Connected sources
        </h2>
        <p className="text-sm text-muted">
          Every record on file per source, whatever its date; the period above applies to the line above the table.
        </p>
        {overview.volumes.length === 0 ? (
          <p className="text-muted">No data has arrived yet. Import a file below, or connect a device with an API key.</p>
        ) : (
          <TableScroll label="Records per source">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Records per source</caption>
              <thead>
                <tr className="border-b border-separator">
                  <th scope="col" className="py-2 pr-4">
                    Source
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Patients
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Dispensings
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Dose events
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Messages
                  </th>
                  <th scope="col" className="py-2">
                    Latest dispensing
                  </th>
                </tr>
              </thead>
              <tbody>
                {overview.volumes.map((volume) => (
                  <tr key={volume.source} className="border-b border-separator">
                    <th scope="row" className="py-2 pr-4 font-normal">
                      {sourceNames[volume.source] ?? volume.source}
                    </th>
                    <td className="py-2 pr-4 text-right">{formatCount(volume.patients)}</td>
                    <td className="py-2 pr-4 text-right">{formatCount(volume.dispensings)}</td>
                    <td className="py-2 pr-4 text-right">{formatCount(volume.doseEvents)}</td>
                    <td className="py-2 pr-4 text-right">{formatCount(volume.messages)}</td>
                    <td className="py-2">{volume.lastRecord ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      <section aria-labelledby="imports-heading" className="flex flex-col gap-4">
        <h2 id="imports-heading" className="text-xl font-semibold">
          Imports
        </h2>
        {overview.canImport ? (
          <ImportForm onQueued={setJobId} />
        ) : (
          <p className="text-muted">Clinicians and administrators can import data.</p>
        )}
        {current ? <ImportProgress job={current} /> : null}
        {overview.imports
          .filter((job) => job.id !== current?.id)
          .map((job) => (
            <ImportProgress key={job.id} job={job} />
          ))}
      </section>

      {overview.canManageKeys ? <ApiKeys {...props} /> : null}
    </div>
  );
}
