/**
 * The survey definitions shipped with the product: the built-in versions of each survey reach the database
 * from here (docs/decisions/041, 055). Admins edit later versions in the database; this file is not changed by
 * them.
 *
 * Likelihoods P(answer | persona) are modelling judgements written from each persona's description in
 * src/engine/simulation/personas.ts (the forgetful older adult forgets, the sceptic doubts the need and fears
 * harm, the cost-constrained stretches supplies, the busy professional loses the routine, the newly diagnosed
 * is unsure and doubtful, the engaged self-manager reports few barriers). Lifestyle items are not used to
 * infer the persona: their likelihoods are equal across personas on purpose (information gain 0).
 */
import { ageBands, type Persona, personaParameters, personas } from '@/engine/simulation/personas';
import { ageBandAnswerValue } from './record-answers';
import type { ChoiceOption, ChoiceQuestion, NumberQuestion, PatientRecordField, PersonaLikelihoods, SurveyDefinition } from './types';

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

type Answer = { value: string; label: string; meaning: string };

/**
 * A question about the patient's circumstances rather than a barrier scale (version 2, docs/decisions/055):
 * its own answers, with P(answer | persona) per persona in the answers' order. Its topic is not `barrier:`,
 * so results summarise it by the answer given.
 */
function circumstance(
  id: string,
  text: string,
  answers: readonly Answer[],
  table: Readonly<Record<Persona, readonly number[]>>,
  help?: string,
): ChoiceQuestion {
  return {
    kind: 'choice',
    id,
    topic: `about:${id}`,
    text,
    ...(help === undefined ? {} : { help }),
    options: answers.map((answer, index) => ({
      ...answer,
      likelihoods: Object.fromEntries(personas.map((persona) => [persona, table[persona][index]!])) as Record<Persona, number>,
    })),
  };
}

