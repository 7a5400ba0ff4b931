/**
 * FHIR R4 → normalised records (pure): which patients, products, regimens, dispensings and dose events an
 * upload holds, and why any entry cannot be used. The database step decides created versus unchanged.
 */
import type { z } from 'zod';
import { addDays, ageInYears, calendarDateOf, instantOf } from './calendar-date';
import { dosesPerDayOfDosages, doseTimesOfDosages, durationInDays, supplyDaysOfQuantity } from './dosage';
import { type FhirEntry, type FhirResource, readFhirInput } from './fhir-input';
import { ReferenceIndex } from './fhir-references';
import {
  type ClaimResource,
  type CodeableConcept,
  type Dosage,
  type ExplanationOfBenefitResource,
  type MedicationRequestResource,
  type Reference,
  claimSchema,
  describeSchemaError,
  explanationOfBenefitSchema,
  medicationAdministrationSchema,
  medicationDispenseSchema,
  medicationRequestSchema,
  medicationSchema,
  medicationStatementSchema,
  patientSchema,
} from './fhir-schemas';
import type { DoseStatus, EntryOutcome, ImportPlan, IntendedSupply, PatientRecord, PatientSex } from './import-records';
import { ProblemList, implausibleDateReason, maximumDaysSupply } from './import-problems';
import { type MedicationConcept, conceptFromCodeableConcept, conceptFromText, hasProductCode } from './medication-codes';

export const importedResourceTypes = [
  'Patient',
  'Medication',
  'MedicationRequest',
  'MedicationDispense',
  'MedicationStatement',
  'MedicationAdministration',
  'Claim',
  'ExplanationOfBenefit',
] as const;

/** Age bands of the patient list (the simulator's bands, with children apart). */
const ageBands: { upTo: number; band: string }[] = [
  { upTo: 17, band: '0-17' },
  { upTo: 34, band: '18-34' },
  { upTo: 44, band: '35-44' },
  { upTo: 54, band: '45-54' },
  { upTo: 64, band: '55-64' },
  { upTo: 74, band: '65-74' },
  { upTo: Number.POSITIVE_INFINITY, band: '75+' },
];

export type FhirPlanOptions = {
  /** The caller's "today" (ISO date): age bands are computed on it, and record dates after the next day are refused. */
  referenceDate: string;
};

/** A record's date, remembered to check it against its patient's birth date once every Patient is read. */
type DatedFact = { patient: string; date: string; resource: string; field: string };

/** A record-level refusal: the entry is reported as skipped with this reason. */
class SkipEntry extends Error {}

function skip(reason: string): never {
  throw new SkipEntry(reason);
}

function parseWith<T>(schema: z.ZodType<T>, resource: FhirResource): T {
  const parsed = schema.safeParse(resource);
  if (!parsed.success) skip(`invalid ${describeSchemaError(parsed.error)}`);
  return parsed.data;
}

/**
 * Interprets the entries of one upload. Work can be done a slice at a time (`interpretEntries`) so a
 * caller can yield to the event loop between slices; `planFhirImport` does it in one go.
 */
export class FhirImportPlanner {
  readonly plan: ImportPlan = { entries: [], patients: [], medications: [], regimens: [], dispensings: [], doseEvents: [] };
  private readonly references: ReferenceIndex;
  private readonly patientEntries = new Set<string>();
  private readonly referencedPatients = new Set<string>();
  private readonly entryOfResource = new Map<FhirResource, FhirEntry>();
  private finished = false;
  /**
   * Problems that refuse the whole file (implausible dates, absurd supplies, unknown patients): unlike a skipped
   * entry, they mean the source is wrong somewhere, so nothing of it is stored until it is fixed.
   */
  readonly problems = new ProblemList();
  private readonly birthDates = new Map<string, string>();
  private readonly datedFacts: DatedFact[] = [];
  /** Patients referred to but not in the file, with who refers to them: they must already be stored. */
  private readonly externalPatientReferences: { patient: string; resource: string; field: string }[] = [];

