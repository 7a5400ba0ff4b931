import type { PersonaAccuracy } from '@/engine/surveys';
import { MAX_ADAPTIVE_QUESTIONS, MIN_INFORMATION_GAIN, STOP_PROBABILITY } from '@/engine/surveys/inference';
import { formatDecimal, formatPercent } from '@/lib/format';

function questionsNeeded(value: number | null, total: number): string {
  return value === null ? `not reached in ${total} questions` : `${value} question${value === 1 ? '' : 's'}`;
}

/** The target in words: met, not met, or not measurable (an order never reaches the accuracy). */
export function accuracySentence(result: PersonaAccuracy): string {
  const total = result.curve.length - 1;
  const best = Math.max(...result.curve.map((point) => Math.max(point.adaptive, point.fixed)));
  const target = formatPercent(result.target);
  const reached = `To reach ${target} accuracy the adaptive order needs ${questionsNeeded(result.adaptiveQuestionsToTarget, total)} and the fixed order ${questionsNeeded(result.fixedQuestionsToTarget, total)}.`;
  if (best < result.target)
    return `${reached} Target not met: with these ${total} questions the best accuracy either order reaches is ${formatPercent(best, 1)}, below ${target}, so the adaptive order cannot reach ${target} with at most 60% of the questions the fixed order needs.`;
  if (result.questionRatio === null)
    return `${reached} Only one order reaches ${target} within ${total} questions, so the ratio of questions needed cannot be computed.`;
  return `${reached} The adaptive order needs ${formatPercent(result.questionRatio)} of the fixed order’s questions: target (at most 60%) ${result.questionRatio <= 0.6 ? 'met' : 'not met'}.`;
}

/** What the survey achieves as the product runs it: its stop rules on, the same simulated patients. */
export function stopRulesSentence(result: PersonaAccuracy): string {
  const { meanQuestions, accuracy } = result.withStopRules;
  return `As the product runs it — stopping once the top persona reaches ${formatPercent(STOP_PROBABILITY)} after at least one question, when no question would add more than ${formatDecimal(MIN_INFORMATION_GAIN, 2)} bits, or after ${MAX_ADAPTIVE_QUESTIONS} questions — the adaptive survey asks these patients ${formatDecimal(meanQuestions, 1)} questions on average and finds the true persona for ${formatPercent(accuracy, 1)} of them.`;
}
