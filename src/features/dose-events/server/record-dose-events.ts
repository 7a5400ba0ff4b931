import 'server-only';
import { eq, inArray } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dataSources, doseEvents, patients, products } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { type DoseEventBatchResult, type RejectedDoseEvent, doseEventBatchSchema, doseEventSchema } from '../schemas';

/** A batch with bad events: 400, each event named by index and field; nothing of the batch was stored. */
export class DoseEventBatchRejected extends AppError {
  readonly rejected: RejectedDoseEvent[];

  constructor(rejected: RejectedDoseEvent[]) {
    const fieldErrors = Object.fromEntries(rejected.map((event) => [`events.${event.index}.${event.field}`, event.message]));
    const count = rejected.length === 1 ? 'One event is' : `${rejected.length} events are`;
    super(
      'validation',
      `${count} not valid, so nothing of this batch was stored: ${rejected.map((event) => `events.${event.index}.${event.field}: ${event.message}`).join('; ')}`,
      {
        fieldErrors,
      },
    );
    this.rejected = rejected;
  }
}

/**
 * The dose-event API (smart pill bottles, apps): a batch of events from one source (authenticated first, by
 * authenticateDoseEventSource). All or nothing: every event is checked — its fields, its patient and product —
 * before anything is written, then the batch goes in one transaction, so a bad event, a failed write or a
 * dropped connection leaves nothing behind and the sender can retry the whole batch. Each event carries an
 * idempotency key, so a retried batch changes nothing.
 */
export async function recordDoseEvents(options: {
  database: Database;
  source: { id: string };
  body: unknown;
}): Promise<DoseEventBatchResult> {
  const batch = parseInput(doseEventBatchSchema, options.body, { label: 'The dose-event batch' });

  const rejected: RejectedDoseEvent[] = [];
  const valid: { index: number; event: ReturnType<typeof doseEventSchema.parse> }[] = [];
  batch.events.forEach((raw, index) => {
    const parsed = doseEventSchema.safeParse(raw);
    if (parsed.success) valid.push({ index, event: parsed.data });
    else {
      const issue = parsed.error.issues[0];
      const key = (raw as { idempotencyKey?: unknown } | null)?.idempotencyKey;
      rejected.push({
        index,
        // Echo the key only when it is one we could have stored.
        idempotencyKey: typeof key === 'string' && !issue?.path.includes('idempotencyKey') ? key : null,
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
      : (
          await options.database
            .select({ id: patients.id, pseudonym: patients.pseudonym })
            .from(patients)
            .where(inArray(patients.pseudonym, pseudonyms))
        ).map((row) => [row.pseudonym, row.id] as const),
  );
  const knownProducts = new Set(
    productIds.length === 0
      ? []
      : (await options.database.select({ id: products.id }).from(products).where(inArray(products.id, productIds))).map((row) => row.id),
  );

  const rows: (typeof doseEvents.$inferInsert)[] = [];
  for (const { index, event } of valid) {
    const patientId = knownPatients.get(event.patient);
    if (patientId === undefined) {
      rejected.push({ index, idempotencyKey: event.idempotencyKey, field: 'patient', message: 'No patient has this pseudonym.' });
      continue;
    }
    if (event.product !== undefined && !knownProducts.has(event.product)) {
      rejected.push({ index, idempotencyKey: event.idempotencyKey, field: 'product', message: 'No product has this id.' });
      continue;
    }
    rows.push({
      patientId,
      productId: event.product ?? null,
      scheduledAt: new Date(event.scheduledAt),
      confirmedAt: event.confirmedAt ? new Date(event.confirmedAt) : null,
      status: event.status,
      source: `dose-event-api:${options.source.id}`,
      sourceRecordId: event.idempotencyKey,
    });
  }
  if (rejected.length > 0) throw new DoseEventBatchRejected(rejected.sort((first, second) => first.index - second.index));

  return options.database.transaction(async (transaction) => {
    // One statement: an idempotency key seen before (or twice in this batch) is a duplicate, not an error.
    const inserted = await transaction.insert(doseEvents).values(rows).onConflictDoNothing().returning({ id: doseEvents.id });
    await transaction.update(dataSources).set({ lastActivityAt: new Date() }).where(eq(dataSources.id, options.source.id));
    return { accepted: inserted.length, duplicates: rows.length - inserted.length };
  });
}
