import 'server-only';
import type { Database } from '@/db/client';
import { consentEvents } from '@/db/schema';
import type { ConsentChannel, ConsentPurpose, ConsentSource } from '@/lib/domain/consent';

export type ConsentImportEntry = {
  patientId: string;
  channel: ConsentChannel;
  purpose: ConsentPurpose;
  granted: boolean;
  effectiveAt: Date;
};

/**
 * Writes many patients' consent events at once (a seed, a bulk import of consent forms), in batches. Unlike
 * recordConsent it does not compare with the state: the caller writes only what is new (for example, for
 * the patients it has just created).
 */
export async function importConsents(options: {
  database: Pick<Database, 'insert'>;
  entries: readonly ConsentImportEntry[];
  source: ConsentSource;
  batchSize?: number;
}): Promise<number> {
  const batchSize = options.batchSize ?? 2_000;
  for (let start = 0; start < options.entries.length; start += batchSize) {
    await options.database
      .insert(consentEvents)
      .values(options.entries.slice(start, start + batchSize).map((entry) => ({ ...entry, source: options.source, actorUserId: null })));
  }
  return options.entries.length;
}
