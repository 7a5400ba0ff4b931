/** How long a patient may take back a dose answer given in the app (a mis-tap), in minutes. */
export const doseAnswerUndoMinutes = 5;

/** The answers the app offers for a dose. */
export const appDoseAnswers = ['taken', 'skipped'] as const;
export type AppDoseAnswer = (typeof appDoseAnswers)[number];
