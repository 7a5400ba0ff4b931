export { answerSurveyByMessage } from './server/answer-survey-by-message';
export { answerSurveyQuestion } from './server/answer-survey-question';
export { fillSurveyResponseInformation } from './server/fill-survey-response-information';
export { type CohortDistribution, getLifestyleSurveysPage, type LifestyleSurveysPage } from './server/get-lifestyle-surveys-page';
export { getSurveyEvolutionPage, type SurveyEvolutionPage } from './server/get-survey-evolution-page';
export { listSurveyMessages } from './server/list-survey-messages';
export { offerSurveyByMessage } from './server/offer-survey-by-message';
export { createSurveyMessageJobHandler, registerSurveyMessageJobs } from './server/register-survey-message-jobs';
export { saveSurveyDefinition } from './server/save-survey-definition';
export { demoSurveyNoise, demoSurveyResponseShare, seedSurveyResponses, type SimulatedRespondent } from './server/seed-survey-responses';
export { sendSurveyMessage } from './server/send-survey-message';
export { startSurveyResponse } from './server/start-survey-response';
export type { SurveyState } from './server/survey-store';
export {
  type OfferSurveyByMessageResult,
  type SurveyKey,
  surveyKeys,
  type SurveyMessageStatus,
  type SurveyMessageSendOutcome,
  type SurveyReplyOutcome,
} from './schemas';
export { warmPersonaAccuracy } from './server/persona-accuracy-cache';
