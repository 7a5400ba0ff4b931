/**
 * What a survey is, as the engine sees it (docs/decisions/041). A definition is data: the database keeps
 * every version, the engine only reads one.
 */
import type { Persona } from '@/engine/simulation/personas';

/** P(this answer | persona) for every persona the product uses; each question's options sum to 1 per persona. */
export type PersonaLikelihoods = Readonly<Record<Persona, number>>;

export type ChoiceOption = {
  /** Stable within the question: stored as the answer. */
  value: string;
  label: string;
  /** The score the instrument gives this answer (AUDIT-C 0–4, IPAQ days), when it has one. */
  score?: number;
  /** What this answer means, shown with the results. */
  meaning?: string;
  likelihoods: PersonaLikelihoods;
};

/**
 * What a patient's record holds that a question may ask (docs/decisions/068): `patients.age_band`,
 * `patients.preferred_channel`, and the days' supply of the latest dispensing (`dispensings.days_supply`).
 */
export const patientRecordFields = ['age-band', 'preferred-channel', 'days-supply'] as const;
export type PatientRecordField = (typeof patientRecordFields)[number];
/** The record's values of those fields (null or absent: the record does not say). */
export type PatientRecordFacts = Readonly<Partial<Record<PatientRecordField, string | null>>>;

export type ChoiceQuestion = {
  kind: 'choice';
  id: string;
  text: string;
  help?: string;
  /** The instrument (and domain) it belongs to, e.g. 'ipaq', 'audit-c', 'sleep', 'barrier:cost'. */
  topic: string;
  options: readonly ChoiceOption[];
  /**
   * The record field that answers this question: where the patient's record holds it, the answer is taken from
   * the record when the response starts and the question is not asked (docs/decisions/068).
   */
  recordField?: PatientRecordField;
};

/** A number the instrument's scoring needs (IPAQ minutes); it carries no persona likelihood. */
export type NumberQuestion = {
  kind: 'number';
  id: string;
  text: string;
  help?: string;
  topic: string;
  unit: string;
  min: number;
  max: number;
  /** Asked only when the answer to this choice question has a score above 0 (IPAQ: minutes only on days > 0). */
  askedWhenPositive?: string;
};

export type SurveyQuestion = ChoiceQuestion | NumberQuestion;

export type SurveyDefinition = {
  key: string;
  title: string;
  description: string;
  /** fixed: every question in order (instruments whose scoring needs all items); adaptive: by information gain. */
  order: 'fixed' | 'adaptive';
  questions: readonly SurveyQuestion[];
};

/** Answers by question id: a choice's value, or a number. */
export type SurveyAnswers = Readonly<Record<string, string | number>>;
