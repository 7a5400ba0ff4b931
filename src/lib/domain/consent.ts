/**
 * The consent ledger's vocabulary (browser-safe; src/db/schema.ts uses it for its columns). A patient
 * consents per channel we message on and per purpose of the messages; e-mail is not a messaging channel.
 */
export const consentChannels = ['whatsapp', 'sms', 'app'] as const;
export type ConsentChannel = (typeof consentChannels)[number];

/**
 * What the messages are for. Research means being contacted for research (invitations, study
 * questionnaires) on that channel; consent to use one's data in a study is a separate, written matter.
 */
export const consentPurposes = ['reminders', 'education', 'surveys', 'research'] as const;
export type ConsentPurpose = (typeof consentPurposes)[number];

/** Where a change came from: the patient on /profile, a keyword on a channel, an import, a clinician, a seed. */
export const consentSources = [
  'profile',
  'sms-keyword',
  'whatsapp-keyword',
  'app-keyword',
  'import',
  'clinician',
  'demo-seed',
  'migration',
] as const;
export type ConsentSource = (typeof consentSources)[number];

export const consentChannelLabels: Readonly<Record<ConsentChannel, string>> = { whatsapp: 'WhatsApp', sms: 'SMS', app: 'App' };
export const consentPurposeLabels: Readonly<Record<ConsentPurpose, string>> = {
  reminders: 'Reminders',
  education: 'Education',
  surveys: 'Surveys',
  research: 'Research',
};
export const consentSourceLabels: Readonly<Record<ConsentSource, string>> = {
  profile: 'your profile',
  'sms-keyword': 'an SMS keyword',
  'whatsapp-keyword': 'a WhatsApp keyword',
  'app-keyword': 'an app keyword',
  import: 'an import',
  clinician: 'a clinician',
  'demo-seed': 'the demo data',
  migration: 'the earlier consent record',
};
