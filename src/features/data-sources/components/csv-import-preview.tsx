'use client';

import { Button, Label, ListBox, Select } from '@heroui/react';
import { useEffect, useRef } from 'react';
import type { DateFormat, DispensingCsvPreview, ImportProblem } from '@/engine/ingestion';
import { formatCount, formatDate } from '@/lib/format';
import { TableScroll } from '@/lib/components/table-scroll';

/** The date formats as the upload form names them (the engine's ids are iso, mdy, dmy). */
export const dateFormatLabels: Record<DateFormat, string> = { iso: 'YYYY-MM-DD', mdy: 'MM/DD/YYYY', dmy: 'DD/MM/YYYY' };

/** What the upload form sends with a CSV (its query string): the mapping, as /api/imports and its preview read it. */
export type CsvUpload = { file: File; query: URLSearchParams };

export type CsvPreviewOutcome = { ok: true; preview: DispensingCsvPreview } | { ok: false; message: string };

/** Asks the server to read the CSV as an import would, storing nothing. */
export async function fetchCsvPreview(upload: CsvUpload): Promise<CsvPreviewOutcome> {
  const query = new URLSearchParams(upload.query);
  query.delete('format');
  query.delete('name');
  const response = await fetch(`/api/imports/preview?${query.toString()}`, {
    method: 'POST',
    body: upload.file,
    headers: { 'Content-Type': 'text/csv' },
  }).catch(() => null);
  if (response === null) return { ok: false, message: 'We could not reach the server. Nothing was imported.' };
  const body = (await response.json().catch(() => null)) as (DispensingCsvPreview & { error?: { message: string } }) | null;
  if (!response.ok || body === null || !Array.isArray(body.rows)) {
    return { ok: false, message: body?.error?.message ?? 'The file could not be read.' };
  }
  return { ok: true, preview: body };
}

function problemText(problem: ImportProblem): string {
  return `${problem.line === null ? (problem.resource ?? 'File') : `Line ${problem.line}`}: ${problem.message}`;
}

/**
 * A CSV upload before anything is stored: the first rows as they would be stored (dates written out, so 03/04
 * cannot be misread), the date format guessed from the file, and every problem. Importing is possible once the
 * file has no problem and, when its dates fit both MM/DD and DD/MM, the user has said which.
 */
