/**
 * The consent feature's shapes (browser-safe): the DTOs the pages read and the input /profile saves.
 */
import { z } from '@/lib/zod';
import { type ConsentChannel, type ConsentPurpose, consentPurposes, type ConsentSource } from '@/lib/domain/consent';

export { consentChannels, consentPurposes, consentSources } from '@/lib/domain/consent';
export type { ConsentChannel, ConsentPurpose, ConsentSource } from '@/lib/domain/consent';

/** The current consent for one channel and purpose: the latest event, or none (no consent). */
export type ConsentStateDto = {
  channel: ConsentChannel;
  purpose: ConsentPurpose;
  granted: boolean;
  /** Where and when the latest change came from; null when there has never been one. */
  source: ConsentSource | null;
  since: string | null;
};

/** One row of the ledger. */
export type ConsentEventDto = {
  id: number;
  channel: ConsentChannel;
  purpose: ConsentPurpose;
  granted: boolean;
  source: ConsentSource;
  effectiveAt: string;
};

export type PatientConsentsDto = {
  patientId: string;
  /** Every channel × purpose, in the order of consentChannels then consentPurposes. */
  current: ConsentStateDto[];
  /** Newest first, at most `historyLimit` of the `historyTotal` events. */
  history: ConsentEventDto[];
  historyTotal: number;
  historyLimit: number;
};

/** What /profile shows: the signed-in user's own consents, or why there are none. */
export type OwnConsentsDto = { status: 'linked'; consents: PatientConsentsDto } | { status: 'no-patient-record' };

/**
 * What /profile saves: for each channel, the purposes the patient consents to (every channel named, so a
 * missing one is an error, not a silent opt-out).
 */
const purposeList = z.array(z.enum(consentPurposes)).max(consentPurposes.length);
export const ownConsentsUpdateSchema = z
  .object({ whatsapp: purposeList, sms: purposeList, app: purposeList } satisfies Record<ConsentChannel, unknown>)
  .strict();
export type OwnConsentsUpdate = z.infer<typeof ownConsentsUpdateSchema>;
