import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dataSources, doseEvents, patients, products } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { type DoseEventBatchResult, doseEventBatchSchema, doseEventSchema } from '../schemas';
import { hashApiKey } from './api-keys';

/**
 * The dose-event API (smart pill bottles, apps): a batch of events from one source, authenticated by that
 * source's API key. Each event carries an idempotency key, so a retried batch changes nothing; each bad event
 * is reported by index and field while the good ones are stored.
 */
export async function recordDoseEvents(options: { database: Database; apiKey: string | null; body: unknown }): Promise<DoseEventBatchResult> {
  if (options.apiKey === null || options.apiKey === '') throw new AppError('unauthenticated', 'An API key is required (Authorization: Bearer <key>).');
  const [source] = await options.database
    .select({ id: dataSources.id, status: dataSources.status })
    .from(dataSources)
    .where(and(eq(dataSources.apiKeyHash, hashApiKey(options.apiKey)), eq(dataSources.kind, 'dose-event-api')));
  if (source === undefined || source.status !== 'active') throw new AppError('unauthenticated', 'The API key is not valid or was revoked.');

  const batch = doseEventBatchSchema.safeParse(options.body);
  if (!batch.success) {
    const issue = batch.error.issues[0];
    throw new AppError('validation', issue?.message ?? 'The batch is not valid.', { fieldErrors: { events: issue?.message ?? 'not valid' } });
  }

  const result: DoseEventBatchResult = { accepted: 0, duplicates: 0, rejected: [] };
  const valid: { index: number; event: ReturnType<typeof doseEventSchema.parse> }[] = [];
  batch.data.events.forEach((raw, index) => {
    const parsed = doseEventSchema.safeParse(raw);
    if (parsed.success) valid.push({ index, event: parsed.data });
    else {
      const issue = parsed.error.issues[0];
      const key = (raw as { idempotencyKey?: unknown } | null)?.idempotencyKey;
      result.rejected.push({
        index,
        idempotencyKey: typeof key === 'string' ? key : null,
        field: String(issue?.path[0] ?? 'event'),
        message: issue?.message ?? 'The event is not valid.',
      });
    }
  });

  const pseudonyms = [...new Set(valid.map(({ event }) => event.patient))];
  const productIds = [...new Set(valid.flatMap(({ event }) => (event.product ? [event.product] : [])))];
  const knownPatients = new Map(
    pseudonyms.length === 0
      ? []
      : (await options.database.select({ id: patients.id, pseudonym: patients.pseudonym }).from(patients).where(inArray(patients.pseudonym, pseudonyms))).map(
          (row) => [row.pseudonym, row.id] as const,
        ),
  );
  const knownProducts = new Set(
    productIds.length === 0
      ? []
      : (await options.database.select({ id: products.id }).from(products).where(inArray(products.id, productIds))).map((row) => row.id),
  );

  for (const { index, event } of valid) {
    const patientId = knownPatients.get(event.patient);
    if (patientId === undefined) {
      result.rejected.push({ index, idempotencyKey: event.idempotencyKey, field: 'patient', message: 'No patient has this pseudonym.' });
      continue;
    }
    if (event.product !== undefined && !knownProducts.has(event.product)) {
      result.rejected.push({ index, idempotencyKey: event.idempotencyKey, field: 'product', message: 'No product has this id.' });
      continue;
    }
    const inserted = await options.database
      .insert(doseEvents)
      .values({
        patientId,
        productId: event.product ?? null,
        scheduledAt: new Date(event.scheduledAt),
        confirmedAt: event.confirmedAt ? new Date(event.confirmedAt) : null,
        status: event.status,
        source: `dose-event-api:${source.id}`,
        sourceRecordId: event.idempotencyKey,
      })
      .onConflictDoNothing()
      .returning({ id: doseEvents.id });
    if (inserted.length === 1) result.accepted += 1;
    else result.duplicates += 1;
  }
  result.rejected.sort((first, second) => first.index - second.index);

  await options.database.update(dataSources).set({ lastActivityAt: new Date() }).where(eq(dataSources.id, source.id));
  return result;
}
