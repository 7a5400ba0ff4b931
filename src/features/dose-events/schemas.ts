import { z } from 'zod';
import { doseStatuses } from '@/lib/domain/dose-statuses';

export const maximumEventsPerBatch = 1000;

/** A dose-event source (a device or app) as an admin registers it. */
export const doseEventSourceSchema = z.object({
  name: z.string().trim().min(1, 'Give the source a name of 1 to 100 characters.').max(100, 'Give the source a name of 1 to 100 characters.'),
});

/** One dose observation from a smart pill bottle or an app. */
export const doseEventSchema = z
  .object({
    idempotencyKey: z.string().trim().min(1, 'idempotencyKey is required').max(200, 'idempotencyKey must be at most 200 characters'),
    patient: z.string().trim().min(1, 'patient is required (the patient pseudonym)').max(100),
    product: z.string().trim().min(1).max(100).optional(),
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

export type DoseEventBatchResult = {
  accepted: number;
  duplicates: number;
  rejected: { index: number; idempotencyKey: string | null; field: string; message: string }[];
};
