/**
 * Simulated patients answering a survey (synthetic demo data, docs/decisions/041): a choice is drawn from
 * P(answer | true persona) mixed with `noise` of uniform guessing, so the answers are informative but
 * imperfect; a lifestyle answer, IPAQ minutes included, from the simulated population
 * (`@/engine/simulation/lifestyle`, decision 067). The caller passes its own uniform draws.
 */
import type { MessageChannel } from '@/engine/policy/message-arms';
import { simulateLifestyleAnswer } from '@/engine/simulation/lifestyle';
import { replyProbability } from '@/engine/simulation/message-response';
import { personaParameters, type Persona } from '@/engine/simulation/personas';
import { carriesPersonaInformation, nextQuestion } from './inference';
import { nextMessageQuestions } from './message-delivery';
import type { SurveyAnswers, SurveyDefinition, SurveyQuestion } from './types';

/** The share of uniform guessing in simulated answers: the demo data and the persona-accuracy figures both use it. */
export const SIMULATED_ANSWER_NOISE = 0.15;

export function simulateAnswer(
  question: SurveyQuestion,
  persona: Persona,
  noise: number,
  uniform: () => number,
  answersSoFar: Readonly<Record<string, string | number>> = {},
): string | number {
  // A question with no persona information (the lifestyle survey) is answered from the simulated population's
  // shares, coherently with the earlier answers and without the guessing: the guessing stands for careless answers
  // that blur the persona, which these do not carry (docs/decisions/067). Still one draw, as every answer takes.
  if (!carriesPersonaInformation(question)) {
    const draw = uniform();
    const answerValues = question.kind === 'choice' ? question.options.map((option) => option.value) : [];
    const lifestyle = simulateLifestyleAnswer({ questionId: question.id, answerValues, answers: answersSoFar, uniform: draw });
    if (lifestyle !== null) return lifestyle;
    return answerFromDraw(question, persona, noise, draw);
  }
  return answerFromDraw(question, persona, noise, uniform());
}

function answerFromDraw(question: SurveyQuestion, persona: Persona, noise: number, uniform: number): string | number {
  if (question.kind === 'number') {
    // A number question the simulated population does not describe (an admin's own): activity bouts of 10–90
    // minutes, sitting 2–12 hours. Rounded to 5 minutes as people report them.
    const [low, high] = question.max > 960 ? [120, 720] : [10, 90];
    return Math.round((low + uniform * (high - low)) / 5) * 5;
  }
  const weights = question.options.map((option) => (1 - noise) * option.likelihoods[persona] + noise / question.options.length);
  let draw = uniform * weights.reduce((sum, weight) => sum + weight, 0);
  for (let index = 0; index < weights.length; index += 1) {
    draw -= weights[index]!;
    if (draw < 0) return question.options[index]!.value;
  }
  return question.options[question.options.length - 1]!.value;
}

type SimulatedResponseOptions = {
  definition: SurveyDefinition;
  persona: Persona;
  noise: number;
  uniform: () => number;
  /** Answers the patient's record gives (`answersFromRecord`): there from the start, never asked (docs/decisions/068). */
  recordAnswers?: SurveyAnswers;
};

/** A simulated response that may end before the survey does; `steps` counts the questions (form) or messages answered. */
export type SimulatedPartialResponse = { answers: SurveyAnswers; order: string[]; completed: boolean; steps: number };

/**
 * Before each question of the in-app form, the chance a patient leaves and does not come back (demo data; a
 * judgement — no figure for it has been measured here).
 */
export const SIMULATED_WEB_LEAVE_CHANCE = 0.04;

/**
 * One question at a time in the order the engine asks (adaptive order and stop rules included); with a
 * `leaveChance`, a draw before each question may end the response there. Without one no draw is made, so a whole
 * response takes the same draws as it always has.
 */
function answerInEngineOrder(options: SimulatedResponseOptions, leaveChance: number | null): SimulatedPartialResponse {
  const answers: Record<string, string | number> = { ...options.recordAnswers };
  const fromRecord = Object.keys(answers);
  const order: string[] = [];
  for (;;) {
    const step = nextQuestion({ definition: options.definition, answers, fromRecord });
    if (step.done) return { answers, order, completed: true, steps: order.length };
    if (leaveChance !== null && options.uniform() < leaveChance) return { answers, order, completed: false, steps: order.length };
    answers[step.question.id] = simulateAnswer(step.question, options.persona, options.noise, options.uniform, answers);
    order.push(step.question.id);
  }
}

/** A whole response as the engine would ask it (adaptive order and stop rules included). */
export function simulateResponse(options: SimulatedResponseOptions): { answers: SurveyAnswers; order: string[] } {
  const { answers, order } = answerInEngineOrder(options, null);
  return { answers, order };
}

/** A response in the in-app form, one question at a time, each question risking `SIMULATED_WEB_LEAVE_CHANCE`. */
export function simulateWebResponse(options: SimulatedResponseOptions): SimulatedPartialResponse {
  return answerInEngineOrder(options, SIMULATED_WEB_LEAVE_CHANCE);
}

/**
 * The chance a patient answers one survey message, its reminder included: the simulator's reply chance for a
 * message that asks for a reply (`replyProbability`, as a check-in on that channel, at the first weeks'
 * engagement — a survey is a new kind of message: a judgement), given twice, once for the message and once for its
 * one reminder (docs/decisions/063).
 */
export function surveyMessageAnswerChance(persona: Persona, channel: Extract<MessageChannel, 'sms' | 'whatsapp'>): number {
  const once = replyProbability({
    propensity: personaParameters[persona].replyProbability,
    channel,
    category: 'check-in',
    messagesReceived: 0,
  });
  return 1 - (1 - once) ** 2;
}

/**
 * A response by message as the product sends it: each message carries the questions `nextMessageQuestions`
 * chooses (at most 3) and is answered whole with `answerChance`; a message left unanswered ends the response
 * there, unfinished.
 */
export function simulateMessageResponse(options: SimulatedResponseOptions & { answerChance: number }): SimulatedPartialResponse {
  const answers: Record<string, string | number> = { ...options.recordAnswers };
  const fromRecord = Object.keys(answers);
  const order: string[] = [];
  let messages = 0;
  for (;;) {
    const questions = nextMessageQuestions(options.definition, answers, fromRecord);
    if (questions.length === 0) return { answers, order, completed: true, steps: messages };
    if (options.uniform() >= options.answerChance) return { answers, order, completed: false, steps: messages };
    for (const question of questions) {
      answers[question.id] = simulateAnswer(question, options.persona, options.noise, options.uniform, answers);
      order.push(question.id);
    }
    messages += 1;
  }
}
