/**
 * What other features and routes may use of the consent ledger (docs/decisions/016-consent-ledger.md).
 * Server-only: importing it from a client component would pull the database in; the page's component is
 * src/features/consent/components/consent-settings.tsx.
 */
export { applyConsentKeyword, type ConsentKeywordResult } from './server/apply-consent-keyword';
export { assertMessagingConsent, MessagingConsentMissingError } from './server/assert-messaging-consent';
export {
  type ConsentChange,
  type ConsentState,
  type ConsentStateMap,
  keywordConsentSources,
  readConsentStates,
} from './server/consent-state';
export { getOwnConsents } from './server/get-own-consents';
export { getPatientConsents } from './server/get-patient-consents';
export { type ConsentImportEntry, importConsents } from './server/import-consents';
export { recordConsent } from './server/record-consent';
export { notAPatientMessage, updateOwnConsents } from './server/update-own-consents';
export {
  consentChannels,
  consentPurposes,
  consentSources,
  type ConsentChannel,
  type ConsentEventDto,
  type ConsentPurpose,
  type ConsentSource,
  type ConsentStateDto,
  type OwnConsentsDto,
  type PatientConsentsDto,
} from './schemas';
