/**
 * How simulated patients live, for their answers to the lifestyle survey (synthetic demo data; docs/decisions/067).
 *
 * The lifestyle survey carries no persona information (docs/decisions/041: its likelihoods are equal across
 * personas), so the simulator draws these answers from one adult population, the same for every persona. The shares
 * are judgements of the order of magnitude that adult population health surveys report for people on long-term
 * medication (mostly middle-aged and older): most sleep 7–8 hours, about a third drink no alcohol, about one in six
 * smokes, few eat 5 portions of fruit and vegetables, a minority is vigorously active. They are not taken from one source and are not a finding; they keep the demo's cohort figures
 * plausible instead of the flat shares of answering every option alike, which made 9 in 10 patients screen positive
 * on AUDIT-C and a quarter sleep under 5 hours. Measured on 20,000 simulated respondents (decision 067): about a
 * third screen positive on AUDIT-C (its cut-offs of 3 and 4 are sensitive), and IPAQ reads low 23%, moderate 54%,
 * high 23%.
 *
 * Answers hang together where the instrument says they must: a patient who never drinks has "None, 1 or 2" drinks
 * on a drinking day and never has six or more; nobody has six or more drinks more often than they drink at all.
 */

/** Shares over a question's answer values, in the survey's order; they sum to 1. */
type AnswerShares = Readonly<Record<string, number>>;

const dayShares = (shares: readonly number[]): AnswerShares => Object.fromEntries(shares.map((share, days) => [String(days), share]));

export const lifestyleAnswerShares: Readonly<Record<string, AnswerShares>> = {
  // IPAQ short form, days in the last 7 (0 to 7).
  'ipaq-vigorous-days': dayShares([0.6, 0.07, 0.09, 0.09, 0.05, 0.05, 0.02, 0.03]),
  'ipaq-moderate-days': dayShares([0.4, 0.08, 0.12, 0.12, 0.07, 0.09, 0.04, 0.08]),
  'ipaq-walking-days': dayShares([0.08, 0.05, 0.08, 0.1, 0.08, 0.14, 0.09, 0.38]),
  // AUDIT-C 1: how often a drink.
  'audit-c-frequency': { never: 0.35, monthly: 0.25, '2-4-month': 0.17, '2-3-week': 0.13, '4-plus-week': 0.1 },
  // AUDIT-C 2 and 3, for people who drink (those who never do answer "None, 1 or 2" and "Never").
  'audit-c-quantity': { '1-2': 0.7, '3-4': 0.2, '5-6': 0.07, '7-9': 0.02, '10-plus': 0.01 },
  'audit-c-binge': { never: 0.55, 'less-monthly': 0.25, monthly: 0.1, weekly: 0.08, daily: 0.02 },
  'sleep-hours': { 'under-5': 0.08, '5-6': 0.27, '7-8': 0.56, '9-plus': 0.09 },
  'sleep-quality': { 'very-good': 0.2, 'fairly-good': 0.48, 'fairly-bad': 0.23, 'very-bad': 0.09 },
  smoking: { never: 0.5, former: 0.3, occasional: 0.05, daily: 0.15 },
  'diet-fruit-vegetables': { '0-1': 0.25, '2-4': 0.55, '5-plus': 0.2 },
  'diet-sugary-drinks': { none: 0.4, '1-3': 0.35, '4-plus': 0.25 },
  stress: { never: 0.3, sometimes: 0.45, often: 0.17, 'most-days': 0.08 },
};

/** Minutes a day on a day with the activity (IPAQ), and sitting on a week day: uniform over a plausible range. */
export const lifestyleMinuteRanges: Readonly<Record<string, readonly [number, number]>> = {
  'ipaq-vigorous-minutes': [20, 90],
  'ipaq-moderate-minutes': [20, 90],
  'ipaq-walking-minutes': [10, 60],
  'ipaq-sitting-minutes': [180, 600],
};

/** The binge answers a drinking frequency allows: nobody has six or more drinks more often than they drink. */
const bingeAllowedByFrequency: Readonly<Record<string, readonly string[]>> = {
  never: ['never'],
  monthly: ['never', 'less-monthly', 'monthly'],
  '2-4-month': ['never', 'less-monthly', 'monthly', 'weekly'],
  '2-3-week': ['never', 'less-monthly', 'monthly', 'weekly'],
  '4-plus-week': ['never', 'less-monthly', 'monthly', 'weekly', 'daily'],
};

/** The answers to a question that the earlier AUDIT-C answers leave possible; `null` when they leave any. */
function answersAllowedAfter(questionId: string, answers: Readonly<Record<string, string | number>>): readonly string[] | null {
  const frequency = answers['audit-c-frequency'];
  if (typeof frequency !== 'string') return null;
  if (questionId === 'audit-c-quantity') return frequency === 'never' ? ['1-2'] : null;
  if (questionId === 'audit-c-binge') return bingeAllowedByFrequency[frequency] ?? null;
  return null;
}

/**
 * A simulated patient's answer to a lifestyle question from one uniform draw, given their earlier answers; `null`
 * for a question this population does not describe (an admin's new question, say), or for an answer value it does
 * not know, so the caller falls back to the definition's own likelihoods.
 */
export function simulateLifestyleAnswer(options: {
  questionId: string;
  answerValues: readonly string[];
  answers: Readonly<Record<string, string | number>>;
  uniform: number;
}): string | number | null {
  const { questionId, answerValues, answers, uniform } = options;
  const range = lifestyleMinuteRanges[questionId];
  if (range !== undefined) return Math.round((range[0] + uniform * (range[1] - range[0])) / 5) * 5;
  const shares = lifestyleAnswerShares[questionId];
  if (shares === undefined || answerValues.some((value) => shares[value] === undefined)) return null;
  // The possible answers' shares, renormalised: still one draw.
  const possible = answersAllowedAfter(questionId, answers);
  const allowed = possible === null ? answerValues : answerValues.filter((value) => possible.includes(value));
  if (allowed.length === 0) return null;
  let draw = uniform * allowed.reduce((sum, value) => sum + shares[value]!, 0);
  for (const value of allowed) {
    draw -= shares[value]!;
    if (draw < 0) return value;
  }
  return allowed[allowed.length - 1]!;
}
