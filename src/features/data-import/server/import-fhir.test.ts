import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, dispensings, doseEvents, patients, products, regimens } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import type { ImportReport } from '@/engine/ingestion';
import { AppError } from '@/lib/errors';
import { importFhir } from './import-fhir';
import { ImportRefusedError } from './import-refused';

const fhirDirectory = path.resolve(process.cwd(), '../shared/testdata/fhir');
const readFhir = (name: string) => fs.readFileSync(path.join(fhirDirectory, name), 'utf8');
const synthea = 'Bradly_Douglas_18468941-bdaf-42a0-8648-cba7cafc27ce.json';
const usCore = 'uscore_bundle_patient_85.json';

const clinician = { id: 'clinician-1', role: 'clinician' as const };
const now = new Date('2025-06-01T12:00:00Z');

function total(counts: Record<string, number>): number {
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}

function expectEveryEntryAccountedFor(report: ImportReport): void {
  expect(total(report.created) + total(report.unchanged) + report.skipped.length).toBe(report.resources);
}

function skipReasons(report: ImportReport): Record<string, number> {
  const reasons: Record<string, number> = {};
  for (const skipped of report.skipped) {
    const key = `${skipped.resourceType}: ${skipped.reason}`;
    reasons[key] = (reasons[key] ?? 0) + 1;
  }
  return reasons;
}

/** What each shared test file must give (counted by hand from the files; see the comments). */
const conformance: {
  file: string;
  resources: number;
  created: Record<string, number>;
  skipped: number;
  rows: { patients: number; regimens: number; dispensings: number; doseEvents: number };
  /** Patients the file refers to without describing them: imported first, as the file's records need them. */
  storedFirst?: string[];
}[] = [
  // Synthea: 1 Patient, 34 MedicationRequest; 89 Claims (34 pharmacy claims carry no days supply), 55 EOBs
  // (institutional), and 169 resources of other types.
  {
    file: synthea,
    resources: 348,
    created: { Patient: 1, MedicationRequest: 34 },
    skipped: 313,
    rows: { patients: 1, regimens: 34, dispensings: 0, doseEvents: 0 },
  },
  // US Core: 1 Patient, 13 MedicationRequest, 1 Medication, 2 MedicationDispense (one without any days supply).
  {
    file: usCore,
    resources: 264,
    created: { Patient: 1, MedicationRequest: 13, Medication: 1, MedicationDispense: 1 },
    skipped: 248,
    rows: { patients: 1, regimens: 13, dispensings: 1, doseEvents: 0 },
  },
  // HL7 examples: subjects are Patient/pat1, which the files only refer to (so it must be imported before).
  {
    file: 'medicationrequest0301.json',
    resources: 1,
    created: { MedicationRequest: 1 },
    skipped: 0,
    rows: { patients: 1, regimens: 1, dispensings: 0, doseEvents: 0 },
    storedFirst: ['pat1'],
  },
  // In progress and not handed over yet: not a fill.
  {
    file: 'medicationdispense0301.json',
    resources: 1,
    created: {},
    skipped: 1,
    rows: { patients: 0, regimens: 0, dispensings: 0, doseEvents: 0 },
  },
  {
    file: 'medicationstatementexample1.json',
    resources: 1,
    created: { MedicationStatement: 1 },
    skipped: 0,
    rows: { patients: 1, regimens: 1, dispensings: 0, doseEvents: 0 },
    storedFirst: ['pat1'],
  },
  {
    file: 'medicationadministration0301.json',
    resources: 1,
    created: { MedicationAdministration: 1 },
    skipped: 0,
    rows: { patients: 1, regimens: 0, dispensings: 0, doseEvents: 1 },
    storedFirst: ['pat1'],
  },
];