  constructor(
    readonly entries: FhirEntry[],
    private readonly options: FhirPlanOptions,
  ) {
    this.references = new ReferenceIndex(entries);
    for (const entry of entries) if (entry.resource !== null) this.entryOfResource.set(entry.resource, entry);
  }

  get entryCount(): number {
    return this.entries.length;
  }

  /** Interprets entries [start, end). */
  interpretEntries(start: number, end: number): void {
    for (let position = start; position < Math.min(end, this.entries.length); position += 1) {
      const entry = this.entries[position] as FhirEntry;
      this.plan.entries[position] = this.interpretEntry(entry, position);
    }
  }

  /**
   * Patients the file refers to without describing them: the caller says which of these are already stored;
   * `unknownPatients` then refuses the rest.
   */
  get referencedOnlyPatients(): string[] {
    return [...this.referencedPatients].filter((key) => !this.patientEntries.has(key));
  }

  /**
   * Adds a problem for every reference to a patient neither in the file nor among `storedPatients` (a typo in
   * a reference would otherwise create a patient no one knows).
   */
  checkPatientsKnown(storedPatients: ReadonlySet<string>): void {
    for (const reference of this.externalPatientReferences) {
      if (this.patientEntries.has(reference.patient) || storedPatients.has(reference.patient)) continue;
      this.problems.add({
        resource: reference.resource,
        field: reference.field,
        message: `${reference.field} ${reference.patient} is neither in the file nor imported before from this source`,
      });
    }
  }

  /** Adds the patients only referred to; call once after every entry is interpreted. */
  finish(): ImportPlan {
    if (!this.finished) {
      this.finished = true;
      for (const fact of this.datedFacts) {
        const birthDate = this.birthDates.get(fact.patient);
        if (birthDate !== undefined && fact.date < birthDate) {
          this.problems.add({
            resource: fact.resource,
            field: fact.field,
            message: `${fact.field} ${fact.date} is before the patient's birth (${birthDate})`,
          });
        }
      }
      for (const key of this.referencedPatients) {
        if (!this.patientEntries.has(key)) {
          this.plan.patients.push({ sourceRecordId: key, entry: null, sex: null, ageBand: null, region: null, language: null });
        }
      }
    }
    return this.plan;
  }

  private interpretEntry(entry: FhirEntry, position: number): EntryOutcome {
    const resource = entry.resource;
    if (resource === null) {
      const requestType = entry.requestUrl?.split(/[/?]/)[0] || 'unknown';
      const reason = entry.method === 'DELETE' ? 'DELETE entries are not applied' : 'the entry has no resource';
      return { resourceType: requestType, id: entry.requestUrl ?? entry.fullUrl ?? `entry ${position + 1}`, skipReason: reason };
    }
    const id = typeof resource.id === 'string' && resource.id !== '' ? resource.id : (entry.fullUrl ?? `entry ${position + 1}`);
    const outcome: EntryOutcome = { resourceType: resource.resourceType, id, skipReason: null };
    try {
      if (!(importedResourceTypes as readonly string[]).includes(resource.resourceType)) {
        skip(resource.resourceType === 'Bundle' ? 'a Bundle inside a Bundle is not imported' : 'resource type not imported');
      }
      const key = this.references.keyOf(resource) ?? skip('no id and no urn:uuid fullUrl to identify it by');
      this.interpretResource(resource, { key, entry, position, from: { resource, fullUrl: entry.fullUrl } });
    } catch (error) {
      if (!(error instanceof SkipEntry)) throw error;
      outcome.skipReason = error.message;
    }
    return outcome;
  }

  private interpretResource(resource: FhirResource, context: EntryContext): void {
    switch (resource.resourceType) {
      case 'Patient':
        return this.interpretPatient(resource, context);
      case 'Medication':
        return this.interpretMedication(resource, context);
      case 'MedicationRequest':
        return this.interpretMedicationRequest(resource, context);
      case 'MedicationDispense':
        return this.interpretMedicationDispense(resource, context);
      case 'MedicationStatement':
        return this.interpretMedicationStatement(resource, context);
      case 'MedicationAdministration':
        return this.interpretMedicationAdministration(resource, context);
      case 'Claim':
      case 'ExplanationOfBenefit':
        return this.interpretPharmacyClaim(resource, context);
    }
  }

