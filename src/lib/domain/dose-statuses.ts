/** What a dose observation says happened (browser-safe; src/db/schema.ts uses it for `dose_events.status`). */
export const doseStatuses = ['taken', 'missed', 'skipped', 'unknown'] as const;
export type DoseStatus = (typeof doseStatuses)[number];

/**
 * Why a dose was missed, as a patient's reply says it (the reply classifier's reasons; browser-safe, so
 * src/db/schema.ts can use it for `dose_events.missed_reason`).
 */
export const missedDoseReasons = ['forgot', 'side-effects', 'ran-out', 'cost', 'felt-fine', 'other'] as const;
export type MissedDoseReason = (typeof missedDoseReasons)[number];

/** Where a dose answer by message came from (dose_events.source, decision 020); the calendar counts them like any confirmation. */
export const replyDoseSources = { whatsapp: 'whatsapp-reply', sms: 'sms-reply' } as const;
