import 'server-only';
import { z } from '@/lib/zod';
import type { Database } from '@/db/client';
import { type DispensingCsvPreview, previewDispensingCsv } from '@/engine/ingestion';
import { parseInput } from '@/lib/parse-input';
import type { RequestContext } from '@/lib/server/request-context';
import { dispensingCsvMappingSchema, importTextSchema, maximumImportBytes } from '../schemas';
import { type ImportActor, authoriseImport } from './authorise-import';
import { todayOf } from './import-refused';
import { loadProductCatalogue } from './product-catalogue';

/** Rows the preview shows. */
export const previewRowCount = 10;

const previewInputSchema = z.object({
  text: importTextSchema
    .refine((text) => text.trim() !== '', 'The file is empty.')
    .refine((text) => Buffer.byteLength(text) <= maximumImportBytes, `The file is larger than ${maximumImportBytes / 1024 / 1024} MB.`),
  mapping: dispensingCsvMappingSchema,
});

export type CsvImportPreview = DispensingCsvPreview;

/**
 * What importing this pharmacy CSV would store, before anything is: the first rows as read (dates as ISO),
 * the date format guessed from the file's dates unless the mapping names one, and every problem the import
 * would refuse the file for (up to the cap). Reads the product catalogue when the mapping says medications are
 * catalogue codes; writes nothing.
 */
export async function previewCsvImport(options: {
  database: Database;
  actor: ImportActor;
  input: unknown;
  request?: Partial<RequestContext>;
  /** "Today" for the date checks (tests fix it). */
  now?: Date;
}): Promise<CsvImportPreview> {
  await authoriseImport({ database: options.database, actor: options.actor, action: 'data-import.preview', request: options.request });
  const input = parseInput(previewInputSchema, options.input, { label: 'The upload' });
  const catalogue = input.mapping.medicationCodes === 'catalogue' ? await loadProductCatalogue(options.database) : null;
  return previewDispensingCsv(
    input.text,
    input.mapping,
    {
      today: todayOf(options.now ?? new Date()),
      ...(catalogue === null ? {} : { isCatalogueProduct: (value: string) => catalogue(value) !== null }),
    },
    { rows: previewRowCount },
  );
}
