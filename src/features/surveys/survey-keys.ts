/** The built-in surveys, without zod: the survey-by-message form in the browser lists them. */
export const surveyKeys = ['lifestyle', 'adherence-barriers'] as const;
export type SurveyKey = (typeof surveyKeys)[number];
