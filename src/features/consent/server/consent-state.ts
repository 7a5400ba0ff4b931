import 'server-only';
import { and, desc, eq, inArray, lte } from 'drizzle-orm';
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
  const states = await readConsentStates({ database: options.database, patientIds: [options.patientId], at: options.at });
  return states.get(options.patientId) ?? new Map();
}

/** `readConsentState` for many patients in one query (a trial's candidate list); a patient with no events maps to an empty state. */
export async function readConsentStates(options: {
  database: Database;
  patientIds: readonly string[];
  at?: Date;
}): Promise<Map<string, ConsentStateMap>> {
  const { database, patientIds, at } = options;
  const states = new Map<string, ConsentStateMap>(patientIds.map((id) => [id, new Map()]));
  if (patientIds.length === 0) return states;
  const rows = await database
    .selectDistinctOn([consentEvents.patientId, consentEvents.channel, consentEvents.purpose], {
      patientId: consentEvents.patientId,
      ...consentEventColumns,
    })
    .from(consentEvents)
    .where(and(inArray(consentEvents.patientId, [...patientIds]), at === undefined ? undefined : lte(consentEvents.effectiveAt, at)))
    .orderBy(
      consentEvents.patientId,
      consentEvents.channel,
      consentEvents.purpose,
      desc(consentEvents.effectiveAt),
      desc(consentEvents.id),
    );
  for (const row of rows)
    states
      .get(row.patientId)
      ?.set(stateKey(row.channel, row.purpose), { granted: row.granted, source: row.source, effectiveAt: row.effectiveAt });
  return states;
}

/** Sources of events a STOP or START keyword wrote (on any channel). */
export const keywordConsentSources: ReadonlySet<ConsentSource> = new Set(['sms-keyword', 'whatsapp-keyword', 'app-keyword']);

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
