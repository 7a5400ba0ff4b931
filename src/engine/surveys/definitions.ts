/**
 * The survey definitions shipped with the product: version 1 of each survey in the database is seeded from
 * here (docs/decisions/041). Admins edit later versions in the database; this file is not changed by them.
 *
 * Likelihoods P(answer | persona) are modelling judgements written from each persona's description in
 * src/engine/simulation/personas.ts (the forgetful older adult forgets, the sceptic doubts the need and fears
 * harm, the cost-constrained stretches supplies, the busy professional loses the routine, the newly diagnosed
 * is unsure and doubtful, the engaged self-manager reports few barriers). Lifestyle items are not used to
 * infer the persona: their likelihoods are equal across personas on purpose (information gain 0).
 */
import { type Persona, personas } from '@/engine/simulation/personas';
import type { ChoiceOption, ChoiceQuestion, NumberQuestion, PersonaLikelihoods, SurveyDefinition } from './types';

/** The same probability under every persona: an answer that says nothing about the persona. */
function uninformative(optionCount: number): PersonaLikelihoods {
  return Object.fromEntries(personas.map((persona) => [persona, 1 / optionCount])) as Record<Persona, number>;
}

function choice(
  id: string,
  topic: string,
  text: string,
  options: readonly Omit<ChoiceOption, 'likelihoods'>[],
  help?: string,
): ChoiceQuestion {
  return {
    kind: 'choice',
    id,
    topic,
    text,
    ...(help === undefined ? {} : { help }),
    options: options.map((option) => ({ ...option, likelihoods: uninformative(options.length) })),
  };
}

const dayOptions = Array.from({ length: 8 }, (_, days) => ({
  value: String(days),
  label: days === 0 ? 'None' : days === 1 ? '1 day' : `${days} days`,
  score: days,
}));

function minutes(id: string, text: string, dependsOn: string): NumberQuestion {
  return { kind: 'number', id, topic: 'ipaq', text, unit: 'minutes a day', min: 0, max: 960, askedWhenPositive: dependsOn };
}