  // -------------------------------------------------------------------------------------------------
  // Resources

  private interpretPatient(resource: FhirResource, context: EntryContext): void {
    const patient = parseWith(patientSchema, resource);
    const birthDate = calendarDateOf(patient.birthDate);
    if (birthDate !== null) {
      this.birthDates.set(context.key, birthDate);
      const latest = addDays(this.options.referenceDate, 1);
      if (birthDate > latest)
        this.problems.add({
          resource: context.key,
          field: 'birthDate',
          message: `birthDate ${birthDate} is in the future (after ${latest})`,
        });
    }
    const age = birthDate === null ? null : ageInYears(birthDate, this.options.referenceDate);
    const address = patient.address?.[0];
    const communication = patient.communication?.find((item) => item.preferred === true) ?? patient.communication?.[0];
    const record: PatientRecord = {
      sourceRecordId: context.key,
      entry: context.position,
      sex:
        patient.gender === 'female' || patient.gender === 'male' || patient.gender === 'other'
          ? (patient.gender satisfies PatientSex)
          : null,
      ageBand: age === null || age < 0 ? null : (ageBands.find((band) => age <= band.upTo)?.band ?? null),
      // State and country only: anything finer could identify someone.
      region: [address?.state, address?.country].filter((part) => part !== undefined && part.trim() !== '').join(', ') || null,
      language: communication?.language?.coding?.[0]?.code ?? communication?.language?.text ?? null,
    };
    this.patientEntries.add(context.key);
    this.plan.patients.push(record);
  }

  private interpretMedication(resource: FhirResource, context: EntryContext): void {
    const medication = parseWith(medicationSchema, resource);
    const concept = conceptFromCodeableConcept(medication.code) ?? skip('the Medication has no code and no name');
    this.plan.medications.push({ entry: context.position, sourceRecordId: context.key, medication: concept });
  }

  private interpretMedicationRequest(resource: FhirResource, context: EntryContext): void {
    const request = parseWith(medicationRequestSchema, resource);
    if (request.status === 'entered-in-error' || request.status === 'cancelled' || request.status === 'draft') {
      skip(`status is ${request.status}: not a prescription in force`);
    }
    if (request.intent === 'proposal' || request.intent === 'option') skip(`intent is ${request.intent}: not a prescription`);
    const patient = this.patientOf(request.subject, context, 'subject');
    const medication =
      this.medicationOf(request, context) ?? skip('the medication is not identified (no code, name or resolvable reference)');
    const dosage = request.dosageInstruction;
    const bounds = dosage?.[0]?.timing?.repeat;
    const startDate =
      calendarDateOf(bounds?.boundsPeriod?.start) ??
      calendarDateOf(request.dispenseRequest?.validityPeriod?.start) ??
      calendarDateOf(request.authoredOn) ??
      skip('no start date (dosage bounds, dispenseRequest.validityPeriod or authoredOn)');
    // A prescription may start later than today; it cannot have been written later.
    this.checkDate(context, patient, 'authoredOn', calendarDateOf(request.authoredOn));
    this.checkDate(context, patient, 'start date', startDate, { future: false });
    const intendedSupply = intendedSupplyOf(request);
    const statedDosesPerDay = dosesPerDayOfDosages(dosage);
    this.plan.regimens.push({
      entry: context.position,
      sourceRecordId: context.key,
      patient,
      medication,
      dosesPerDay: statedDosesPerDay ?? 1,
      dosesPerDayAssumed: statedDosesPerDay === null,
      doseTimes: doseTimesOfDosages(dosage),
      startDate,
      endDate: endDateOf(startDate, dosage, intendedSupply),
      intendedSupply,
    });
  }

