import type { MedicationConcept } from './medication-codes';

/**
 * Normalised records an import writes, each under the source's own record id (the idempotency key).
 * `entry` is the position of the input entry (FHIR) or row (CSV) it came from, so the report can say
 * what became of every entry.
 */

export type PatientSex = 'female' | 'male' | 'other';

export type PatientRecord = {
  sourceRecordId: string;
  /** null for a patient the file only refers to (its rows still need a patient). */
  entry: number | null;
  sex: PatientSex | null;
  ageBand: string | null;
  region: string | null;
  language: string | null;
};

/** A Medication resource: becomes a product (matched or created). */
export type MedicationRecord = { entry: number; sourceRecordId: string; medication: MedicationConcept };

export type IntendedSupply = { daysPerFill: number | null; quantityPerFill: number | null; repeatsAllowed: number | null };

export type RegimenRecord = {
  entry: number;
  sourceRecordId: string;
  patient: string;
  medication: MedicationConcept;
  dosesPerDay: number;
  /** True when the source stated no frequency and one dose a day was assumed. */
  dosesPerDayAssumed: boolean;
  doseTimes: string[];
  startDate: string;
  endDate: string | null;
  intendedSupply: IntendedSupply | null;
};

export type DispensingRecord = {
  entry: number;
  sourceRecordId: string;
  patient: string;
  medication: MedicationConcept | null;
  dispensedOn: string;
  daysSupply: number;
  quantity: number | null;
  dosesPerDay: number | null;
};

export type DoseStatus = 'taken' | 'missed' | 'skipped' | 'unknown';

export type DoseEventRecord = {
  entry: number;
  sourceRecordId: string;
  patient: string;
  medication: MedicationConcept | null;
  scheduledAt: string;
  confirmedAt: string | null;
  status: DoseStatus;
};

/** What the file said about one entry before anything is written. */
export type EntryOutcome = { resourceType: string; id: string; skipReason: string | null };

export type ImportPlan = {
  entries: EntryOutcome[];
  patients: PatientRecord[];
  medications: MedicationRecord[];
  regimens: RegimenRecord[];
  dispensings: DispensingRecord[];
  doseEvents: DoseEventRecord[];
};
