/**
 * The roles of seed-spec §3. Pure constants, safe in the browser: client components and the permission map
 * import them from here; src/db/schema.ts (server-only) uses the same list for the `role` column.
 */
export const roles = ['patient', 'clinician', 'drug-manufacturer', 'government-official', 'admin'] as const;
export type Role = (typeof roles)[number];

/** Each role in words, for people (pages show these, never the slugs). */
export const roleNames: Record<Role, string> = {
  patient: 'Patient',
  clinician: 'Clinician',
  'drug-manufacturer': 'Drug manufacturer',
  'government-official': 'Government official',
  admin: 'Administrator',
};
