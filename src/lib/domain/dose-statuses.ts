/** What a dose observation says happened (browser-safe; src/db/schema.ts uses it for `dose_events.status`). */
export const doseStatuses = ['taken', 'missed', 'skipped', 'unknown'] as const;
export type DoseStatus = (typeof doseStatuses)[number];
