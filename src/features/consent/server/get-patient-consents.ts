import 'server-only';
import { count, desc, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { consentEvents } from '@/db/schema';
import type { PatientConsentsDto } from '../schemas';
import { allCombinations, consentEventColumns, readConsentState, stateKey } from './consent-state';

const defaultHistoryLimit = 200;

/**
 * A patient's consent now (every channel × purpose) and the ledger's history, newest first. Authorisation
 * is the caller's (getOwnConsents for a patient's own).
 */
export async function getPatientConsents(options: {
  database: Database;
  patientId: string;
  historyLimit?: number;
}): Promise<PatientConsentsDto> {
  const { database, patientId } = options;
  const historyLimit = options.historyLimit ?? defaultHistoryLimit;
  const state = await readConsentState({ database, patientId });
  const history = await database
    .select({ id: consentEvents.id, ...consentEventColumns })
    .from(consentEvents)
    .where(eq(consentEvents.patientId, patientId))
    .orderBy(desc(consentEvents.effectiveAt), desc(consentEvents.id))
    .limit(historyLimit);
  const [{ total } = { total: 0 }] = await database
    .select({ total: count() })
    .from(consentEvents)
    .where(eq(consentEvents.patientId, patientId));
  return {
    patientId,
    current: allCombinations().map(({ channel, purpose }) => {
      const current = state.get(stateKey(channel, purpose));
      return {
        channel,
        purpose,
        granted: current?.granted ?? false,
        source: current?.source ?? null,
        since: current?.effectiveAt.toISOString() ?? null,
      };
    }),
    history: history.map((event) => ({ ...event, effectiveAt: event.effectiveAt.toISOString() })),
    historyTotal: Number(total),
    historyLimit,
  };
}
