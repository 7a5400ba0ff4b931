/** How long a patient may take back a dose answer given in the app (a mis-tap), in minutes. */
export const doseAnswerUndoMinutes = 5;

/** The answers the app offers for a dose. */
export const appDoseAnswers = ['taken', 'skipped'] as const;
export type AppDoseAnswer = (typeof appDoseAnswers)[number];

/** What observed a dose, in the words the home and its refusals use ("taken in the app"). */
export const doseSourceWords: Record<string, string> = {
  app: 'in the app',
  'whatsapp-reply': 'by WhatsApp',
  'sms-reply': 'by SMS',
  'smart-bottle': 'by the smart bottle',
  fhir: 'from your health record',
  simulation: 'simulated',
};
