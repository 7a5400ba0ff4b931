import { describe, expect, it } from 'vitest';
import { buildImportReport } from './import-report';
import { FhirImportPlanner, planFhirImport } from './plan-fhir-import';
import { readFhirInput } from './fhir-input';

const options = { referenceDate: '2025-06-01' };
const rxnorm = (code: string) => ({ coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code }] });

function request(id: string, extra: Record<string, unknown> = {}) {
  return {
    resourceType: 'MedicationRequest',
    id,
    status: 'active',
    intent: 'order',
    authoredOn: '2024-01-01',
    subject: { reference: 'Patient/p1' },
    medicationCodeableConcept: rxnorm('197361'),
    ...extra,
  };
}

describe('planFhirImport', () => {
  it('resolves urn:uuid, relative, absolute and contained references', () => {
    const plan = planFhirImport(
      {
        resourceType: 'Bundle',
        type: 'searchset',
        entry: [
          {
            fullUrl: 'https://ehr.example/fhir/Patient/p1',
            resource: { resourceType: 'Patient', id: 'p1', gender: 'female', birthDate: '1950-07-01' },
          },
          { fullUrl: 'urn:uuid:6f1c8b0e-0000-4000-8000-000000000001', resource: { resourceType: 'Medication', code: rxnorm('860975') } },
          {
            fullUrl: 'https://ehr.example/fhir/MedicationRequest/r1',
            resource: request('r1', {
              medicationCodeableConcept: undefined,
              medicationReference: { reference: 'urn:uuid:6f1c8b0e-0000-4000-8000-000000000001' },
            }),
          },
          {
            fullUrl: 'https://ehr.example/fhir/MedicationRequest/r2',
            resource: request('r2', {
              subject: { reference: 'https://ehr.example/fhir/Patient/p1' },
              contained: [
                { resourceType: 'Medication', id: 'm', code: { coding: [{ system: 'http://www.whocc.no/atc', code: 'A10BA02' }] } },
              ],
              medicationCodeableConcept: undefined,
              medicationReference: { reference: '#m' },
            }),
          },
          { resource: request('r3', { subject: { reference: 'Patient/elsewhere/_history/2' } }) },
        ],
      },
      options,
    );
    expect(plan.entries.every((entry) => entry.skipReason === null)).toBe(true);
    expect(plan.medications.map((record) => record.sourceRecordId)).toEqual(['Medication/6f1c8b0e-0000-4000-8000-000000000001']);
    expect(
      plan.regimens.map((record) => [record.sourceRecordId, record.patient, record.medication.rxnorm ?? record.medication.atc]),
    ).toEqual([
      ['MedicationRequest/r1', 'Patient/p1', '860975'],
      ['MedicationRequest/r2', 'Patient/p1', 'A10BA02'],
      ['MedicationRequest/r3', 'Patient/elsewhere', '197361'],
    ]);
    expect(plan.patients.map((record) => [record.sourceRecordId, record.entry, record.ageBand])).toEqual([
      ['Patient/p1', 0, '65-74'],
      ['Patient/elsewhere', null, null],
    ]);
  });

  it('skips with a reason: unknown urn, non-Patient subject, statuses, missing medication or date, invalid fields, DELETE', () => {
    const plan = planFhirImport(
      {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          { resource: request('a', { subject: { reference: 'urn:uuid:0000' } }), request: { method: 'POST', url: 'MedicationRequest' } },
          { resource: request('b', { subject: { reference: 'Group/g1' } }) },
          { resource: request('c', { status: 'entered-in-error' }) },
          { resource: request('d', { medicationCodeableConcept: undefined }) },
          { resource: request('e', { authoredOn: '2024' }) },
          { resource: request('f', { dispenseRequest: { numberOfRepeatsAllowed: 'two' } }) },
          { request: { method: 'DELETE', url: 'MedicationRequest/g' } },
          {
            resource: {
              resourceType: 'MedicationAdministration',
              id: 'h',
              status: 'entered-in-error',
              subject: { reference: 'Patient/p1' },
            },
          },
          { resource: { resourceType: 'MedicationDispense', id: 'i', status: 'cancelled', subject: { reference: 'Patient/p1' } } },
          { resource: { resourceType: 'Observation', id: 'j' } },
          { resource: { resourceType: 'Bundle', id: 'k', type: 'collection' } },
        ],
      },
      options,
    );
    const report = buildImportReport(plan.entries, new Set());
    expect(report.skipped).toEqual([
      { resourceType: 'MedicationRequest', id: 'a', reason: 'subject urn:uuid:0000 is not in the file' },
      { resourceType: 'MedicationRequest', id: 'b', reason: 'subject is a Group, not a Patient' },
      { resourceType: 'MedicationRequest', id: 'c', reason: 'status is entered-in-error: not a prescription in force' },
      { resourceType: 'MedicationRequest', id: 'd', reason: 'the medication is not identified (no code, name or resolvable reference)' },
      { resourceType: 'MedicationRequest', id: 'e', reason: 'no start date (dosage bounds, dispenseRequest.validityPeriod or authoredOn)' },
      {
        resourceType: 'MedicationRequest',
        id: 'f',
        reason: 'invalid dispenseRequest.numberOfRepeatsAllowed: Invalid input: expected number, received string',
      },
      { resourceType: 'MedicationRequest', id: 'MedicationRequest/g', reason: 'DELETE entries are not applied' },
      { resourceType: 'MedicationAdministration', id: 'h', reason: 'status is entered-in-error' },
      { resourceType: 'MedicationDispense', id: 'i', reason: 'status is cancelled: nothing was handed over' },
      { resourceType: 'Observation', id: 'j', reason: 'resource type not imported' },
      { resourceType: 'Bundle', id: 'k', reason: 'a Bundle inside a Bundle is not imported' },
    ]);
    expect(report.resources).toBe(11);
  });

  it('maps administration statuses to dose statuses', () => {
    const administration = (id: string, status: string) => ({
      resourceType: 'MedicationAdministration',
      id,
      status,
      subject: { reference: 'Patient/p1' },
      medicationCodeableConcept: rxnorm('197361'),
      effectiveDateTime: '2024-03-01T08:00:00+01:00',
    });
    const lines = [
      administration('1', 'completed'),
      administration('2', 'not-done'),
      administration('3', 'on-hold'),
      administration('4', 'stopped'),
    ].map((resource) => JSON.stringify(resource));
    const plan = planFhirImport(lines.join('\n'), options);
    expect(plan.doseEvents.map((event) => [event.status, event.scheduledAt, event.confirmedAt])).toEqual([
      ['taken', '2024-03-01T07:00:00.000Z', '2024-03-01T07:00:00.000Z'],
      ['missed', '2024-03-01T07:00:00.000Z', null],
      ['skipped', '2024-03-01T07:00:00.000Z', null],
      ['unknown', '2024-03-01T07:00:00.000Z', null],
    ]);
  });

  it('reads NDJSON whose lines are Bundles, and a single resource', () => {
    const bundle = JSON.stringify({
      resourceType: 'Bundle',
      type: 'collection',
      entry: [{ resource: { resourceType: 'Patient', id: 'p1' } }, { resource: request('r1') }],
    });
    expect(planFhirImport(`${bundle}\n\n${JSON.stringify(request('r2'))}\n`, options).entries.map((entry) => entry.id)).toEqual([
      'p1',
      'r1',
      'r2',
    ]);
    expect(planFhirImport(JSON.stringify(request('r9')), options).regimens).toHaveLength(1);
  });

  it('lists every implausible record of a future-dated bundle, and every reference to a patient no one knows', () => {
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { resource: { resourceType: 'Patient', id: 'p1', birthDate: '1990-05-01' } },
        { resource: request('future', { authoredOn: '2031-01-01' }) },
        { resource: request('before-birth', { authoredOn: '1985-01-01' }) },
        {
          resource: {
            resourceType: 'MedicationAdministration',
            id: 'given-later',
            status: 'completed',
            subject: { reference: 'Patient/p1' },
            medicationCodeableConcept: rxnorm('197361'),
            effectiveDateTime: '2025-06-03T08:00:00Z',
          },
        },
        // Tomorrow is allowed (a source ahead of UTC); a prescription may start later than it was written.
        { resource: request('tomorrow', { authoredOn: '2025-06-02', dispenseRequest: { validityPeriod: { start: '2025-09-01' } } }) },
        { resource: request('stranger', { subject: { reference: 'Patient/p9' } }) },
      ],
    };
    const planner = new FhirImportPlanner(readFhirInput(bundle), options);
    planner.interpretEntries(0, planner.entryCount);
    expect(planner.referencedOnlyPatients).toEqual(['Patient/p9']);
    planner.checkPatientsKnown(new Set());
    planner.finish();
    expect(planner.problems.listed.map((problem) => [problem.resource, problem.field, problem.message])).toEqual([
      ['MedicationRequest/future', 'authoredOn', 'authoredOn 2031-01-01 is in the future (after 2025-06-02)'],
      ['MedicationAdministration/given-later', 'effective[x]', 'effective[x] 2025-06-03 is in the future (after 2025-06-02)'],
      ['MedicationRequest/stranger', 'subject', 'subject Patient/p9 is neither in the file nor imported before from this source'],
      ['MedicationRequest/before-birth', 'authoredOn', "authoredOn 1985-01-01 is before the patient's birth (1990-05-01)"],
      ['MedicationRequest/before-birth', 'start date', "start date 1985-01-01 is before the patient's birth (1990-05-01)"],
    ]);

    const known = new FhirImportPlanner(readFhirInput(bundle.entry[5]?.resource), options);
    known.interpretEntries(0, known.entryCount);
    known.checkPatientsKnown(new Set(['Patient/p9']));
    known.finish();
    expect(known.problems.empty).toBe(true);
  });
});
