/** Getting real data in (issue items 6 and 7): FHIR R4 and pharmacy dispensing CSV → normalised records. Pure. */
export { type DateFormat, dateFormatDescriptions, dateFormats } from './calendar-date';
export {
  DispensingCsvReader,
  adhereRColumns,
  csvHeaderOf,
  medicationCodesOptions,
  parseDispensingCsv,
  type DispensingCsvChecks,
  type DispensingCsvColumns,
  type DispensingCsvMapping,
  type DispensingCsvRow,
  type MedicationCodes,
} from './dispensing-csv';
export { type DateFormatGuess, guessDateFormat } from './guess-date-format';
export {
  ImportProblemsError,
  ProblemList,
  describeProblems,
  earliestPlausibleDate,
  implausibleDateReason,
  latestPlausibleDate,
  maximumDaysSupply,
  maximumListedProblems,
  problemLocation,
  type ImportProblem,
  type ImportSetting,
} from './import-problems';
export { type DispensingCsvPreview, type DispensingPreviewRow, previewDispensingCsv } from './preview-dispensing-csv';
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