  private interpretMedicationDispense(resource: FhirResource, context: EntryContext): void {
    const dispense = parseWith(medicationDispenseSchema, resource);
    const status = dispense.status ?? 'unknown';
    if (status !== 'completed' && status !== 'in-progress' && status !== 'unknown') {
      skip(`status is ${status}: nothing was handed over`);
    }
    // An in-progress dispense counts once it has been handed over; a completed one may only say when prepared.
    const handedOver = calendarDateOf(dispense.whenHandedOver);
    const dispensedOn =
      handedOver ??
      (status === 'completed' ? calendarDateOf(dispense.whenPrepared) : null) ??
      skip(
        status === 'completed'
          ? 'no whenHandedOver or whenPrepared date'
          : `status is ${status} and there is no whenHandedOver: not handed over yet`,
      );
    const patient = this.patientOf(dispense.subject, context, 'subject');
    this.checkDate(context, patient, handedOver === null ? 'whenPrepared' : 'whenHandedOver', dispensedOn);
    const prescription = this.prescriptionOf(dispense.authorizingPrescription?.[0], context);
    const medication =
      this.medicationOf(dispense, context) ??
      (prescription === null ? null : this.medicationOf(prescription.request, prescription.context));
    if (medication === null) skip('the medication is not identified (no code, name or resolvable reference)');
    // A negative or zero supply or quantity is a reversal or a mistake, not a fill: skipped, not stored.
    const statedValue = dispense.daysSupply?.value;
    if (statedValue !== undefined && statedValue <= 0) skip(`daysSupply is ${statedValue}: not a days supply (a number of days > 0)`);
    const quantityValue = dispense.quantity?.value;
    if (quantityValue !== undefined && quantityValue <= 0) skip(`quantity is ${quantityValue}: nothing was dispensed`);
    const stated = durationInDays(dispense.daysSupply);
    const daysSupply =
      stated ??
      supplyDaysOfQuantity(dispense.quantity, dispense.dosageInstruction) ??
      (prescription === null ? null : intendedSupplyOf(prescription.request).daysPerFill) ??
      skip('no days supply: no daysSupply, no quantity with a dosage, and no expected supply duration on the prescription');
    this.checkDaysSupply(context, 'daysSupply', daysSupply);
    this.plan.dispensings.push({
      entry: context.position,
      sourceRecordId: context.key,
      patient,
      medication,
      dispensedOn,
      daysSupply: wholeDaysSupply(daysSupply),
      quantity: dispense.quantity?.value ?? null,
      dosesPerDay:
        dosesPerDayOfDosages(dispense.dosageInstruction) ??
        (prescription === null ? null : dosesPerDayOfDosages(prescription.request.dosageInstruction)),
    });
  }

  private interpretMedicationStatement(resource: FhirResource, context: EntryContext): void {
    const statement = parseWith(medicationStatementSchema, resource);
    if (statement.status === 'entered-in-error' || statement.status === 'not-taken') skip(`status is ${statement.status}`);
    const patient = this.patientOf(statement.subject, context, 'subject');
    const medication =
      this.medicationOf(statement, context) ?? skip('the medication is not identified (no code, name or resolvable reference)');
    const startDate =
      calendarDateOf(statement.effectivePeriod?.start) ??
      calendarDateOf(statement.effectiveDateTime) ??
      calendarDateOf(statement.dateAsserted) ??
      skip('no start date (effective[x] or dateAsserted)');
    this.checkDate(context, patient, 'dateAsserted', calendarDateOf(statement.dateAsserted));
    this.checkDate(context, patient, 'effective[x]', startDate, { future: false });
    const endDate = calendarDateOf(statement.effectivePeriod?.end);
    const statedDosesPerDay = dosesPerDayOfDosages(statement.dosage);
    this.plan.regimens.push({
      entry: context.position,
      sourceRecordId: context.key,
      patient,
      medication,
      dosesPerDay: statedDosesPerDay ?? 1,
      dosesPerDayAssumed: statedDosesPerDay === null,
      doseTimes: doseTimesOfDosages(statement.dosage),
      startDate,
      endDate: endDate !== null && endDate >= startDate ? endDate : null,
      intendedSupply: null,
    });
  }

