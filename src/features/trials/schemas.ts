/**
 * The inputs of the trial's mutating use cases (browser-safe: the enrolment form checks with the same
 * schemas before sending). Every message names its field.
 */
import { z } from '@/lib/zod';
import { clinicianCriterionIds, trialExclusionReasonValues, trialExitKindValues } from './protocol';

const isoDatePattern = /^\d{4}-\d{2}-\d{2}$/;
const isoDate = (field: string) =>
  z
    .string({ message: `${field} must be a date (YYYY-MM-DD).` })
    .regex(isoDatePattern, { message: `${field} must be a date (YYYY-MM-DD).` })
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), {
      message: `${field} must be a real calendar date.`,
    });

const trialId = z
  .string({ message: 'trialId must be a trial id.' })
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { message: 'trialId must be a trial id (lower-case letters, digits and hyphens).' })
  .max(60, { message: 'trialId must be at most 60 characters.' });
const patientId = z.string().uuid({ message: 'patientId must be a patient id.' });
const reason = (field: string) =>
  z
    .string({ message: `${field} is required.` })
    .trim()
    .min(1, { message: `${field} is required.` })
    .max(500, { message: `${field} must be at most 500 characters.` });

const analysisPlan = z
  .string({ message: 'analysisPlan is required.' })
  .trim()
  .min(20, { message: 'analysisPlan must state the analysis (at least 20 characters).' })
  .max(20_000, { message: 'analysisPlan must be at most 20,000 characters.' });

export const createTrialSchema = z
  .object({
    id: trialId,
    name: z.string({ message: 'name is required.' }).trim().min(3, { message: 'name must be at least 3 characters.' }).max(120, {
      message: 'name must be at most 120 characters.',
    }),
    startDate: isoDate('startDate'),
    targetEnrolment: z
      .number({ message: 'targetEnrolment must be a whole number.' })
      .int({ message: 'targetEnrolment must be a whole number.' })
      .min(2, { message: 'targetEnrolment must be at least 2 (one per arm).' })
      .max(100_000, { message: 'targetEnrolment must be at most 100,000.' }),
    recruitmentClosedOn: isoDate('recruitmentClosedOn').nullable().optional(),
    analysisPlan,
  })
  .strict()
  .refine((input) => input.recruitmentClosedOn == null || input.recruitmentClosedOn >= input.startDate, {
    message: 'recruitmentClosedOn must not be before startDate.',
    path: ['recruitmentClosedOn'],
  });
export type CreateTrialInput = z.input<typeof createTrialSchema>;

/** The `[trialId]` of a trial's routes (the analysis-dataset download): a bad one is refused naming it. */
export const trialRouteParamsSchema = z.object({ trialId }).strict();

export const updateTrialAnalysisPlanSchema = z.object({ trialId, analysisPlan }).strict();
export type UpdateTrialAnalysisPlanInput = z.input<typeof updateTrialAnalysisPlanSchema>;

const confirmed = (id: string) => z.literal(true, { message: `clinicianChecks.${id} must be confirmed to enrol.` });

export const enrolTrialParticipantSchema = z
  .object({
    trialId,
    patientId,
    /** The clinician's checklist: every criterion they confirm, each true. */
    clinicianChecks: z
      .object(
        Object.fromEntries(clinicianCriterionIds.map((id) => [id, confirmed(id)])) as Record<
          (typeof clinicianCriterionIds)[number],
          z.ZodLiteral<true>
        >,
        {
          message: 'clinicianChecks must answer every clinician-confirmed criterion.',
        },
      )
      .strict(),
    consentRecorded: z.literal(true, { message: 'consentRecorded must be confirmed: the patient’s informed consent is recorded.' }),
  })
  .strict();
export type EnrolTrialParticipantInput = z.input<typeof enrolTrialParticipantSchema>;

export const recordTrialExclusionSchema = z
  .object({
    trialId,
    patientId,
    reason: z.enum(trialExclusionReasonValues, { message: `reason must be one of ${trialExclusionReasonValues.join(', ')}.` }),
    detail: z.string().trim().max(500, { message: 'detail must be at most 500 characters.' }).optional(),
  })
  .strict()
  .refine((input) => input.reason !== 'other' || (input.detail !== undefined && input.detail !== ''), {
    message: 'detail is required when the reason is other.',
    path: ['detail'],
  });
export type RecordTrialExclusionInput = z.input<typeof recordTrialExclusionSchema>;

export const recordTrialExitSchema = z
  .object({
    trialId,
    patientId,
    kind: z.enum(trialExitKindValues, { message: `kind must be one of ${trialExitKindValues.join(', ')}.` }),
    reason: reason('reason'),
    on: isoDate('on'),
  })
  .strict();
export type RecordTrialExitInput = z.input<typeof recordTrialExitSchema>;
