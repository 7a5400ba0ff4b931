/** Getting real data in (issue items 6 and 7): FHIR R4 and pharmacy dispensing CSV → normalised records. Pure. */
export { type DateFormat, dateFormats } from './calendar-date';
export {
  CsvInputError,
  DispensingCsvReader,
  adhereRColumns,
  parseDispensingCsv,
  type DispensingCsvColumns,
  type DispensingCsvMapping,
  type DispensingCsvRow,
} from './dispensing-csv';
export { FhirInputError, readFhirInput, supportedBundleTypes, type FhirEntry, type FhirResource } from './fhir-input';
export type {
  DispensingRecord,
  DoseEventRecord,
  DoseStatus,
  EntryOutcome,
  ImportPlan,
  MedicationRecord,
  PatientRecord,
  RegimenRecord,
} from './import-records';
export { buildImportReport, type ImportReport } from './import-report';
export { type MedicationConcept, hasProductCode, medicationCodeOf, normaliseNdc } from './medication-codes';
export { FhirImportPlanner, importedResourceTypes, planFhirImport, type FhirPlanOptions } from './plan-fhir-import';