  private interpretMedicationAdministration(resource: FhirResource, context: EntryContext): void {
    const administration = parseWith(medicationAdministrationSchema, resource);
    const status = administration.status ?? 'unknown';
    const doseStatus = administrationStatuses[status] ?? skip(`status is ${status}`);
    const patient = this.patientOf(administration.subject, context, 'subject');
    const scheduledAt =
      instantOf(administration.effectiveDateTime) ?? instantOf(administration.effectivePeriod?.start) ?? skip('no effective date and time');
    this.checkDate(context, patient, 'effective[x]', scheduledAt.slice(0, 10));
    this.plan.doseEvents.push({
      entry: context.position,
      sourceRecordId: context.key,
      patient,
      medication: this.medicationOf(administration, context),
      scheduledAt,
      confirmedAt: doseStatus === 'taken' ? (instantOf(administration.effectivePeriod?.end) ?? scheduledAt) : null,
      status: doseStatus,
    });
  }

  /**
   * A pharmacy Claim or ExplanationOfBenefit is a fill: it becomes a dispensing when it names the dispensed
   * medication (an item's RxNorm/NDC/ATC code, or the linked prescription's), a days supply (supportingInfo
   * "dayssupply", or the prescription's expected supply duration) and a date.
   */
  private interpretPharmacyClaim(resource: FhirResource, context: EntryContext): void {
    const isBenefit = resource.resourceType === 'ExplanationOfBenefit';
    const claim: ClaimResource | ExplanationOfBenefitResource = isBenefit
      ? parseWith(explanationOfBenefitSchema, resource)
      : parseWith(claimSchema, resource);
    const isPharmacy = hasCode(claim.type, 'pharmacy') || claim.prescription?.reference !== undefined;
    if (!isPharmacy) skip('not a pharmacy claim');
    if (claim.status === 'cancelled' || claim.status === 'entered-in-error') skip(`status is ${claim.status}`);
    if (isBenefit && (claim as ExplanationOfBenefitResource).outcome === 'error') skip('outcome is error');
    const patient = this.patientOf(claim.patient, context, 'patient');
    const prescription = this.prescriptionOf(claim.prescription, context);
    // A Claim and its ExplanationOfBenefit describe the same fill: both are stored under the claim's key.
    const claimKey = isBenefit
      ? (this.references.resolve((claim as ExplanationOfBenefitResource).claim?.reference, context.from)?.key ?? context.key)
      : context.key;
    const daysSupply =
      daysSupplyOfClaim(claim) ??
      (prescription === null ? null : intendedSupplyOf(prescription.request).daysPerFill) ??
      skip('pharmacy claim without a days supply (no supportingInfo dayssupply, and no expected supply duration on the prescription)');
    if (daysSupply <= 0) skip(`days supply is ${daysSupply}: not a days supply (a number of days > 0)`);
    this.checkDaysSupply(context, 'supportingInfo dayssupply', daysSupply);
    const prescribed = prescription === null ? null : this.medicationOf(prescription.request, prescription.context);
    const dosesPerDay = prescription === null ? null : dosesPerDayOfDosages(prescription.request.dosageInstruction);
    const claimDate = calendarDateOf(claim.billablePeriod?.start) ?? calendarDateOf(claim.created);
    const drugItems = (claim.item ?? [])
      .map((item, index) => ({ item, index, medication: conceptFromCodeableConcept(item.productOrService) }))
      .filter(
        (candidate): candidate is typeof candidate & { medication: MedicationConcept } =>
          candidate.medication !== null && hasProductCode(candidate.medication),
      );
    if (drugItems.length === 0) {
      if (prescribed === null) skip('no dispensed medication (no item with an RxNorm, NDC or ATC code, and no linked prescription)');
      const firstItem = claim.item?.[0];
      const dispensedOn =
        calendarDateOf(firstItem?.servicedDate) ??
        calendarDateOf(firstItem?.servicedPeriod?.start) ??
        claimDate ??
        skip('no date of service');
      this.checkDate(context, patient, 'date of service', dispensedOn);
      if ((firstItem?.quantity?.value ?? 1) <= 0) skip(`item quantity is ${firstItem?.quantity?.value}: nothing was dispensed`);
      this.plan.dispensings.push({
        entry: context.position,
        sourceRecordId: claimKey,
        patient,
        medication: prescribed,
        dispensedOn,
        daysSupply: wholeDaysSupply(daysSupply),
        quantity: firstItem?.quantity?.value ?? null,
        dosesPerDay,
      });
      return;
    }
    const negative = drugItems.find(({ item }) => (item.quantity?.value ?? 1) <= 0);
    if (negative !== undefined)
      skip(`item ${negative.item.sequence ?? negative.index + 1} quantity is ${negative.item.quantity?.value}: nothing was dispensed`);
    for (const { item, index, medication } of drugItems) {
      const dispensedOn =
        calendarDateOf(item.servicedDate) ?? calendarDateOf(item.servicedPeriod?.start) ?? claimDate ?? skip('no date of service');
      this.checkDate(context, patient, 'date of service', dispensedOn);
      this.plan.dispensings.push({
        entry: context.position,
        sourceRecordId: `${claimKey}/item/${item.sequence ?? index + 1}`,
        patient,
        medication,
        dispensedOn,
        daysSupply: wholeDaysSupply(daysSupply),
        quantity: item.quantity?.value ?? null,
        dosesPerDay,
      });
    }
  }