/** Version 1 of the barrier survey, as first shipped (kept: existing databases hold it as version 1). */
// Columns: often, sometimes, never. Persona order as in personas.ts.
export const adherenceBarriersSurveyVersion1: SurveyDefinition = {
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

/** A version 1 barrier question, reused unchanged in version 2. */
function versionOneQuestion(id: string): ChoiceQuestion {
  const question = adherenceBarriersSurveyVersion1.questions.find((candidate) => candidate.id === id);
  if (question?.kind !== 'choice') throw new Error(`No barrier question ${id} in version 1`);
  return question;
}

const mostSomeRarely = (what: string): Answer[] => [
  { value: 'most-days', label: 'Most days', meaning: `${what} most days.` },
  { value: 'some-days', label: 'Some days', meaning: `${what} on some days.` },
  { value: 'rarely', label: 'Rarely or never', meaning: `${what} rarely or never.` },
];

/*
 * Version 2 (docs/decisions/055): the eight version 1 questions unchanged and in the same order among
 * themselves, and fourteen questions about the patient's circumstances that separate the personas whose barrier
 * answers overlap (the busy professional, the forgetful older adult, the newly diagnosed and the
 * cost-constrained all forget, run out or doubt). Each table row is P(answer | persona) in the answers' order.
 * Where a number is read off a persona parameter (personas.ts) the comment says which and how; the rest are
 * judgements from the persona's description, ordered by the parameter named. Written by us; no licensed
 * instrument (decision 041).
 *
 * Authored (fixed) order, section by section as a designer would write it: about you and the treatment (age
 * group, time on treatment); remembering (forgetting, everyday memory, help); the day's routine (routine, work
 * and travel, weekend timing); beliefs (concerns, need, managing without medicines, stopping and why); cost and
 * supply (cost, choosing between essentials, running out, refill timing, supply length); knowing how to take it
 * (understanding); the week (missed days); self-care (checking readings); and how we contact you (channel,
 * helpful messages). Version 1's questions keep their order among themselves.
 */
const treatmentTime = circumstance(
  'treatment-time',
  'How long have you been taking the medicine these questions are about?',
  [
    { value: 'under-6-months', label: 'Less than 6 months', meaning: 'You started this medicine recently.' },
    { value: '6-24-months', label: '6 months to 2 years', meaning: 'You have taken this medicine for a while.' },
    { value: 'over-2-years', label: 'More than 2 years', meaning: 'You have taken this medicine for a long time.' },
  ],
  {
    // Newly diagnosed: the simulator treats them as new users (newUserStopWindowDays 90, ninetyDayShare 0.05:
    // still on first 30-day supplies). Most started within 6 months; some within 2 years (judgement).
    'newly-diagnosed': [0.75, 0.2, 0.05],
    // The rest are established users; a longer history the older the persona (ageBandWeights). Judgement.
    'busy-professional': [0.1, 0.35, 0.55],
    'forgetful-older-adult': [0.05, 0.15, 0.8],
    // The sceptic stops often (monthlyStopProbability 0.5) and restarts rarely: those on it may have restarted.
    'medication-sceptic': [0.15, 0.35, 0.5],
    'cost-constrained': [0.1, 0.3, 0.6],
    // Established routine: ninetyDayShare 0.55, calendarRefillShare 0.85.
    'engaged-self-manager': [0.05, 0.2, 0.75],
  },
);

const everydayMemory = circumstance(
  'everyday-memory',
  'How often do you forget everyday things, such as an appointment, where you put something, or whether you have already done something?',
  [
    { value: 'often', label: 'Often', meaning: 'You often forget everyday things: a reminder or a routine can help with doses too.' },
    { value: 'sometimes', label: 'Sometimes', meaning: 'You sometimes forget everyday things.' },
    { value: 'rarely', label: 'Rarely or never', meaning: 'You rarely forget everyday things.' },
  ],
  {
    // The persona whose forgetting is memory (forgetProbability 0.12, the highest; 65 and over: ageBandWeights).
    'forgetful-older-adult': [0.55, 0.35, 0.1],
    // Forgets doses (0.08) through a busy, shifting day (weekendShiftMinutes 90), not memory: judgement.
    'busy-professional': [0.15, 0.45, 0.4],
    // forgetProbability 0.06, 0.07, 0.03, 0.08: occasional everyday lapses, ordered by it (judgement).
    'medication-sceptic': [0.08, 0.37, 0.55],
    'cost-constrained': [0.1, 0.38, 0.52],
    'engaged-self-manager': [0.04, 0.26, 0.7],
    'newly-diagnosed': [0.1, 0.4, 0.5],
  },
);

const medicineHelp = circumstance(
  'medicine-help',
  'Does someone help you remember or organise your medicines, such as family, a carer or your pharmacist?',
  [
    { value: 'most-days', label: 'Yes, most days', meaning: 'Someone helps you with your medicines most days.' },
    { value: 'sometimes', label: 'Sometimes', meaning: 'Someone helps you with your medicines now and then.' },
    { value: 'no', label: 'No', meaning: 'You manage your medicines on your own.' },
  ],
  {
    // Older (ageBandWeights: 76% are 65 or over), forgets most, responds to reminders (0.65) and to social framing
    // (1.1): the persona most likely to have help. Judgement.
    'forgetful-older-adult': [0.4, 0.3, 0.3],
    // Younger personas managing alone; the newly diagnosed may be helped while learning (judgement).
    'busy-professional': [0.04, 0.11, 0.85],
    'medication-sceptic': [0.04, 0.11, 0.85],
    'cost-constrained': [0.07, 0.18, 0.75],
    // Manages for themselves (appLoggingProbability 0.9).
    'engaged-self-manager': [0.03, 0.12, 0.85],
    'newly-diagnosed': [0.1, 0.25, 0.65],
  },
);

const workAndTravel = circumstance(
  'work-travel',
  'In a usual week, how often do long or irregular working hours, shifts or travel keep you away from home when a dose is due?',
  mostSomeRarely('Work or travel keeps you away when a dose is due'),
  {
    // Working age (ageBandWeights 18–54), the largest weekend shift (90 minutes) and the most life events a year
    // (4, travel among them): judgement from the description.
    'busy-professional': [0.5, 0.35, 0.15],
    // 65 and over, weekendShiftMinutes 15, 2 life events a year.
    'forgetful-older-adult': [0.03, 0.12, 0.85],
    // Weekend shifts 45, 45, 30 and 60 minutes, ages spread: ordered by the shift (judgement).
    'medication-sceptic': [0.12, 0.33, 0.55],
    'cost-constrained': [0.12, 0.33, 0.55],
    'engaged-self-manager': [0.08, 0.27, 0.65],
    'newly-diagnosed': [0.15, 0.35, 0.5],
  },
);

const withoutMedicines = circumstance(
  'without-medicines',
  'If it were up to you, would you rather manage your health without medicines, for example with diet, exercise or natural remedies?',
  [
    {
      value: 'yes',
      label: 'Yes, much rather',
      meaning: 'You would much rather manage without medicines: worth talking over with your care team.',
    },
    { value: 'maybe', label: 'Maybe', meaning: 'You would perhaps rather manage without medicines.' },
    { value: 'no', label: 'No', meaning: 'You see medicines as part of managing your health.' },
  ],
  {
    // Ordered by the necessity–concerns balance (`concerns`): sceptic 0.75, newly diagnosed 0.45,
    // cost-constrained 0.35, busy professional 0.3, forgetful older adult 0.2, engaged self-manager 0.1.
    // "Yes" ≈ concerns² and "No" ≈ (1 − concerns)², the rest "Maybe" — a judgement of the shape.
    'medication-sceptic': [0.56, 0.38, 0.06],
    'newly-diagnosed': [0.2, 0.5, 0.3],
    'cost-constrained': [0.12, 0.46, 0.42],
    'busy-professional': [0.09, 0.42, 0.49],
    'forgetful-older-adult': [0.04, 0.32, 0.64],
    'engaged-self-manager': [0.01, 0.18, 0.81],
  },
);

const costTradeOff = circumstance(
  'cost-trade-off',
  'In the last 12 months, have you had to choose between paying for your medicines and paying for other essentials such as food, rent or heating?',
  [
    {
      value: 'more-than-once',
      label: 'More than once',
      meaning: 'Paying for medicines has competed with essentials: your care team can look at cheaper options and help.',
    },
    { value: 'once', label: 'Once', meaning: 'Paying for medicines competed with essentials once.' },
    { value: 'no', label: 'No', meaning: 'Paying for medicines has not competed with essentials.' },
  ],
  {
    // From `costBarrier` c (0 none, 1 every refill a struggle): more than once 0.8c, once 0.3c, no 1 − 1.1c.
    // The coefficients are a judgement; the ordering is the parameter's.
    'cost-constrained': [0.56, 0.21, 0.23], // c 0.7
    'newly-diagnosed': [0.16, 0.06, 0.78], // c 0.2
    'forgetful-older-adult': [0.12, 0.045, 0.835], // c 0.15
    'medication-sceptic': [0.12, 0.045, 0.835], // c 0.15
    'busy-professional': [0.08, 0.03, 0.89], // c 0.1
    'engaged-self-manager': [0.04, 0.015, 0.945], // c 0.05
  },
);

const selfMonitoring = circumstance(
  'self-monitoring',
  'How often do you check your own readings (such as blood pressure, blood sugar or weight) or note down the doses you take?',
  mostSomeRarely('You check your readings or note your doses'),
  {
    // From `appLoggingProbability` a (the chance of logging a taken dose): Binomial(2, a) — most days a²,
    // some days 2a(1 − a), rarely (1 − a)² — as if two chances to check; the shape is a judgement.
    'engaged-self-manager': [0.81, 0.18, 0.01], // a 0.9
    'newly-diagnosed': [0.49, 0.42, 0.09], // a 0.7
    'busy-professional': [0.3025, 0.495, 0.2025], // a 0.55
    'forgetful-older-adult': [0.2025, 0.495, 0.3025], // a 0.45
    'cost-constrained': [0.2025, 0.495, 0.3025], // a 0.45
    'medication-sceptic': [0.1225, 0.455, 0.4225], // a 0.35
  },
);

/** A persona parameter's relative weights as probabilities, with a floor so no answer rules a persona out. */
function fromWeights(weights: readonly number[]): number[] {
  // An answer with probability 0 would make one contrary (or mistaken) answer exclude a persona for good; 0.01
  // is the floor (judgement), taken from the other answers in proportion.
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const floor = 0.01;
  const raw = weights.map((weight) => weight / total);
  const lifted = raw.filter((p) => p < floor).length;
  const rest = raw.filter((p) => p >= floor).reduce((sum, p) => sum + p, 0);
  return raw.map((p) => (p < floor ? floor : (p * (1 - lifted * floor)) / rest));
}

const ageBand = circumstance(
  'age-band',
  'Which age group are you in?',
  // Answer values are identifiers (lower case, digits, hyphens: the admin editor's rule), so 75+ is 75-plus.
  ageBands.map((band) =>
    band === '75+'
      ? { value: ageBandAnswerValue(band), label: '75 or over', meaning: 'Aged 75 or over.' }
      : { value: ageBandAnswerValue(band), label: band.replace('-', ' to '), meaning: `Aged ${band.replace('-', ' to ')}.` },
  ),
  // Straight from `ageBandWeights` (the simulator draws each patient's age band from them), floored at 0.01.
  Object.fromEntries(personas.map((persona) => [persona, fromWeights(personaParameters[persona].ageBandWeights)])) as Record<
    Persona,
    number[]
  >,
);

const contactChannel = circumstance(
  'contact-channel',
  'How would you most like your care team to send you messages?',
  [
    { value: 'sms', label: 'Text message (SMS)', meaning: 'You prefer text messages.' },
    { value: 'whatsapp', label: 'WhatsApp', meaning: 'You prefer WhatsApp.' },
    { value: 'app', label: 'The app', meaning: 'You prefer the app.' },
  ],
  // Straight from `channelWeights` (the simulator draws each patient's preferred channel from them).
  Object.fromEntries(
    personas.map((persona) => {
      const weights = personaParameters[persona].channelWeights;
      return [persona, fromWeights([weights.sms, weights.whatsapp, weights.app])];
    }),
  ) as Record<Persona, number[]>,
);

const refillTiming = circumstance(
  'refill-timing',
  'When do you usually order or collect your next supply?',
  [
    { value: 'set-date', label: 'On a set date', meaning: 'You refill on a set date or when reminded.' },
    { value: 'running-low', label: 'When running low', meaning: 'You refill when your pills run low.' },
    { value: 'after-out', label: 'After running out', meaning: 'You often refill only after running out: ordering earlier avoids gaps.' },
  ],
  {
    // "On a set date" is `calendarRefillShare` (refill by the calendar or pharmacy reminders). The rest refill
    // by their pills: `refillAheadDays` < 0 (sceptic, cost-constrained: only after running out) puts most of
    // it after running out (0.6 of the rest, judgement); ≥ 0 puts most of it before (0.85 of the rest).
    'busy-professional': [0.65, 0.2975, 0.0525],
    'forgetful-older-adult': [0.8, 0.17, 0.03],
    'medication-sceptic': [0.2, 0.32, 0.48],
    'cost-constrained': [0.2, 0.32, 0.48],
    'engaged-self-manager': [0.85, 0.1275, 0.0225],
    'newly-diagnosed': [0.6, 0.34, 0.06],
  },
);

const stopReason = circumstance(
  'stop-reason',
  'Have you ever stopped taking this medicine for a week or more on your own? If so, what was the main reason?',
  [
    { value: 'not-stopped', label: 'I have not stopped', meaning: 'You have not stopped your medicine on your own.' },
    {
      value: 'worries',
      label: 'Worries about harm',
      meaning: 'You stopped because of worries about the medicine: your care team can talk them through.',
    },
    { value: 'cost', label: 'The cost', meaning: 'You stopped because of the cost: your care team can look at cheaper options.' },
    {
      value: 'unsure-needed',
      label: 'Unsure I needed it',
      meaning: 'You stopped because you were unsure you needed it: ask your care team what it does for you.',
    },
    { value: 'life-busy', label: 'Life got in the way', meaning: 'You stopped when life got busy and the supply lapsed.' },
  ],
  {
    // `monthlyStopProbability` and its comment give each persona's reason: concerns (sceptic, 0.5 a month),
    // cost (cost-constrained, 0.35), early doubts (newly diagnosed, 0.2), a busy life that lets refills lapse
    // (busy professional, 0.04); the engaged self-manager and the forgetful older adult stop only with a life
    // event. Share who ever stopped (0.7, 0.6, 0.45, 0.3, 0.05, 0.05) is a judgement ordered by that chance; a
    // stopper gives the persona's own reason 0.7 of the time (the sceptic's split between worries and doubts
    // about need), the rest spread evenly (judgement).
    'medication-sceptic': [0.3, 0.42, 0.035, 0.21, 0.035],
    'cost-constrained': [0.4, 0.045, 0.42, 0.045, 0.09],
    'newly-diagnosed': [0.55, 0.0675, 0.0225, 0.315, 0.045],
    'busy-professional': [0.7, 0.0225, 0.0225, 0.045, 0.21],
    'forgetful-older-adult': [0.95, 0.0125, 0.0125, 0.0125, 0.0125],
    'engaged-self-manager': [0.95, 0.0125, 0.0125, 0.0125, 0.0125],
  },
);

const messageHelp = circumstance(
  'message-help',
  'Which kind of message from your care team would help you most with your medicines?',
  [
    { value: 'reminder', label: 'Dose reminders', meaning: 'Reminders at dose time help you most.' },
    { value: 'refill', label: 'Refill reminders', meaning: 'Reminders before your supply runs out help you most.' },
    { value: 'education', label: 'About my medicine', meaning: 'Knowing what your medicine does and why helps you most.' },
    { value: 'encouragement', label: 'Encouragement', meaning: 'Encouragement helps you most.' },
    { value: 'check-in', label: 'A check-in', meaning: 'Being asked how you are getting on helps you most.' },
  ],
  // Straight from `categoryFit` (how much each category of message moves the persona), normalised: a patient
  // is taken to name the kind that helps them most in proportion to how much it does (judgement of the shape).
  Object.fromEntries(
    personas.map((persona) => {
      const fit = personaParameters[persona].categoryFit;
      return [persona, fromWeights([fit.reminder, fit.refill, fit.education, fit.encouragement, fit['check-in']])];
    }),
  ) as Record<Persona, number[]>,
);

/**
 * P(the weekend dose is at most `minutes` later) when the shift is exponential with the persona's median
 * `weekendShiftMinutes` (the distribution's shape is a judgement; the median is the parameter).
 */
function shiftAtMost(persona: Persona, minutes: number): number {
  return 1 - 2 ** (-minutes / personaParameters[persona].weekendShiftMinutes);
}

const weekendTiming = circumstance(
  'weekend-timing',
  'At weekends, when do you usually take your morning dose compared with weekdays?',
  [
    { value: 'same', label: 'About the same time', meaning: 'Your weekend doses keep to your weekday time.' },
    { value: 'up-to-hour', label: 'Up to an hour later', meaning: 'Your weekend doses are up to an hour later.' },
    { value: 'over-hour', label: 'Over an hour later', meaning: 'Your weekend doses are over an hour later: a weekend reminder can help.' },
  ],
  // From `weekendShiftMinutes` (busy professional 90, newly diagnosed 60, sceptic and cost-constrained 45,
  // engaged self-manager 30, forgetful older adult 15): within 20 minutes, 20–60, over 60.
  Object.fromEntries(
    personas.map((persona) => {
      const within20 = shiftAtMost(persona, 20);
      const within60 = shiftAtMost(persona, 60);
      return [persona, [within20, within60 - within20, 1 - within60]];
    }),
  ) as Record<Persona, number[]>,
);

const supplyLength = circumstance(
  'supply-length',
  'How much of this medicine do you usually get at a time?',
  [
    { value: 'month', label: 'About a month', meaning: 'You get about a month at a time.' },
    { value: 'three-months', label: 'About three months', meaning: 'You get about three months at a time.' },
  ],
  // Straight from `ninetyDayShare` (the share on 90-day rather than 30-day supplies).
  Object.fromEntries(
    personas.map((persona) => [persona, [1 - personaParameters[persona].ninetyDayShare, personaParameters[persona].ninetyDayShare]]),
  ) as Record<Persona, number[]>,
);

/** Version 2 of the barrier survey, as shipped (kept: databases hold it as version 2; docs/decisions/055). */
export const adherenceBarriersSurveyVersion2: SurveyDefinition = {
  ...adherenceBarriersSurveyVersion1,
  description:
    'Questions about what makes taking your medicines harder and about your day. The questions are chosen one by one from your earlier answers, so most people answer 3 to 5.',
  questions: [
    ageBand,
    treatmentTime,
    versionOneQuestion('forgetting'),
    everydayMemory,
    medicineHelp,
    versionOneQuestion('routine'),
    workAndTravel,
    weekendTiming,
    versionOneQuestion('concerns'),
    versionOneQuestion('need'),
    withoutMedicines,
    stopReason,
    versionOneQuestion('cost'),
    costTradeOff,
    versionOneQuestion('running-out'),
    refillTiming,
    supplyLength,
    versionOneQuestion('understanding'),
    versionOneQuestion('missed-days'),
    selfMonitoring,
    contactChannel,
    messageHelp,
  ],
};

/*
 * Version 3 (docs/decisions/062): version 2's twenty-two questions unchanged and in the same order among
 * themselves, and seven questions about the patient's circumstances read off persona parameters that no
 * question used yet — deliberate skipping (`skipProbability`), life events (`lifeEventsPerYear`), how much a
 * reminder helps (`reminderResponsiveness`), replying to messages (`replyProbability`), restarting after a stop
 * (`monthlyRestartProbability`), the delay in collecting a refill (`refillLagDays`) and message framing
 * (`framingFit`). Every row is computed from the parameter by the rule its comment gives (the rule's shape is a
 * judgement; the number is the parameter's), written before the figures were measured and not changed after.
 * Each new question sits with its topic in the authored order (decision 062 lists it).
 */

/** P(the count falls in each band) for a Poisson count of this mean; `upperBounds` close every band but the last. */
function poissonBands(mean: number, upperBounds: readonly number[]): number[] {
  const probabilityOf = (count: number) => {
    let probability = Math.exp(-mean);
    for (let k = 1; k <= count; k += 1) probability *= mean / k;
    return probability;
  };
  const bands: number[] = [];
  let from = 0;
  for (const upper of upperBounds) {
    let band = 0;
    for (let count = from; count <= upper; count += 1) band += probabilityOf(count);
    bands.push(band);
    from = upper + 1;
  }
  bands.push(1 - bands.reduce((sum, band) => sum + band, 0));
  return fromWeights(bands);
}

/**
 * Most times / sometimes / rarely from a per-occasion chance p as Binomial(2, p) — p², 2p(1 − p), (1 − p)² — as
 * if two occasions to recall, the shape `self-monitoring` uses (a judgement); floored like the others.
 */
function twoChances(probability: number): number[] {
  return fromWeights([probability ** 2, 2 * probability * (1 - probability), (1 - probability) ** 2]);
}

/** A row per persona computed from that persona's parameters. */
function fromParameters(row: (parameters: (typeof personaParameters)[Persona]) => number[]): Record<Persona, number[]> {
  return Object.fromEntries(personas.map((persona) => [persona, row(personaParameters[persona])])) as Record<Persona, number[]>;
}

const mostTimesSometimesRarely = (what: string): Answer[] => [
  { value: 'most-times', label: 'Most times', meaning: `${what} most times.` },
  { value: 'sometimes', label: 'Sometimes', meaning: `${what} sometimes.` },
  { value: 'rarely', label: 'Rarely or never', meaning: `${what} rarely or never.` },
];

const reminderHelp = circumstance(
  'reminder-help',
  'When something reminds you at the time of a dose (an alarm, a message or someone at home), how often does it get you to take a dose you would otherwise have missed?',
  mostTimesSometimesRarely('A reminder at dose time gets you to take a dose you would have missed'),
  // `reminderResponsiveness` r (the share of forgetting a timely reminder prevents): Binomial(2, r) — forgetful
  // older adult 0.65, busy professional and newly diagnosed 0.55, engaged self-manager 0.4, cost-constrained
  // 0.35, sceptic 0.2.
  fromParameters((parameters) => twoChances(parameters.reminderResponsiveness)),
);

const lifeUpsets = circumstance(
  'life-upsets',
  'In the last 12 months, how many times did something out of the ordinary (travel, an illness, a stressful time, a new job or shifts) upset your usual day for a few days or more?',
  [
    { value: 'none-or-once', label: 'None or once', meaning: 'Your usual day was upset once or not at all last year.' },
    { value: '2-3', label: '2 or 3 times', meaning: 'Your usual day was upset 2 or 3 times last year.' },
    {
      value: '4-plus',
      label: '4 times or more',
      meaning: 'Your usual day was upset 4 times or more last year: a plan for doses away from home can help.',
    },
  ],
  // The simulator's life events arrive as a Poisson process at `lifeEventsPerYear` (life-events.ts): a year's
  // count is Poisson with that mean — busy professional 4, sceptic and cost-constrained 3, engaged self-manager and
  // newly diagnosed 2.5, forgetful older adult 2 — banded 0–1, 2–3, 4 or more.
  fromParameters((parameters) => poissonBands(parameters.lifeEventsPerYear, [1, 3])),
);

const skippedOnPurpose = circumstance(
  'skipped-on-purpose',
  'In the last 30 days, on how many days did you decide not to take a dose, not counting the days you forgot?',
  [
    { value: 'none', label: 'None', meaning: 'You did not leave out a dose on purpose in the last 30 days.' },
    { value: '1-2', label: '1 or 2 days', meaning: 'You left out a dose on purpose on 1 or 2 days.' },
    {
      value: '3-plus',
      label: '3 days or more',
      meaning: 'You left out doses on purpose on 3 days or more: your care team would like to hear why.',
    },
  ],
  // `skipProbability` s (the median chance of deliberately skipping a dose occasion): over 30 days of one dose
  // occasion each, the count is Poisson with mean 30s (one occasion a day and the Poisson shape are judgements) —
  // sceptic 3.6, cost-constrained and newly diagnosed 1.2, busy professional 0.6, forgetful older adult 0.3,
  // engaged self-manager 0.15 — banded 0, 1–2, 3 or more.
  fromParameters((parameters) => poissonBands(30 * parameters.skipProbability, [0, 2])),
);

const restartSoon = circumstance(
  'restart-soon',
  'If something made you stop this medicine for a while, such as an illness or a busy time, how soon would you expect to start it again?',
  [
    { value: 'within-month', label: 'Within a month', meaning: 'You would expect to start again within a month.' },
    { value: 'within-6-months', label: 'Within 6 months', meaning: 'You would expect to start again within 6 months.' },
    {
      value: 'maybe-not',
      label: 'Maybe not at all',
      meaning: 'You might not start again after a break: tell your care team before you stop.',
    },
  ],
  // `monthlyRestartProbability` r (the chance per month that a patient who stopped starts again): restarted by
  // month m with chance 1 − (1 − r)^m, so within a month r, within 6 months (1 − r) − (1 − r)^6, later or not at
  // all (1 − r)^6 — engaged self-manager 0.2, busy professional 0.1, forgetful older adult 0.08, cost-constrained
  // 0.03, newly diagnosed 0.025, sceptic 0.015. That a patient expects what they would do is a judgement.
  fromParameters((parameters) => {
    const staysOff = 1 - parameters.monthlyRestartProbability;
    return fromWeights([parameters.monthlyRestartProbability, staysOff - staysOff ** 6, staysOff ** 6]);
  }),
);

const collectDelay = circumstance(
  'collect-delay',
  'Once you set out to get a new supply of this medicine, how long does it usually take until you have it?',
  [
    { value: 'same-day', label: 'The same day', meaning: 'You usually have a new supply the day you set out to get it.' },
    { value: '1-3-days', label: '1 to 3 days later', meaning: 'A new supply usually takes you 1 to 3 days.' },
    {
      value: '4-plus-days',
      label: '4 days or more',
      meaning: 'A new supply usually takes you 4 days or more: ordering earlier avoids gaps.',
    },
  ],
  // `refillLagDays` L (mean days between setting out and collecting): the simulator collects with chance
  // q = 1 / (1 + L) each day from the day the patient sets out (the median patient), so the same day q, 1–3
  // days later (1 − q)(1 − (1 − q)³), 4 or more (1 − q)⁴ — cost-constrained 3, sceptic 2.5, forgetful older adult
  // 2, busy professional and newly diagnosed 1.5, engaged self-manager 1.
  fromParameters((parameters) => {
    const sameDay = 1 / (1 + parameters.refillLagDays);
    const later = 1 - sameDay;
    return fromWeights([sameDay, later * (1 - later ** 3), later ** 4]);
  }),
);

const replyHabit = circumstance(
  'reply-habit',
  'When a text or WhatsApp message from a service asks you to reply, how often do you reply?',
  mostTimesSometimesRarely('You reply to a message that asks for a reply'),
  // `replyProbability` p (the chance of replying to a read message that asks for a reply): Binomial(2, p) —
  // engaged self-manager 0.45, newly diagnosed 0.35, forgetful older adult 0.3, cost-constrained 0.2, busy
  // professional 0.15, sceptic 0.08.
  fromParameters((parameters) => twoChances(parameters.replyProbability)),
);

const messageFraming = circumstance(
  'message-framing',
  'Which kind of message would most encourage you to keep taking your medicine?',
  [
    { value: 'neutral', label: 'Just the facts', meaning: 'Plain facts encourage you most.' },
    { value: 'gain', label: 'What I gain', meaning: 'Hearing what you gain encourages you most.' },
    { value: 'loss', label: 'What I could lose', meaning: 'Hearing what you could lose encourages you most.' },
    { value: 'social', label: 'What others do', meaning: 'Hearing what others like you do encourages you most.' },
  ],
  // Straight from `framingFit` (how much each framing helps the persona), normalised, as `message-help` reads
  // `categoryFit` (a judgement of the shape). The fits differ little, so this question carries little persona
  // information; it is asked for the message policy.
  fromParameters((parameters) => {
    const fit = parameters.framingFit;
    return fromWeights([fit.neutral, fit.gain, fit.loss, fit.social]);
  }),
);

/** The barrier survey now shipped: version 3 (docs/decisions/062). */
export const adherenceBarriersSurveyVersion3: SurveyDefinition = {
  ...adherenceBarriersSurveyVersion2,
  questions: [
    // About you and the treatment.
    ageBand,
    treatmentTime,
    // Remembering.
    versionOneQuestion('forgetting'),
    everydayMemory,
    medicineHelp,
    reminderHelp,
    // The day's routine.
    versionOneQuestion('routine'),
    workAndTravel,
    weekendTiming,
    lifeUpsets,
    // Beliefs, skipping and stopping.
    versionOneQuestion('concerns'),
    skippedOnPurpose,
    versionOneQuestion('need'),
    withoutMedicines,
    stopReason,
    restartSoon,
    // Cost and supply.
    versionOneQuestion('cost'),
    costTradeOff,
    versionOneQuestion('running-out'),
    refillTiming,
    collectDelay,
    supplyLength,
    // Knowing how to take it, the week, self-care.
    versionOneQuestion('understanding'),
    versionOneQuestion('missed-days'),
    selfMonitoring,
    // How we contact you.
    contactChannel,
    replyHabit,
    messageHelp,
    messageFraming,
  ],
};

/** The record field that answers each of version 3's questions the record can answer (docs/decisions/068). */
const recordFieldOf: Readonly<Record<string, PatientRecordField>> = {
  'age-band': 'age-band',
  'contact-channel': 'preferred-channel',
  'supply-length': 'days-supply',
};

/**
 * Version 4 (docs/decisions/068): version 3's 29 questions unchanged, but the age group, the preferred channel and
 * the usual supply are taken from the patient's record where it holds them (`patients.age_band`,
 * `patients.preferred_channel`, the latest dispensing's `days_supply`) and not asked; a patient whose record lacks
 * one is asked it as before.
 */
export const adherenceBarriersSurvey: SurveyDefinition = {
  ...adherenceBarriersSurveyVersion3,
  questions: adherenceBarriersSurveyVersion3.questions.map((question) => {
    const recordField = recordFieldOf[question.id];
    return question.kind === 'choice' && recordField !== undefined ? { ...question, recordField } : question;
  }),
};

/** A built-in version of a survey: what reaches every database, in version order (see survey-store). */
export type BuiltInSurveyVersion = { version: number; definition: SurveyDefinition; changeNote: string | null };

/**
 * Every built-in version, oldest first. Version 1 of each survey is seeded into an empty database; a later
 * built-in version is added after the one before it only where nobody has edited the survey since
 * (docs/decisions/055). Never change a listed version: add the next one.
 */
export const builtInSurveyVersions: readonly BuiltInSurveyVersion[] = [
  { version: 1, definition: lifestyleSurvey, changeNote: null },
  { version: 1, definition: adherenceBarriersSurveyVersion1, changeNote: null },
  {
    version: 2,
    definition: adherenceBarriersSurveyVersion2,
    changeNote:
      'Built-in update: 14 questions about the patient’s circumstances added (age group, time on treatment, everyday memory, help with medicines, work and travel, weekend timing, managing without medicines, stopping and why, choosing between medicines and essentials, refill timing, supply length, checking readings, contact channel, helpful messages) so the persona can be told apart; the 8 barrier questions are unchanged.',
  },
  {
    version: 3,
    definition: adherenceBarriersSurveyVersion3,
    changeNote:
      'Built-in update: 7 questions added (reminders at dose time, upsets to the usual day, doses left out on purpose, starting again after a break, time to collect a new supply, replying to messages, encouraging messages) so the persona can be told apart more often; the 22 questions of version 2 are unchanged.',
  },
  {
    version: 4,
    definition: adherenceBarriersSurvey,
    changeNote:
      'Built-in update: the age group, the preferred way to be contacted and how much medicine the patient gets at a time are taken from the patient’s record when it holds them, and not asked; the 29 questions of version 3 are otherwise unchanged.',
  },
];

/** The newest built-in definition of each survey. */
export const builtInSurveys: readonly SurveyDefinition[] = [lifestyleSurvey, adherenceBarriersSurvey];