export const lifestyleSurvey: SurveyDefinition = {
  key: 'lifestyle',
  title: 'Lifestyle',
  description:
    'Physical activity (IPAQ short form), alcohol (AUDIT-C), sleep, smoking, diet and stress. About 16 short questions; your answers are kept as you go, so you can stop and come back.',
  order: 'fixed',
  questions: [
    choice(
      'ipaq-vigorous-days',
      'ipaq',
      'During the last 7 days, on how many days did you do vigorous physical activities like heavy lifting, digging, aerobics or fast cycling?',
      dayOptions,
      'Count only activities you did for at least 10 minutes at a time.',
    ),
    minutes(
      'ipaq-vigorous-minutes',
      'How much time did you usually spend doing vigorous physical activities on one of those days?',
      'ipaq-vigorous-days',
    ),
    choice(
      'ipaq-moderate-days',
      'ipaq',
      'During the last 7 days, on how many days did you do moderate physical activities like carrying light loads, cycling at a regular pace or doubles tennis? Do not include walking.',
      dayOptions,
      'Count only activities you did for at least 10 minutes at a time.',
    ),
    minutes(
      'ipaq-moderate-minutes',
      'How much time did you usually spend doing moderate physical activities on one of those days?',
      'ipaq-moderate-days',
    ),
    choice(
      'ipaq-walking-days',
      'ipaq',
      'During the last 7 days, on how many days did you walk for at least 10 minutes at a time?',
      dayOptions,
      'Include walking at work and at home, to travel from place to place, and for recreation, sport or leisure.',
    ),
    minutes('ipaq-walking-minutes', 'How much time did you usually spend walking on one of those days?', 'ipaq-walking-days'),
    {
      kind: 'number',
      id: 'ipaq-sitting-minutes',
      topic: 'ipaq',
      text: 'During the last 7 days, how much time did you spend sitting on a week day?',
      help: 'Include time at a desk, visiting friends, reading, or sitting or lying down to watch television.',
      unit: 'minutes a day',
      min: 0,
      max: 1440,
    },
    choice('audit-c-frequency', 'audit-c', 'How often do you have a drink containing alcohol?', [
      { value: 'never', label: 'Never', score: 0 },
      { value: 'monthly', label: 'Monthly or less', score: 1 },
      { value: '2-4-month', label: '2 to 4 times a month', score: 2 },
      { value: '2-3-week', label: '2 to 3 times a week', score: 3 },
      { value: '4-plus-week', label: '4 or more times a week', score: 4 },
    ]),
    choice(
      'audit-c-quantity',
      'audit-c',
      'How many standard drinks containing alcohol do you have on a typical day when you are drinking?',
      [
        { value: '1-2', label: 'None, 1 or 2', score: 0 },
        { value: '3-4', label: '3 or 4', score: 1 },
        { value: '5-6', label: '5 or 6', score: 2 },
        { value: '7-9', label: '7 to 9', score: 3 },
        { value: '10-plus', label: '10 or more', score: 4 },
      ],
    ),
    choice('audit-c-binge', 'audit-c', 'How often do you have six or more drinks on one occasion?', [
      { value: 'never', label: 'Never', score: 0 },
      { value: 'less-monthly', label: 'Less than monthly', score: 1 },
      { value: 'monthly', label: 'Monthly', score: 2 },
      { value: 'weekly', label: 'Weekly', score: 3 },
      { value: 'daily', label: 'Daily or almost daily', score: 4 },
    ]),
    choice('sleep-hours', 'sleep', 'On a usual night in the last month, how many hours did you sleep?', [
      { value: 'under-5', label: 'Less than 5 hours', meaning: 'Much less than the 7 or more hours adults are advised to sleep.' },
      { value: '5-6', label: '5 to 6 hours', meaning: 'Less than the 7 or more hours adults are advised to sleep.' },
      { value: '7-8', label: '7 to 8 hours', meaning: 'Within the 7 or more hours adults are advised to sleep.' },
      { value: '9-plus', label: '9 hours or more', meaning: 'More than most adults need; worth mentioning if you feel tired.' },
    ]),
    choice('sleep-quality', 'sleep', 'How would you rate your sleep quality over the last month?', [
      { value: 'very-good', label: 'Very good', meaning: 'You rate your sleep as very good.' },
      { value: 'fairly-good', label: 'Fairly good', meaning: 'You rate your sleep as fairly good.' },
      { value: 'fairly-bad', label: 'Fairly bad', meaning: 'Poor sleep can make doses easier to miss; your care team can help.' },
      { value: 'very-bad', label: 'Very bad', meaning: 'Poor sleep can make doses easier to miss; your care team can help.' },
    ]),
    choice('smoking', 'smoking', 'Do you smoke tobacco (cigarettes, cigars, pipe or rolling tobacco)?', [
      { value: 'never', label: 'I have never smoked', meaning: 'Non-smoker.' },
      {
        value: 'former',
        label: 'I used to smoke but have stopped',
        meaning: 'Former smoker: staying stopped is one of the best things for your health.',
      },
      {
        value: 'occasional',
        label: 'Yes, occasionally',
        meaning: 'Occasional smoker: stop-smoking services can help, even for occasional smoking.',
      },
      { value: 'daily', label: 'Yes, every day', meaning: 'Daily smoker: stop-smoking services roughly double the chance of quitting.' },
    ]),
    choice('diet-fruit-vegetables', 'diet', 'On a usual day, how many portions of fruit and vegetables do you eat?', [
      { value: '0-1', label: 'None or 1', meaning: 'Well below the 5 portions (about 400 g) a day the WHO advises.' },
      { value: '2-4', label: '2 to 4', meaning: 'Below the 5 portions (about 400 g) a day the WHO advises.' },
      { value: '5-plus', label: '5 or more', meaning: 'Meets the 5 portions (about 400 g) a day the WHO advises.' },
    ]),
    choice(
      'diet-sugary-drinks',
      'diet',
      'In the last 7 days, on how many days did you have a sugary drink (soft drink, juice drink, sweetened tea or coffee)?',
      [
        { value: 'none', label: 'None', meaning: 'No sugary drinks last week.' },
        { value: '1-3', label: '1 to 3 days', meaning: 'Sugary drinks on some days.' },
        { value: '4-plus', label: '4 days or more', meaning: 'Sugary drinks on most days: swapping some for water helps.' },
      ],
    ),
    choice('stress', 'stress', 'In the last two weeks, how often did stress get in the way of your day?', [
      { value: 'never', label: 'Never', meaning: 'Stress did not get in the way.' },
      { value: 'sometimes', label: 'Sometimes', meaning: 'Stress got in the way sometimes.' },
      { value: 'often', label: 'Often', meaning: 'Stress often got in the way; it can also make doses easier to miss.' },
      { value: 'most-days', label: 'Most days', meaning: 'Stress got in the way most days; your care team can point you to support.' },
    ]),
  ],
};

type Frequency = readonly [often: number, sometimes: number, never: number];

/** A barrier question answered often / sometimes / never, with P(answer | persona) per persona. */
function barrier(id: string, label: string, text: string, table: Readonly<Record<Persona, Frequency>>): ChoiceQuestion {
  const column = (index: 0 | 1 | 2) =>
    Object.fromEntries(personas.map((persona) => [persona, table[persona][index]])) as Record<Persona, number>;
  return {
    kind: 'choice',
    id,
    topic: `barrier:${id}`,
    text,
    options: [
      { value: 'often', label: 'Often', score: 2, meaning: `${label}: often a barrier for you.`, likelihoods: column(0) },
      { value: 'sometimes', label: 'Sometimes', score: 1, meaning: `${label}: sometimes a barrier for you.`, likelihoods: column(1) },
      { value: 'never', label: 'Never', score: 0, meaning: `${label}: not a barrier for you.`, likelihoods: column(2) },
    ],
  };
}

