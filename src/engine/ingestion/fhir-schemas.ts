/**
 * zod schemas for the parts of FHIR R4 resources the importer reads. Only those fields are checked (the
 * rest of a resource is ignored), so a resource is refused for a malformed field we use, never for one we
 * do not.
 */
import { z } from 'zod';

export const codingSchema = z.object({ system: z.string().optional(), code: z.string().optional(), display: z.string().optional() });
export const codeableConceptSchema = z.object({ coding: z.array(codingSchema).optional(), text: z.string().optional() });
export const referenceSchema = z.object({ reference: z.string().optional(), display: z.string().optional() });
export const quantitySchema = z.object({
  value: z.number().optional(),
  unit: z.string().optional(),
  system: z.string().optional(),
  code: z.string().optional(),
});
export const periodSchema = z.object({ start: z.string().optional(), end: z.string().optional() });

export const timingSchema = z.object({
  event: z.array(z.string()).optional(),
  code: codeableConceptSchema.optional(),
  repeat: z
    .object({
      boundsPeriod: periodSchema.optional(),
      boundsDuration: quantitySchema.optional(),
      frequency: z.number().optional(),
      period: z.number().optional(),
      periodUnit: z.string().optional(),
      dayOfWeek: z.array(z.string()).optional(),
      timeOfDay: z.array(z.string()).optional(),
      when: z.array(z.string()).optional(),
    })
    .optional(),
});

export const dosageSchema = z.object({
  sequence: z.number().optional(),
  text: z.string().optional(),
  timing: timingSchema.optional(),
  asNeededBoolean: z.boolean().optional(),
  doseAndRate: z
    .array(
      z.object({
        doseQuantity: quantitySchema.optional(),
        doseRange: z.object({ low: quantitySchema.optional(), high: quantitySchema.optional() }).optional(),
      }),
    )
    .optional(),
});

const medicationFields = { medicationCodeableConcept: codeableConceptSchema.optional(), medicationReference: referenceSchema.optional() };

export const patientSchema = z.object({
  resourceType: z.literal('Patient'),
  id: z.string().optional(),
  gender: z.string().optional(),
  birthDate: z.string().optional(),
  address: z.array(z.object({ state: z.string().optional(), country: z.string().optional() })).optional(),
  communication: z.array(z.object({ language: codeableConceptSchema.optional(), preferred: z.boolean().optional() })).optional(),
});

export const medicationSchema = z.object({
  resourceType: z.literal('Medication'),
  id: z.string().optional(),
  code: codeableConceptSchema.optional(),
  form: codeableConceptSchema.optional(),
});

export const medicationRequestSchema = z.object({
  resourceType: z.literal('MedicationRequest'),
  id: z.string().optional(),
  status: z.string().optional(),
  intent: z.string().optional(),
  ...medicationFields,
  subject: referenceSchema.optional(),
  authoredOn: z.string().optional(),
  dosageInstruction: z.array(dosageSchema).optional(),
  dispenseRequest: z
    .object({
      validityPeriod: periodSchema.optional(),
      numberOfRepeatsAllowed: z.number().int().nonnegative().optional(),
      quantity: quantitySchema.optional(),
      expectedSupplyDuration: quantitySchema.optional(),
    })
    .optional(),
});

export const medicationDispenseSchema = z.object({
  resourceType: z.literal('MedicationDispense'),
  id: z.string().optional(),
  status: z.string().optional(),
  ...medicationFields,
  subject: referenceSchema.optional(),
  authorizingPrescription: z.array(referenceSchema).optional(),
  quantity: quantitySchema.optional(),
  daysSupply: quantitySchema.optional(),
  whenPrepared: z.string().optional(),
  whenHandedOver: z.string().optional(),
  dosageInstruction: z.array(dosageSchema).optional(),
});

export const medicationStatementSchema = z.object({
  resourceType: z.literal('MedicationStatement'),
  id: z.string().optional(),
  status: z.string().optional(),
  ...medicationFields,
  subject: referenceSchema.optional(),
  effectiveDateTime: z.string().optional(),
  effectivePeriod: periodSchema.optional(),
  dateAsserted: z.string().optional(),
  dosage: z.array(dosageSchema).optional(),
});

export const medicationAdministrationSchema = z.object({
  resourceType: z.literal('MedicationAdministration'),
  id: z.string().optional(),
  status: z.string().optional(),
  ...medicationFields,
  subject: referenceSchema.optional(),
  effectiveDateTime: z.string().optional(),
  effectivePeriod: periodSchema.optional(),
  request: referenceSchema.optional(),
});

const claimItemSchema = z.object({
  sequence: z.number().optional(),
  productOrService: codeableConceptSchema.optional(),
  servicedDate: z.string().optional(),
  servicedPeriod: periodSchema.optional(),
  quantity: quantitySchema.optional(),
});

const supportingInformationSchema = z.object({
  category: codeableConceptSchema.optional(),
  code: codeableConceptSchema.optional(),
  timingDate: z.string().optional(),
  valueQuantity: quantitySchema.optional(),
});

/** Claim and ExplanationOfBenefit share the fields a pharmacy fill is read from. */
const claimFields = {
  id: z.string().optional(),
  status: z.string().optional(),
  type: codeableConceptSchema.optional(),
  patient: referenceSchema.optional(),
  prescription: referenceSchema.optional(),
  created: z.string().optional(),
  billablePeriod: periodSchema.optional(),
  supportingInfo: z.array(supportingInformationSchema).optional(),
  item: z.array(claimItemSchema).optional(),
};

export const claimSchema = z.object({ resourceType: z.literal('Claim'), ...claimFields });
export const explanationOfBenefitSchema = z.object({
  resourceType: z.literal('ExplanationOfBenefit'),
  ...claimFields,
  claim: referenceSchema.optional(),
  outcome: z.string().optional(),
});

export type Quantity = z.infer<typeof quantitySchema>;
export type Timing = z.infer<typeof timingSchema>;
export type Dosage = z.infer<typeof dosageSchema>;
export type Reference = z.infer<typeof referenceSchema>;
export type CodeableConcept = z.infer<typeof codeableConceptSchema>;
export type PatientResource = z.infer<typeof patientSchema>;
export type MedicationResource = z.infer<typeof medicationSchema>;
export type MedicationRequestResource = z.infer<typeof medicationRequestSchema>;
export type MedicationDispenseResource = z.infer<typeof medicationDispenseSchema>;
export type MedicationStatementResource = z.infer<typeof medicationStatementSchema>;
export type MedicationAdministrationResource = z.infer<typeof medicationAdministrationSchema>;
export type ClaimResource = z.infer<typeof claimSchema>;
export type ExplanationOfBenefitResource = z.infer<typeof explanationOfBenefitSchema>;

/** The first problem of a failed parse as "field.path: message". */
export function describeSchemaError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid resource';
  const path = issue.path.map(String).join('.');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}
