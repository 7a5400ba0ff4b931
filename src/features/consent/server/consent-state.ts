import 'server-only';
import { and, desc, eq, lte } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { consentEvents, patients } from '@/db/schema';
import { type ConsentChannel, consentChannels, type ConsentPurpose, consentPurposes, type ConsentSource } from '@/lib/domain/consent';

/** The latest event of one channel and purpose; absent when there has been none. */
export type ConsentState = { granted: boolean; source: ConsentSource; effectiveAt: Date };
export type ConsentStateMap = Map<`${ConsentChannel}/${ConsentPurpose}`, ConsentState>;

/** The columns of an event that pages and the state read (no actor: it is not shown). */
export const consentEventColumns = {
  channel: consentEvents.channel,
  purpose: consentEvents.purpose,
  granted: consentEvents.granted,
  source: consentEvents.source,
  effectiveAt: consentEvents.effectiveAt,
};

export const stateKey = (channel: ConsentChannel, purpose: ConsentPurpose) => `${channel}/${purpose}` as const;

/**
 * The patient's consent as the ledger says at `at` (default: now): for each channel and purpose, the
 * latest event in effect by then (ties broken by the order they were written). The one reader of current
 * consent, so the guard, the keywords and the page cannot disagree.
 */
export async function readConsentState(options: { database: Database; patientId: string; at?: Date }): Promise<ConsentStateMap> {
  const { database, patientId, at } = options;
  const rows = await database
    .selectDistinctOn([consentEvents.channel, consentEvents.purpose], consentEventColumns)
    .from(consentEvents)
    .where(and(eq(consentEvents.patientId, patientId), at === undefined ? undefined : lte(consentEvents.effectiveAt, at)))
    .orderBy(consentEvents.channel, consentEvents.purpose, desc(consentEvents.effectiveAt), desc(consentEvents.id));
  const state: ConsentStateMap = new Map();
  for (const row of rows)
    state.set(stateKey(row.channel, row.purpose), { granted: row.granted, source: row.source, effectiveAt: row.effectiveAt });
  return state;
}

/** Every channel × purpose, in a fixed order. */
export function allCombinations(): { channel: ConsentChannel; purpose: ConsentPurpose }[] {
  return consentChannels.flatMap((channel) => consentPurposes.map((purpose) => ({ channel, purpose })));
}

/** A change to record: one channel and purpose opted in or out. */
export type ConsentChange = { channel: ConsentChannel; purpose: ConsentPurpose; granted: boolean };

/**
 * Appends the changes as events, in one statement (callers hold lockPatient in the same transaction).
 */
export async function appendConsentEvents(options: {
  database: Database;
  patientId: string;
  changes: readonly ConsentChange[];
  source: ConsentSource;
  actorUserId: string | null;
  effectiveAt: Date;
}): Promise<void> {
  if (options.changes.length === 0) return;
  await options.database.insert(consentEvents).values(
    options.changes.map((change) => ({
      patientId: options.patientId,
      channel: change.channel,
      purpose: change.purpose,
      granted: change.granted,
      source: options.source,
      actorUserId: options.actorUserId,
      effectiveAt: options.effectiveAt,
    })),
  );
}

/**
 * Locks the patient's row until the transaction ends, so two concurrent changes to one patient's consent
 * take turns and neither decides on stale state. False when there is no such patient.
 */
export async function lockPatient(database: Database, patientId: string): Promise<boolean> {
  const [row] = await database.select({ id: patients.id }).from(patients).where(eq(patients.id, patientId)).for('update');
  return row !== undefined;
}
