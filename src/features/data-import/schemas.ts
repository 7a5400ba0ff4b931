import { z } from 'zod';
import { dateFormats } from '@/engine/ingestion';

/** Largest upload accepted over HTTP (FHIR, and CSV from the data-sources page). */
export const maximumImportBytes = 50 * 1024 * 1024;

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
  })
  .strict();

export type DispensingCsvMappingInput = z.input<typeof dispensingCsvMappingSchema>;

/** The file's text. Its size is limited where it arrives (the HTTP route); the command line reads any size. */
export const importTextSchema = z.string({ message: 'The file must be text.' });
