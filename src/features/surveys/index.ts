export { answerSurveyQuestion } from './server/answer-survey-question';
export { type CohortDistribution, getLifestyleSurveysPage, type LifestyleSurveysPage } from './server/get-lifestyle-surveys-page';
export { getSurveyEvolutionPage, type SurveyEvolutionPage } from './server/get-survey-evolution-page';
export { saveSurveyDefinition } from './server/save-survey-definition';
export { demoSurveyNoise, demoSurveyResponseShare, seedSurveyResponses, type SimulatedRespondent } from './server/seed-survey-responses';
export { startSurveyResponse } from './server/start-survey-response';
export type { SurveyState } from './server/survey-store';
export { type SurveyKey, surveyKeys } from './schemas';
