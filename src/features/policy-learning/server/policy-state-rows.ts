import 'server-only';
/**
 * The personalised policy's stored versions (policy_states): the latest row, and the prior written as version 0
 * when none exists yet. Shared by the use cases of this feature; the state's shape belongs to the engine.
 */
import { desc, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { policyStates } from '@/db/schema';
import { AppError } from '@/lib/errors';
import {
  createPolicyState,
  defaultPersonalisedSettings,
  personalisedPolicyName,
  type PersonalisedSettings,
  type PolicyState,
} from '@/engine/policy/personalised';

export type StoredPolicyState = {
  version: number;
  state: PolicyState;
  settings: PersonalisedSettings;
  decisionsUsed: number;
  /** decided_at of the latest decision learned from (the loop writes it to the millisecond); null for the prior. */
  trainedThrough: Date | null;
  createdAt: Date;
};

const latestColumns = {
  version: policyStates.version,
  state: policyStates.state,
  settings: policyStates.settings,
  decisionsUsed: policyStates.decisionsUsed,
  trainedThrough: policyStates.trainedThrough,
  createdAt: policyStates.createdAt,
};

function toStored(row: {
  version: string;
  state: Record<string, unknown>;
  settings: Record<string, unknown>;
  decisionsUsed: number;
  trainedThrough: Date | null;
  createdAt: Date;
}): StoredPolicyState {
  return {
    version: Number(row.version),
    // The engine wrote it (updatePolicyState or createPolicyState); its JSON is its own business.
    state: row.state as unknown as PolicyState,
    // Settings stored by an older version may lack a newer field: the default fills it.
    settings: { ...defaultPersonalisedSettings, ...(row.settings as Partial<PersonalisedSettings>) },
    decisionsUsed: row.decisionsUsed,
    trainedThrough: row.trainedThrough,
    createdAt: row.createdAt,
  };
}

/**
 * The latest version, or null before the first. Versions are only ever added (id order is their order), so
 * the latest row is the one in use; a failed update adds none and the previous version stays in use.
 */
export async function readLatestPolicyState(options: { database: Database }): Promise<StoredPolicyState | null> {
  const [row] = await options.database
    .select(latestColumns)
    .from(policyStates)
    .where(eq(policyStates.policyName, personalisedPolicyName))
    .orderBy(desc(policyStates.id))
    .limit(1);
  return row === undefined ? null : toStored(row);
}

/** The latest version; the prior, stored as version 0, when there is none (two callers at once store one). */
export async function readOrCreateLatestPolicyState(options: { database: Database; now: Date }): Promise<StoredPolicyState> {
  const latest = await readLatestPolicyState(options);
  if (latest !== null) return latest;
  // The prior is version 0 (the engine counts its own updates from 1): a decision naming version 0 learned nothing.
  const state = { ...createPolicyState({ settings: defaultPersonalisedSettings }), version: 0 };
  await options.database
    .insert(policyStates)
    .values({
      policyName: personalisedPolicyName,
      version: '0',
      source: 'live',
      state: state as unknown as Record<string, unknown>,
      settings: defaultPersonalisedSettings as unknown as Record<string, unknown>,
      decisionsUsed: 0,
      trainedThrough: null,
      createdAt: options.now,
    })
    .onConflictDoNothing({ target: [policyStates.policyName, policyStates.version] });
  const stored = await readLatestPolicyState(options);
  if (stored === null) throw new AppError('internal', 'The prior of the personalised policy could not be stored.');
  return stored;
}
