import { z } from '@/lib/zod';
import { doseStatuses } from '@/lib/domain/dose-statuses';

export const maximumEventsPerBatch = 1000;

/** A dose-event source (a device or app) as an admin registers it. */
export const doseEventSourceSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the source a name of 1 to 100 characters.')
    .max(100, 'Give the source a name of 1 to 100 characters.'),
});

/** Largest dose-event request body: 1,000 events fit in a fraction of it. */
export const maximumDoseEventBodyBytes = 1024 * 1024;

// PostgreSQL text cannot hold NUL, and no id needs a control character: refuse them by field, never store them.
const noControlCharacters = /^[^\u0000-\u001f\u007f]*$/;
// Patient pseudonyms (P-…) and product ids (rxnorm-…, demo ids) are letters, digits, dots, colons, hyphens, underscores.
const idPattern = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

function idField(field: string, what: string, maximum: number) {
  return z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(1, `${field} is required (${what})`)
    .max(maximum, `${field} must be at most ${maximum} characters`)
    .regex(idPattern, `${field} must be ${what}: letters, digits, '.', ':', '-' or '_'`);
}

/** One dose observation from a smart pill bottle or an app. */
export const doseEventSchema = z
  .object({
    idempotencyKey: z
      .string({ error: 'idempotencyKey must be a string' })
      .trim()
      .min(1, 'idempotencyKey is required')
      .max(200, 'idempotencyKey must be at most 200 characters')
      .regex(noControlCharacters, 'idempotencyKey must not contain control characters (such as NUL)'),
    patient: idField('patient', 'the patient pseudonym', 100),
    product: idField('product', 'a product id', 100).optional(),
    scheduledAt: z.iso.datetime({ offset: true, error: 'scheduledAt must be an ISO 8601 time with a zone, e.g. 2026-11-22T08:00:00Z' }),
    confirmedAt: z.iso.datetime({ offset: true, error: 'confirmedAt must be an ISO 8601 time with a zone' }).optional(),
    status: z.enum(doseStatuses, { error: 'status must be one of taken, missed, skipped, unknown' }),
  })
  .refine((event) => event.status !== 'taken' || event.confirmedAt !== undefined, {
    path: ['confirmedAt'],
    message: 'confirmedAt is required when status is taken',
  });

export const doseEventBatchSchema = z.object({
  events: z
    .array(z.unknown(), { error: 'events must be a list' })
    .min(1, 'events must hold at least one event')
    .max(maximumEventsPerBatch, `events may hold at most ${maximumEventsPerBatch} events per request`),
});

export type RejectedDoseEvent = { index: number; idempotencyKey: string | null; field: string; message: string };

/** A stored batch: every event was new (accepted) or sent before (duplicate). A batch with a bad event stores nothing. */
export type DoseEventBatchResult = { accepted: number; duplicates: number };