describe.each(testDatabaseBackends())('importFhir on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  const importText = (text: string, overrides: Partial<Parameters<typeof importFhir>[0]> = {}) =>
    importFhir({ database: database.database, actor: clinician, text, now, ...overrides });

  /** Imports bare Patient resources, as a source's patients arrive before the records that refer to them. */
  async function storePatients(ids: string[], source?: string) {
    if (ids.length === 0) return;
    const lines = ids.map((id) => JSON.stringify({ resourceType: 'Patient', id }));
    await importText(`${lines.join('\n')}\n`, source === undefined ? {} : { source });
  }

  async function countRows() {
    const db = database.database;
    return {
      patients: (await db.select({ id: patients.id }).from(patients)).length,
      regimens: (await db.select({ id: regimens.id }).from(regimens)).length,
      dispensings: (await db.select({ id: dispensings.id }).from(dispensings)).length,
      doseEvents: (await db.select({ id: doseEvents.id }).from(doseEvents)).length,
    };
  }

  it.each(conformance)(
    '$file: accounts for every entry, writes the expected rows, and a second import creates nothing',
    async (expected) => {
      const text = readFhir(expected.file);
      await storePatients(expected.storedFirst ?? []);
      const first = await importText(text);
      expect(first.resources).toBe(expected.resources);
      expect(first.created).toEqual(expected.created);
      expect(first.unchanged).toEqual({});
      expect(first.skipped).toHaveLength(expected.skipped);
      expectEveryEntryAccountedFor(first);
      expect(await countRows()).toEqual(expected.rows);

      const second = await importText(text);
      expect(second.created).toEqual({});
      expect(second.unchanged).toEqual(expected.created);
      expect(second.skipped).toEqual(first.skipped);
      expect(await countRows()).toEqual(expected.rows);
    },
  );

  it('Synthea: skips what is not a medication record, with reasons, and keeps RxNorm codes on the regimens', async () => {
    const report = await importText(readFhir(synthea));
    expect(skipReasons(report)).toMatchObject({
      'Claim: not a pharmacy claim': 55,
      'ExplanationOfBenefit: not a pharmacy claim': 55,
      'Claim: pharmacy claim without a days supply (no supportingInfo dayssupply, and no expected supply duration on the prescription)': 34,
      'Observation: resource type not imported': 77,
      'Encounter: resource type not imported': 55,
    });
    const rows = await database.database
      .select({
        productId: regimens.productId,
        medicationCode: regimens.medicationCode,
        startDate: regimens.startDate,
        dosesPerDay: regimens.dosesPerDay,
      })
      .from(regimens)
      .where(eq(regimens.sourceRecordId, 'MedicationRequest/f150b162-12bf-4c21-92be-61a8ffdd73fa'));
    expect(rows).toEqual([{ productId: 'rxnorm-1860154', medicationCode: 'rxnorm:1860154', startDate: '2011-05-21', dosesPerDay: 1 }]);
    const [product] = await database.database
      .select({ rxnormCode: products.rxnormCode, name: products.name })
      .from(products)
      .where(eq(products.id, 'rxnorm-1860154'));
    expect(product).toEqual({
      rxnormCode: '1860154',
      name: 'Abuse-Deterrent 12 HR Oxycodone Hydrochloride 15 MG Extended Release Oral Tablet',
    });
  });

  it('stores no names or other identifiers of the patient, only a pseudonym and coarse demographics', async () => {
    await importText(readFhir(synthea));
    const rows = await database.database
      .select({
        pseudonym: patients.pseudonym,
        sourceRecordId: patients.sourceRecordId,
        sex: patients.sex,
        ageBand: patients.ageBand,
        region: patients.region,
        language: patients.language,
      })
      .from(patients);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      sourceRecordId: 'Patient/326b4675-0bc8-4dbd-b406-a5564c282401',
      sex: 'male',
      ageBand: '18-34',
      region: 'Massachusetts, US',
      language: 'en-US',
    });
    expect(rows[0]?.pseudonym).toMatch(/^P-[0-9A-Z]{12}$/);
    const everything = JSON.stringify(await database.database.select().from(patients));
    for (const identifying of ['Bradly', 'Douglas', '999-18-6861', '555-159-8421', 'Haag', '1993-05-21'])
      expect(everything).not.toContain(identifying);
  });

  it('US Core: resolves urn:uuid references to the Patient and the Medication, and derives days supply from quantity and dosage', async () => {
    await importText(readFhir(usCore));
    const [patient] = await database.database.select({ id: patients.id, sourceRecordId: patients.sourceRecordId }).from(patients);
    expect(patient?.sourceRecordId).toBe('Patient/85');
    const [dispensing] = await database.database
      .select({
        patientId: dispensings.patientId,
        productId: dispensings.productId,
        dispensedOn: dispensings.dispensedOn,
        daysSupply: dispensings.daysSupply,
        quantity: dispensings.quantity,
        dosesPerDay: dispensings.dosesPerDay,
      })
      .from(dispensings);
    // 480 mL at 10 mL twice a day.
    expect(dispensing).toEqual({
      patientId: patient?.id,
      productId: 'rxnorm-313988',
      dispensedOn: '2016-12-08',
      daysSupply: 24,
      quantity: 480,
      dosesPerDay: 2,
    });
    // The MedicationRequest with medicationReference points at the bundle's Medication (RxNorm 1719286).
    const [referenced] = await database.database
      .select({ productId: regimens.productId })
      .from(regimens)
      .where(eq(regimens.sourceRecordId, 'MedicationRequest/3722c630-7ccd-b25e-316d-78fd30a4ff30'));
    expect(referenced?.productId).toBe('rxnorm-1719286');
    // dispenseRequest: four a day, one repeat; the intended supply per fill is kept on the regimen.
    const [withDispenseRequest] = await database.database
      .select({
        dosesPerDay: regimens.dosesPerDay,
        startDate: regimens.startDate,
        daysPerFill: regimens.daysPerFill,
        quantityPerFill: regimens.quantityPerFill,
        repeatsAllowed: regimens.repeatsAllowed,
      })
      .from(regimens)
      .where(eq(regimens.sourceRecordId, 'MedicationRequest/1d8ed63d-3d0e-8b03-4f1d-5a2d86abe786'));
    // Quantity 1 at a dose of 1 four times a day: a quarter of a day per fill, as the record states it.
    expect(withDispenseRequest).toEqual({
      dosesPerDay: 4,
      startDate: '1947-11-01',
      daysPerFill: 0.25,
      quantityPerFill: 1,
      repeatsAllowed: 1,
    });
    const report = await importText(readFhir(usCore));
    expect(report.skipped.filter((entry) => entry.resourceType === 'MedicationDispense')).toEqual([
      {
        resourceType: 'MedicationDispense',
        id: '1bc16d93-9ac8-4dc7-ad90-e649c01f8b19',
        reason: 'no days supply: no daysSupply, no quantity with a dosage, and no expected supply duration on the prescription',
      },
    ]);
  });

  it('HL7 examples: contained medications (NDC) and relative Patient references; one patient across files', async () => {
    await storePatients(['pat1']);
    await importText(readFhir('medicationrequest0301.json'));
    await importText(readFhir('medicationadministration0301.json'));
    await importText(readFhir('medicationstatementexample1.json'));
    const patientRows = await database.database.select({ id: patients.id, sourceRecordId: patients.sourceRecordId }).from(patients);
    expect(patientRows.map((row) => row.sourceRecordId)).toEqual(['Patient/pat1']);

    const [request] = await database.database
      .select({
        productId: regimens.productId,
        medicationCode: regimens.medicationCode,
        dosesPerDay: regimens.dosesPerDay,
        startDate: regimens.startDate,
        endDate: regimens.endDate,
        daysPerFill: regimens.daysPerFill,
        quantityPerFill: regimens.quantityPerFill,
        repeatsAllowed: regimens.repeatsAllowed,
      })
      .from(regimens)
      .where(eq(regimens.sourceRecordId, 'MedicationRequest/medrx0301'));
    // SNOMED only: no product; every 4 hours = 6 a day; 10 days' supply of 30 tablets, no repeats.
    expect(request).toEqual({
      productId: null,
      medicationCode: 'http://snomed.info/sct|430127000',
      dosesPerDay: 6,
      startDate: '2015-01-15',
      endDate: '2015-01-24',
      daysPerFill: 10,
      quantityPerFill: 30,
      repeatsAllowed: 0,
    });

    const [statement] = await database.database
      .select({ productId: regimens.productId, dosesPerDay: regimens.dosesPerDay, startDate: regimens.startDate })
      .from(regimens)
      .where(eq(regimens.sourceRecordId, 'MedicationStatement/example001'));
    expect(statement).toEqual({ productId: 'ndc-50580050602', dosesPerDay: 1, startDate: '2015-01-23' });

    const [dose] = await database.database
      .select({
        patientId: doseEvents.patientId,
        productId: doseEvents.productId,
        status: doseEvents.status,
        scheduledAt: doseEvents.scheduledAt,
        confirmedAt: doseEvents.confirmedAt,
        source: doseEvents.source,
      })
      .from(doseEvents);
    expect(dose).toEqual({
      patientId: patientRows[0]?.id,
      productId: 'ndc-00069258710',
      status: 'taken',
      scheduledAt: new Date('2015-01-15T13:30:00Z'),
      confirmedAt: new Date('2015-01-15T13:30:00Z'),
      source: 'fhir',
    });
  });

  it('MedicationDispense: in progress it is skipped; handed over, it is a fill with its daysSupply', async () => {
    const example = JSON.parse(readFhir('medicationdispense0301.json')) as Record<string, unknown>;
    await storePatients(['pat1']);
    const first = await importText(JSON.stringify(example));
    expect(first.skipped).toEqual([
      {
        resourceType: 'MedicationDispense',
        id: 'meddisp0301',
        reason: 'status is in-progress and there is no whenHandedOver: not handed over yet',
      },
    ]);
    const handedOver = await importText(JSON.stringify({ ...example, status: 'completed', whenHandedOver: '2015-01-15T16:20:00Z' }));
    expect(handedOver.created).toEqual({ MedicationDispense: 1 });
    const rows = await database.database
      .select({
        dispensedOn: dispensings.dispensedOn,
        daysSupply: dispensings.daysSupply,
        quantity: dispensings.quantity,
        productId: dispensings.productId,
        medicationCode: dispensings.medicationCode,
      })
      .from(dispensings);
    expect(rows).toEqual([
      { dispensedOn: '2015-01-15', daysSupply: 3, quantity: 12, productId: 'ndc-00069258710', medicationCode: 'ndc:00069258710' },
    ]);
  });

  it('matches existing products by RxNorm, NDC (however hyphenated) and ATC instead of creating new ones', async () => {
    await database.database.insert(products).values([
      { id: 'catalogue-furosemide', name: 'Furosemide 40', genericName: 'furosemide', rxnormCode: '313988', atcCode: 'C03CA01' },
      { id: 'catalogue-vancomycin', name: 'Vancomycin', genericName: 'vancomycin', ndcCode: '0069-2587-10' },
    ]);
    await importText(readFhir(usCore));
    await storePatients(['pat1', 'pat9']);
    await importText(
      JSON.stringify({ ...JSON.parse(readFhir('medicationdispense0301.json')), status: 'completed', whenHandedOver: '2015-01-15' }),
    );
    const rows = await database.database.select({ productId: dispensings.productId }).from(dispensings).orderBy(dispensings.dispensedOn);
    expect(rows.map((row) => row.productId)).toEqual(['catalogue-vancomycin', 'catalogue-furosemide']);
    const created = await database.database.select({ id: products.id }).from(products).where(eq(products.id, 'rxnorm-313988'));
    expect(created).toEqual([]);

    const byAtc = {
      resourceType: 'MedicationRequest',
      id: 'atc-1',
      status: 'active',
      intent: 'order',
      subject: { reference: 'Patient/pat9' },
      authoredOn: '2024-02-01',
      medicationCodeableConcept: { coding: [{ system: 'http://www.whocc.no/atc', code: 'c03ca01' }] },
    };
    await importText(JSON.stringify(byAtc));
    const [regimen] = await database.database
      .select({ productId: regimens.productId })
      .from(regimens)
      .where(eq(regimens.sourceRecordId, 'MedicationRequest/atc-1'));
    expect(regimen?.productId).toBe('catalogue-furosemide');
  });

  it('reads NDJSON (one resource per line) like a Bundle', async () => {
    const lines = ['medicationrequest0301.json', 'medicationstatementexample1.json', 'medicationadministration0301.json'].map((name) =>
      JSON.stringify(JSON.parse(readFhir(name))),
    );
    await storePatients(['pat1']);
    const report = await importText(`${lines.join('\n')}\n`);
    expect(report).toEqual({
      resources: 3,
      created: { MedicationRequest: 1, MedicationStatement: 1, MedicationAdministration: 1 },
      unchanged: {},
      skipped: [],
    });
  });

  it('pharmacy Claim and its ExplanationOfBenefit: one dispensing per drug item, stored once', async () => {
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          fullUrl: 'urn:uuid:0a0a0a0a-0000-4000-8000-000000000001',
          resource: { resourceType: 'Patient', id: 'p1', gender: 'female', birthDate: '1960-03-04' },
        },
        {
          fullUrl: 'urn:uuid:0a0a0a0a-0000-4000-8000-000000000002',
          resource: {
            resourceType: 'MedicationRequest',
            id: 'rx1',
            status: 'active',
            intent: 'order',
            subject: { reference: 'urn:uuid:0a0a0a0a-0000-4000-8000-000000000001' },
            authoredOn: '2024-01-02',
            medicationCodeableConcept: {
              coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '197361', display: 'Amlodipine 5 MG Oral Tablet' }],
            },
            dosageInstruction: [
              { timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 1 } }] },
            ],
            dispenseRequest: {
              numberOfRepeatsAllowed: 2,
              quantity: { value: 30 },
              expectedSupplyDuration: { value: 30, unit: 'days', system: 'http://unitsofmeasure.org', code: 'd' },
            },
          },
        },
        {
          fullUrl: 'urn:uuid:0a0a0a0a-0000-4000-8000-000000000003',
          resource: {
            resourceType: 'Claim',
            id: 'claim1',
            status: 'active',
            type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/claim-type', code: 'pharmacy' }] },
            patient: { reference: 'urn:uuid:0a0a0a0a-0000-4000-8000-000000000001' },
            prescription: { reference: 'urn:uuid:0a0a0a0a-0000-4000-8000-000000000002' },
            created: '2024-01-03',
            supportingInfo: [
              {
                sequence: 1,
                category: { coding: [{ system: 'http://hl7.org/fhir/us/carin-bb/CodeSystem/C4BBSupportingInfoType', code: 'dayssupply' }] },
                valueQuantity: { value: 28 },
              },
            ],
            item: [
              {
                sequence: 1,
                productOrService: { coding: [{ system: 'http://hl7.org/fhir/sid/ndc', code: '00069-1520-30' }] },
                servicedDate: '2024-01-03',
                quantity: { value: 28 },
              },
            ],
          },
        },
        {
          fullUrl: 'urn:uuid:0a0a0a0a-0000-4000-8000-000000000004',
          resource: {
            resourceType: 'ExplanationOfBenefit',
            id: 'eob1',
            status: 'active',
            outcome: 'complete',
            type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/claim-type', code: 'pharmacy' }] },
            patient: { reference: 'urn:uuid:0a0a0a0a-0000-4000-8000-000000000001' },
            claim: { reference: 'urn:uuid:0a0a0a0a-0000-4000-8000-000000000003' },
            supportingInfo: [{ sequence: 1, category: { coding: [{ code: 'dayssupply' }] }, valueQuantity: { value: 28 } }],
            item: [
              {
                sequence: 1,
                productOrService: { coding: [{ system: 'http://hl7.org/fhir/sid/ndc', code: '00069-1520-30' }] },
                servicedDate: '2024-01-03',
                quantity: { value: 28 },
              },
            ],
          },
        },
        {
          // A refill billed against the prescription only: the prescription names the drug and the supply.
          fullUrl: 'urn:uuid:0a0a0a0a-0000-4000-8000-000000000005',
          resource: {
            resourceType: 'ExplanationOfBenefit',
            id: 'eob2',
            status: 'active',
            type: { coding: [{ code: 'pharmacy' }] },
            patient: { reference: 'Patient/p1' },
            prescription: { reference: 'MedicationRequest/rx1' },
            billablePeriod: { start: '2024-02-01T09:00:00-05:00' },
          },
        },
      ],
    };
    const report = await importText(JSON.stringify(bundle));
    expect(report).toEqual({
      resources: 5,
      created: { Patient: 1, MedicationRequest: 1, Claim: 1, ExplanationOfBenefit: 1 },
      unchanged: { ExplanationOfBenefit: 1 },
      skipped: [],
    });
    const rows = await database.database
      .select({
        sourceRecordId: dispensings.sourceRecordId,
        dispensedOn: dispensings.dispensedOn,
        daysSupply: dispensings.daysSupply,
        productId: dispensings.productId,
        dosesPerDay: dispensings.dosesPerDay,
      })
      .from(dispensings)
      .orderBy(dispensings.dispensedOn);
    expect(rows).toEqual([
      { sourceRecordId: 'Claim/claim1/item/1', dispensedOn: '2024-01-03', daysSupply: 28, productId: 'ndc-00069152030', dosesPerDay: 1 },
      {
        sourceRecordId: 'ExplanationOfBenefit/eob2',
        dispensedOn: '2024-02-01',
        daysSupply: 30,
        productId: 'rxnorm-197361',
        dosesPerDay: 1,
      },
    ]);
    const [regimen] = await database.database.select({ endDate: regimens.endDate }).from(regimens);
    expect(regimen?.endDate).toBe('2024-03-31'); // 30 days × (1 + 2 repeats) from 2024-01-02
  });

  it('reports progress up to the total', async () => {
    const calls: [number, number][] = [];
    await importText(readFhir(usCore), { onProgress: (done, totalUnits) => void calls.push([done, totalUnits]) });
    expect(calls.length).toBeGreaterThan(0);
    const last = calls.at(-1);
    expect(last?.[0]).toBe(last?.[1]);
  });

  it('refuses a patient (403, audited) and an anonymous caller (401), and stores nothing', async () => {
    const refusal = await importText(readFhir(usCore), { actor: { id: 'patient-1', role: 'patient' } }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).code).toBe('forbidden');
    expect((refusal as AppError).httpStatus).toBe(403);
    const anonymous = await importText(readFhir(usCore), { actor: null }).catch((error: unknown) => error);
    expect((anonymous as AppError).httpStatus).toBe(401);
    expect(await countRows()).toEqual({ patients: 0, regimens: 0, dispensings: 0, doseEvents: 0 });
    const audit = await database.database
      .select({ action: auditLog.action, outcome: auditLog.outcome, actorUserId: auditLog.actorUserId })
      .from(auditLog);
    expect(audit).toEqual([{ action: 'data-import.fhir', outcome: 'denied', actorUserId: 'patient-1' }]);
  });

  it('lets an administrator and the command-line operator import', async () => {
    await storePatients(['pat1']);
    await expect(importText(readFhir('medicationrequest0301.json'), { actor: { id: 'admin-1', role: 'admin' } })).resolves.toMatchObject({
      created: { MedicationRequest: 1 },
    });
    await expect(importText(readFhir('medicationstatementexample1.json'), { actor: 'operator' })).resolves.toMatchObject({
      created: { MedicationStatement: 1 },
    });
  });

  it('rejects what is not FHIR with a clear validation error, storing nothing', async () => {
    for (const [text, message] of [
      ['', 'The file is empty'],
      ['{"resourceType": "Bundle", "type": "transaction", "entry": [', 'The file is not valid JSON'],
      ['{"resourceType":"Patient","id":"a"}\n{not json}\n', 'NDJSON line 2 is not valid JSON'],
      ['{"resourceType": "Bundle", "type": "history", "entry": []}', 'a Bundle of type "history" cannot be imported'],
      ['[1, 2]', 'not a FHIR resource'],
    ] as const) {
      const failure = await importText(text).catch((error: unknown) => error);
      expect(failure, text).toBeInstanceOf(AppError);
      expect((failure as AppError).code).toBe('validation');
      expect((failure as AppError).message).toContain(message);
    }
    expect(await countRows()).toEqual({ patients: 0, regimens: 0, dispensings: 0, doseEvents: 0 });
  });

  it('keeps rows of different sources apart', async () => {
    const text = readFhir('medicationrequest0301.json');
    await storePatients(['pat1'], 'hospital-a');
    await storePatients(['pat1'], 'hospital-b');
    await importText(text, { source: 'hospital-a' });
    const report = await importText(text, { source: 'hospital-b' });
    expect(report.created).toEqual({ MedicationRequest: 1 });
    expect((await countRows()).patients).toBe(2);
    const invalid = await importText(text, { source: 'Not A Source!' }).catch((error: unknown) => error);
    expect((invalid as AppError).code).toBe('validation');
  });

  it('refuses a bundle with future-dated and before-birth records, listing every one, and stores nothing', async () => {
    // US Core's patient 85, with a later birth date (five prescriptions now predate it) and fills moved to 2030.
    const bundle = JSON.parse(readFhir(usCore)) as { entry: { resource: Record<string, unknown> }[] };
    for (const { resource } of bundle.entry) {
      if (resource.resourceType === 'Patient') resource.birthDate = '1950-01-01';
      if (resource.resourceType === 'MedicationDispense') resource.whenHandedOver = '2030-02-01T10:00:00Z';
    }
    const failure = await importText(JSON.stringify(bundle)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ImportRefusedError);
    const refused = failure as ImportRefusedError;
    expect(refused.code).toBe('validation');
    expect(refused.problems.map((problem) => [problem.field, problem.message])).toEqual([
      ['whenHandedOver', 'whenHandedOver 2030-02-01 is in the future (after 2025-06-02)'],
      ['whenHandedOver', 'whenHandedOver 2030-02-01 is in the future (after 2025-06-02)'],
      ...['1940-12-24', '1946-11-23', '1947-11-01', '1947-11-01'].flatMap((date) => [
        ['authoredOn', `authoredOn ${date} is before the patient's birth (1950-01-01)`],
        ['start date', `start date ${date} is before the patient's birth (1950-01-01)`],
      ]),
    ]);
    expect(refused.problems[0]?.resource).toBe('MedicationDispense/1bc16d93-9ac8-4dc7-ad90-e649c01f8b19');
    expect(refused.totalProblems).toBe(10);
    expect(refused.message.split('\n')[0]).toBe('The file has 10 problems; nothing was imported:');
    expect(refused.message).not.toMatch(/--/);
    expect(await countRows()).toEqual({ patients: 0, regimens: 0, dispensings: 0, doseEvents: 0 });
  });

  it('skips a dispense with a days supply or quantity <= 0; refuses a supply over 365 days and a patient no one knows', async () => {
    const dispense = (id: string, fields: Record<string, unknown>) => ({
      resourceType: 'MedicationDispense',
      id,
      status: 'completed',
      subject: { reference: 'Patient/p1' },
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '617312' }] },
      whenHandedOver: '2025-01-10',
      daysSupply: { value: 30, unit: 'd' },
      ...fields,
    });
    const collection = (resources: unknown[]) =>
      JSON.stringify({ resourceType: 'Bundle', type: 'collection', entry: resources.map((resource) => ({ resource })) });
    const patient = { resourceType: 'Patient', id: 'p1', birthDate: '1960-05-01' };
    const report = await importText(
      collection([
        patient,
        dispense('ok', {}),
        dispense('negative-supply', { daysSupply: { value: -30, unit: 'd' } }),
        dispense('negative-quantity', { quantity: { value: -60 } }),
        dispense('zero-quantity', { quantity: { value: 0 } }),
      ]),
    );
    expect(report.created).toEqual({ Patient: 1, MedicationDispense: 1 });
    expect(report.skipped).toEqual([
      { resourceType: 'MedicationDispense', id: 'negative-supply', reason: 'daysSupply is -30: not a days supply (a number of days > 0)' },
      { resourceType: 'MedicationDispense', id: 'negative-quantity', reason: 'quantity is -60: nothing was dispensed' },
      { resourceType: 'MedicationDispense', id: 'zero-quantity', reason: 'quantity is 0: nothing was dispensed' },
    ]);
    expect((await countRows()).dispensings).toBe(1);

    // p1 is now stored, so a later file may refer to it alone; p2 is known nowhere.
    const failure = await importText(
      collection([
        dispense('year-and-a-half', { daysSupply: { value: 540, unit: 'd' } }),
        dispense('old', { whenHandedOver: '1899-06-01' }),
        dispense('stranger', { subject: { reference: 'Patient/p2' } }),
      ]),
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ImportRefusedError);
    expect((failure as ImportRefusedError).problems).toEqual([
      {
        line: null,
        resource: 'MedicationDispense/year-and-a-half',
        field: 'daysSupply',
        setting: null,
        message: 'daysSupply 540 is more than 365 days',
      },
      {
        line: null,
        resource: 'MedicationDispense/old',
        field: 'whenHandedOver',
        setting: null,
        message: 'whenHandedOver 1899-06-01 is before 1900-01-01',
      },
      {
        line: null,
        resource: 'MedicationDispense/stranger',
        field: 'subject',
        setting: null,
        message: 'subject Patient/p2 is neither in the file nor imported before from this source',
      },
    ]);
    expect((await countRows()).dispensings).toBe(1);
  });
});