export function CsvImportPreview(props: {
  preview: DispensingCsvPreview;
  fileName: string;
  /** True when the user picked the date format (in the form or here) rather than leaving it to the guess. */
  dateFormatChosen: boolean;
  busy: boolean;
  onDateFormatChange: (format: DateFormat) => void;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { preview } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  // Keyboard and screen-reader users land on the preview when it appears.
  useEffect(() => heading.current?.focus(), []);
  const guess = preview.dateFormatGuess;
  const ambiguous = guess.format === null && guess.candidates.length > 1 && preview.columns !== null;
  const needsChoice = ambiguous && !props.dateFormatChosen;
  const blocked = preview.totalProblems > 0 || needsChoice || preview.rowCount === 0;
  const guessText =
    guess.format !== null
      ? `Dates read as ${dateFormatLabels[preview.dateFormat]}${props.dateFormatChosen ? '' : ', guessed from the file'}.`
      : ambiguous
        ? `The dates fit both ${guess.candidates.map((format) => dateFormatLabels[format]).join(' and ')} (no day above 12): choose the date format.`
        : `Dates read as ${dateFormatLabels[preview.dateFormat]}.`;

  return (
    <section
      aria-labelledby="csv-preview-heading"
      className="flex flex-col gap-3 rounded-xl border border-separator p-4"
      data-testid="csv-preview"
    >
      <h3 id="csv-preview-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none">
        Preview of {props.fileName}: nothing is stored yet
      </h3>
      <p className="text-sm">
        {formatCount(preview.rowCount)} rows in the file; the first {formatCount(preview.rows.length)} as they would be stored.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <Select
          className="w-48"
          variant="secondary"
          placeholder="Choose…"
          value={props.dateFormatChosen || guess.format !== null ? preview.dateFormat : null}
          onChange={(key) => {
            if (key !== null) props.onDateFormatChange(key as DateFormat);
          }}
        >
          <Label>Date format of the file</Label>
          <Select.Trigger>
            <Select.Value />
            <Select.Indicator />
          </Select.Trigger>
          <Select.Popover>
            <ListBox>
              {(Object.keys(dateFormatLabels) as DateFormat[]).map((format) => (
                <ListBox.Item key={format} id={format} textValue={dateFormatLabels[format]}>
                  {dateFormatLabels[format]}
                  <ListBox.ItemIndicator />
                </ListBox.Item>
              ))}
            </ListBox>
          </Select.Popover>
        </Select>
        <p className={needsChoice ? 'text-sm text-warning' : 'text-sm'} data-testid="date-format-guess">
          {guessText}
        </p>
      </div>
      {preview.rows.length > 0 ? (
        <TableScroll label="First rows of the file">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">First rows of {props.fileName} as read</caption>
            <thead>
              <tr className="border-b border-separator">
                <th scope="col" className="py-1 pr-3">
                  Line
                </th>
                <th scope="col" className="py-1 pr-3">
                  Patient
                </th>
                <th scope="col" className="py-1 pr-3">
                  Medication
                </th>
                <th scope="col" className="py-1 pr-3">
                  Dispensed on
                </th>
                <th scope="col" className="py-1 pr-3 text-right">
                  Days’ supply
                </th>
                <th scope="col" className="py-1 pr-3 text-right">
                  Doses a day
                </th>
                <th scope="col" className="py-1">
                  Status
                </th>
              </tr>
            </thead>
            <tbody>
              {preview.rows.map((row) => (
                <tr key={row.line} className="border-b border-separator">
                  <th scope="row" className="py-1 pr-3 font-normal">
                    {row.line}
                  </th>
                  <td className="py-1 pr-3">{row.patientId || '—'}</td>
                  <td className="py-1 pr-3">{row.medication ?? '—'}</td>
                  <td className="py-1 pr-3">
                    {row.dispensedOn === null ? (
                      <span>“{row.dateText}”</span>
                    ) : (
                      <time dateTime={row.dispensedOn}>{formatDate(row.dispensedOn, { short: true })}</time>
                    )}
                  </td>
                  <td className="py-1 pr-3 text-right">{row.daysSupply}</td>
                  <td className="py-1 pr-3 text-right">{row.dosesPerDay ?? '—'}</td>
                  <td className={row.valid ? 'py-1' : 'py-1 text-danger'}>{row.valid ? 'OK' : 'Problem'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      {preview.totalProblems > 0 ? (
        <div role="alert" className="flex flex-col gap-1 text-sm text-danger" data-testid="csv-preview-problems">
          <p className="font-medium">
            {preview.totalProblems === 1 ? '1 problem' : `${formatCount(preview.totalProblems)} problems`}: nothing will be imported until
            the file or the settings are corrected.
            {preview.columns === null && preview.header.length > 0 ? ` The file’s columns are ${preview.header.join(', ')}.` : ''}
          </p>
          <ul className="list-inside list-disc">
            {preview.problems.map((problem, index) => (
              <li key={index}>{problemText(problem)}</li>
            ))}
          </ul>
          {preview.totalProblems > preview.problems.length ? (
            <p>and {formatCount(preview.totalProblems - preview.problems.length)} more</p>
          ) : null}
        </div>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <Button variant="primary" isDisabled={blocked || props.busy} onPress={props.onConfirm}>
          Confirm import
        </Button>
        <Button variant="secondary" isDisabled={props.busy} onPress={props.onCancel}>
          Cancel
        </Button>
      </div>
    </section>
  );
}