  // -------------------------------------------------------------------------------------------------
  // References

  private patientOf(reference: Reference | undefined, context: EntryContext, element: string): string {
    const resolved = this.references.resolve(reference?.reference, context.from);
    if (resolved === null) {
      skip(reference?.reference === undefined ? `no ${element} reference` : `${element} ${reference.reference} is not in the file`);
    }
    const resourceType = resolved.kind === 'resource' ? resolved.resource.resourceType : resolved.resourceType;
    if (resourceType !== 'Patient') skip(`${element} is a ${resourceType}, not a Patient`);
    if (resolved.key.includes('#')) skip(`${element} is a contained Patient, which cannot be told apart from others`);
    this.referencedPatients.add(resolved.key);
    if (resolved.kind === 'external') this.externalPatientReferences.push({ patient: resolved.key, resource: context.key, field: element });
    return resolved.key;
  }

  // -------------------------------------------------------------------------------------------------
  // Plausibility: problems that refuse the file

  /** A record date after tomorrow (unless `future: false`), before 1900, or (checked in finish) before the patient's birth. */
  private checkDate(context: EntryContext, patient: string, field: string, date: string | null, options: { future?: boolean } = {}): void {
    if (date === null) return;
    const today = options.future === false ? '9999-12-30' : this.options.referenceDate;
    const reason = implausibleDateReason(date, { today });
    if (reason !== null) this.problems.add({ resource: context.key, field, message: `${field} ${reason}` });
    else this.datedFacts.push({ patient, date, resource: context.key, field });
  }

  private checkDaysSupply(context: EntryContext, field: string, days: number): void {
    if (days > maximumDaysSupply)
      this.problems.add({ resource: context.key, field, message: `${field} ${days} is more than ${maximumDaysSupply} days` });
  }

  private medicationOf(
    resource: { medicationCodeableConcept?: CodeableConcept | undefined; medicationReference?: Reference | undefined },
    context: EntryContext,
  ): MedicationConcept | null {
    const coded = conceptFromCodeableConcept(resource.medicationCodeableConcept);
    if (coded !== null) return coded;
    const reference = resource.medicationReference;
    if (reference === undefined) return null;
    const resolved = this.references.resolve(reference.reference, context.from);
    if (resolved?.kind === 'resource' && resolved.resource.resourceType === 'Medication') {
      const medication = medicationSchema.safeParse(resolved.resource);
      const concept = medication.success ? conceptFromCodeableConcept(medication.data.code) : null;
      if (concept !== null) return concept;
    }
    return conceptFromText(reference.display);
  }