// Columns: often, sometimes, never. Persona order as in personas.ts.
export const adherenceBarriersSurvey: SurveyDefinition = {
  key: 'adherence-barriers',
  title: 'What gets in the way of your medicines',
  description:
    'A few questions about what makes taking your medicines harder. The questions are chosen one by one from your earlier answers, so most people answer 3 to 5.',
  order: 'adaptive',
  questions: [
    barrier('forgetting', 'Forgetting', 'In the last two weeks, how often did you forget to take a dose?', {
      'busy-professional': [0.35, 0.45, 0.2],
      'forgetful-older-adult': [0.55, 0.35, 0.1],
      'medication-sceptic': [0.1, 0.3, 0.6],
      'cost-constrained': [0.15, 0.35, 0.5],
      'engaged-self-manager': [0.03, 0.17, 0.8],
      'newly-diagnosed': [0.2, 0.4, 0.4],
    }),
    barrier('routine', 'A change of routine', 'How often does a change in your day (work, travel, weekends) put your doses out of step?', {
      'busy-professional': [0.55, 0.35, 0.1],
      'forgetful-older-adult': [0.2, 0.4, 0.4],
      'medication-sceptic': [0.1, 0.3, 0.6],
      'cost-constrained': [0.15, 0.35, 0.5],
      'engaged-self-manager': [0.05, 0.25, 0.7],
      'newly-diagnosed': [0.2, 0.4, 0.4],
    }),
    barrier(
      'concerns',
      'Concerns about side effects',
      'How often do worries about side effects or long-term harm make you skip or cut down a dose?',
      {
        'busy-professional': [0.05, 0.2, 0.75],
        'forgetful-older-adult': [0.05, 0.15, 0.8],
        'medication-sceptic': [0.55, 0.35, 0.1],
        'cost-constrained': [0.1, 0.25, 0.65],
        'engaged-self-manager': [0.03, 0.12, 0.85],
        'newly-diagnosed': [0.3, 0.4, 0.3],
      },
    ),
    barrier('need', 'Doubts about needing the medicine', 'How often do you feel you do not really need your medicine when you feel well?', {
      'busy-professional': [0.15, 0.35, 0.5],
      'forgetful-older-adult': [0.05, 0.2, 0.75],
      'medication-sceptic': [0.55, 0.35, 0.1],
      'cost-constrained': [0.1, 0.3, 0.6],
      'engaged-self-manager': [0.03, 0.12, 0.85],
      'newly-diagnosed': [0.35, 0.4, 0.25],
    }),
    barrier('cost', 'Cost', 'How often has the cost of your medicine made you delay a refill or make your pills last longer?', {
      'busy-professional': [0.03, 0.12, 0.85],
      'forgetful-older-adult': [0.08, 0.17, 0.75],
      'medication-sceptic': [0.08, 0.17, 0.75],
      'cost-constrained': [0.6, 0.3, 0.1],
      'engaged-self-manager': [0.03, 0.07, 0.9],
      'newly-diagnosed': [0.1, 0.2, 0.7],
    }),
    barrier('running-out', 'Running out', 'How often did you run out of your medicine before you got the next supply?', {
      'busy-professional': [0.3, 0.4, 0.3],
      'forgetful-older-adult': [0.2, 0.4, 0.4],
      'medication-sceptic': [0.2, 0.35, 0.45],
      'cost-constrained': [0.45, 0.4, 0.15],
      'engaged-self-manager': [0.03, 0.12, 0.85],
      'newly-diagnosed': [0.15, 0.35, 0.5],
    }),
    barrier('understanding', 'Being unsure how to take it', 'How often do you feel unsure how or when to take your medicine?', {
      'busy-professional': [0.05, 0.2, 0.75],
      'forgetful-older-adult': [0.2, 0.35, 0.45],
      'medication-sceptic': [0.1, 0.25, 0.65],
      'cost-constrained': [0.05, 0.2, 0.75],
      'engaged-self-manager': [0.02, 0.08, 0.9],
      'newly-diagnosed': [0.45, 0.4, 0.15],
    }),
    // In the manner of the Brief Medication Questionnaire's regimen screen (Svarstad et al. 1999, free to use):
    // missed days in the past week, asked in our own words.
    barrier('missed-days', 'Missed doses last week', 'In the past week, how often did you miss or skip a dose on purpose or by accident?', {
      'busy-professional': [0.2, 0.5, 0.3],
      'forgetful-older-adult': [0.3, 0.45, 0.25],
      'medication-sceptic': [0.35, 0.35, 0.3],
      'cost-constrained': [0.3, 0.4, 0.3],
      'engaged-self-manager': [0.02, 0.13, 0.85],
      'newly-diagnosed': [0.15, 0.4, 0.45],
    }),
  ],
};

export const builtInSurveys: readonly SurveyDefinition[] = [lifestyleSurvey, adherenceBarriersSurvey];
