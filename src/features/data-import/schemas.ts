import { z } from '@/lib/zod';
import { dateFormats, medicationCodesOptions } from '@/engine/ingestion';

/** Largest upload accepted over HTTP (FHIR, and CSV from the data-sources page). */
export const maximumImportBytes = 50 * 1024 * 1024;

/** What to do with a file past the limit (the 413 message). */
export const importTooLargeHint =
  'Split it (NDJSON and CSV split at any line) or use the command line: npm run --silent cli -- import fhir|csv FILE.';

export const importFormats = ['fhir', 'csv'] as const;
export type ImportFormat = (typeof importFormats)[number];

/** Background-job kinds of queued uploads, by format. */
export const importJobKinds = { fhir: 'import-fhir', csv: 'import-csv' } as const satisfies Record<ImportFormat, string>;

/**
 * Media types an upload must be sent as. None is one a cross-site form can send (text/plain, form encodings),
 * so a browser asks first (CORS preflight), which another site's page never gets past.
 */
export const importContentTypes = {
  fhir: ['application/fhir+json', 'application/json', 'application/fhir+ndjson', 'application/ndjson', 'application/x-ndjson'],
  csv: ['text/csv', 'application/csv', 'text/tab-separated-values'],
} as const satisfies Record<ImportFormat, readonly string[]>;

/** A data source name: rows are keyed by (source, record id), so two sources never collide. */
export const sourceNameSchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'Source must be 1–63 lower-case letters, digits or hyphens, starting with a letter or digit.');

const columnName = z.string().trim().min(1, 'A column name cannot be empty.').max(200);

export const dispensingCsvMappingSchema = z
  .object({
    columns: z
      .object({
        patientId: columnName.optional(),
        date: columnName.optional(),
        daysSupply: columnName.optional(),
        dosesPerDay: columnName.optional(),
        medicationClass: columnName.optional(),
      })
      .strict()
      .optional(),
    dateFormat: z.enum(dateFormats, { message: 'Date format must be iso, mdy or dmy.' }).optional(),
    medicationCodes: z.enum(medicationCodesOptions, { message: 'Medication column must hold names or catalogue codes.' }).optional(),
  })
  .strict();

export const csvMappingColumns = ['patientId', 'date', 'daysSupply', 'dosesPerDay', 'medicationClass'] as const;

/**
 * A CSV mapping from an upload's query string (?dateFormat=, ?medicationCodes=, ?<column>Column=): the file is
 * the body, so its settings travel in the URL. Unvalidated: the use case parses it with dispensingCsvMappingSchema.
 */
export function csvMappingOfSearchParams(parameters: URLSearchParams): Record<string, unknown> {
  const dateFormat = parameters.get('dateFormat');
  const medicationCodes = parameters.get('medicationCodes');
  const columns = Object.fromEntries(
    csvMappingColumns.flatMap((column) => {
      const value = parameters.get(`${column}Column`);
      return value ? [[column, value]] : [];
    }),
  );
  return {
    ...(dateFormat ? { dateFormat } : {}),
    ...(medicationCodes ? { medicationCodes } : {}),
    ...(Object.keys(columns).length > 0 ? { columns } : {}),
  };
}

export type DispensingCsvMappingInput = z.input<typeof dispensingCsvMappingSchema>;

/** The file's text. Its size is limited where it arrives (the HTTP route); the command line reads any size. */
export const importTextSchema = z.string({ message: 'The file must be text.' });