  /** The MedicationRequest a dispense or claim points at, when it is in the file (or contained). */
  private prescriptionOf(
    reference: Reference | undefined,
    context: EntryContext,
  ): { request: MedicationRequestResource; context: EntryContext } | null {
    const resolved = this.references.resolve(reference?.reference, context.from);
    if (resolved?.kind !== 'resource' || resolved.resource.resourceType !== 'MedicationRequest') return null;
    const request = medicationRequestSchema.safeParse(resolved.resource);
    if (!request.success) return null;
    const owner = this.entryOfResource.get(resolved.resource);
    const from = { resource: owner?.resource ?? context.from.resource, fullUrl: owner?.fullUrl ?? context.from.fullUrl };
    return { request: request.data, context: { key: resolved.key, entry: owner ?? context.entry, position: context.position, from } };
  }
}

type EntryContext = {
  key: string;
  entry: FhirEntry;
  position: number;
  /** The resource references are resolved from (its contained resources, its fullUrl's base). */
  from: { resource: FhirResource; fullUrl: string | null };
};

/** FHIR MedicationAdministration status → dose event status (entered-in-error is not a dose at all). */
const administrationStatuses: Record<string, DoseStatus> = {
  completed: 'taken',
  'in-progress': 'taken',
  'not-done': 'missed',
  'on-hold': 'skipped',
  stopped: 'unknown',
  unknown: 'unknown',
};

function hasCode(concept: CodeableConcept | undefined, code: string): boolean {
  return concept?.coding?.some((coding) => coding.code === code) ?? false;
}

/** What the prescription intends to be dispensed per fill (days, quantity) and how often. */
function intendedSupplyOf(request: MedicationRequestResource): IntendedSupply {
  const dispenseRequest = request.dispenseRequest;
  const days =
    durationInDays(dispenseRequest?.expectedSupplyDuration) ?? supplyDaysOfQuantity(dispenseRequest?.quantity, request.dosageInstruction);
  return {
    daysPerFill: days !== null && days > 0 ? days : null,
    quantityPerFill: dispenseRequest?.quantity?.value ?? null,
    repeatsAllowed: dispenseRequest?.numberOfRepeatsAllowed ?? null,
  };
}

/** The last day of a regimen: the dosage's bounds, else the first fill and its allowed repeats. */
function endDateOf(startDate: string, dosage: Dosage[] | undefined, supply: IntendedSupply): string | null {
  const repeat = dosage?.[0]?.timing?.repeat;
  const boundsEnd = calendarDateOf(repeat?.boundsPeriod?.end);
  if (boundsEnd !== null) return boundsEnd >= startDate ? boundsEnd : null;
  const boundsDays = durationInDays(repeat?.boundsDuration);
  if (boundsDays !== null && boundsDays >= 1) return addDays(startDate, Math.ceil(boundsDays) - 1);
  if (supply.daysPerFill !== null)
    return addDays(startDate, Math.max(Math.ceil(supply.daysPerFill * (1 + (supply.repeatsAllowed ?? 0))), 1) - 1);
  return null;
}

const daysSupplyCodes = /^(days?[-_ ]?supply|dayssupply|days_suply_num)$|\/days_suply_num$/i;

/** CARIN Blue Button / CMS Blue Button: supportingInfo whose category (or code) is the days supply. */
function daysSupplyOfClaim(claim: Pick<ClaimResource, 'supportingInfo'>): number | null {
  for (const information of claim.supportingInfo ?? []) {
    const codes = [...(information.category?.coding ?? []), ...(information.code?.coding ?? [])];
    if (!codes.some((coding) => coding.code !== undefined && daysSupplyCodes.test(coding.code))) continue;
    const value = information.valueQuantity?.value;
    if (value !== undefined) return value;
  }
  return null;
}

/** The column holds whole days: fractional supplies round, but a fill always covers at least one day. */
function wholeDaysSupply(days: number): number {
  return Math.max(1, Math.round(days));
}

/** Reads a FHIR upload and interprets every entry at once. */
export function planFhirImport(input: string | unknown, options: FhirPlanOptions): ImportPlan {
  const planner = new FhirImportPlanner(readFhirInput(input), options);
  planner.interpretEntries(0, planner.entryCount);
  return planner.finish();
}
