import type { Role } from '@/lib/domain/roles';

/**
 * Who may do what: the one typed map every authorisation decision reads (server use cases decide; the
 * browser only uses it to hide controls a role cannot use). Add a permission here rather than writing
 * `role === …` in a use case.
 */
export const permissions = {
  /** Grant roles and company memberships; open /admin. */
  'users:administer': ['admin'],
  /** Upload FHIR bundles and pharmacy CSVs. */
  'data:import': ['admin', 'clinician'],
  /** See and undo every import batch; those with 'data:import' alone see and undo only the batches they ran. */
  'data:import-batches:any': ['admin'],
  /** Create and revoke API keys for dose-event sources (devices, apps). */
  'dose-event-sources:manage': ['admin'],
  /** Follow any user's background job, not only one's own. */
  'jobs:view-any': ['admin'],
  /** See individual patients' identities (pseudonyms) and trajectories, not only aggregates. */
  'patients:list': ['admin', 'clinician'],
  /** Aggregates are shown without small-cell suppression (care teams see their own patients). */
  'aggregates:unsuppressed': ['admin', 'clinician'],
  /** Edit the message template library (every save is a new, audited version). */
  'message-templates:edit': ['admin'],
  /** Edit the survey definitions (every save is a new, audited version; docs/decisions/041). */
  'surveys:edit': ['admin'],
  /** Send a patient a survey by WhatsApp or SMS (clinicians: their organisations' patients; docs/decisions/051). */
  'surveys:send-by-message': ['admin', 'clinician'],
  /** Download the message log (one row per message, by pseudonym) of the patients in one's scope. */
  'messages:export-log': ['admin', 'clinician'],
  /** Open /app/manufacturing: manufacturers see their companies' products, officials and admins every company's. */
  'portal:view': ['drug-manufacturer', 'government-official', 'admin'],
  /** Download a trial's de-identified analysis dataset (one row per participant, by pseudonym). */
  'trials:analysis-dataset': ['admin', 'clinician', 'government-official'],
  /** Assess, enrol and record exits of trial participants (clinicians: their organisations' patients). */
  'trials:enrol': ['admin', 'clinician'],
  /** Create trials and edit an analysis plan (until enrolment starts). */
  'trials:manage': ['admin'],
  /** Answer "taken" / "skipped" for one's own doses on the patient home, and take the answer back (decision 043). */
  'doses:answer-own': ['patient'],
  /** Start a new version of the non-adherence risk model (a background training job; docs/decisions/046). */
  'risk-models:train': ['admin', 'government-official'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof permissions;

export function hasPermission(role: Role, permission: Permission): boolean {
  return (permissions[permission] as readonly Role[]).includes(role);
}
