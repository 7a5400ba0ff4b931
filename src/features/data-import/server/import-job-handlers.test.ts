import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authUsers, userProfiles } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { claimNextJob, enqueueJob, getJob, registerJobHandler, runClaimedJob } from '@/lib/server/jobs';
import { createImportJobHandlers } from './import-job-handlers';

const medicationEvents = fs.readFileSync(path.resolve(process.cwd(), '../shared/testdata/adherer/med_events.csv'), 'utf8');
const usCore = fs.readFileSync(path.resolve(process.cwd(), '../shared/testdata/fhir/uscore_bundle_patient_85.json'), 'utf8');

describe.each(testDatabaseBackends())('import job handlers on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
    const handlers = createImportJobHandlers(() => database.database);
    // Kinds of their own, so the module's registration (default database) is not what runs here.
    registerJobHandler(`test-import-fhir-${backend.name}`, handlers.fhir);
    registerJobHandler(`test-import-csv-${backend.name}`, handlers.csv);
    await database.database.insert(authUsers).values([
      { id: 'clinician-1', name: 'Clinician', email: 'clinician@example.org' },
      { id: 'patient-1', name: 'Patient', email: 'patient@example.org' },
    ]);
    await database.database.insert(userProfiles).values([
      { uid: 'clinician-1', role: 'clinician', updatedUnix: Date.now() },
      { uid: 'patient-1', role: 'patient', updatedUnix: Date.now() },
    ]);
  });
  afterEach(async () => {
    await database.dispose();
  });

  async function runJob(kind: string, payload: Record<string, unknown>, createdBy: string | null) {
    const { id } = await enqueueJob({ database: database.database, kind, payload, createdBy });
    const job = await claimNextJob({ database: database.database, kinds: [kind] });
    expect(job?.id).toBe(id);
    await runClaimedJob({ database: database.database, job: job! });
    // Progress updates are not awaited by the import; let the last ones land.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return getJob({ database: database.database, id });
  }

  it('imports a queued CSV with its mapping, reporting progress and the report as the result', async () => {
    const job = await runJob(`test-import-csv-${backend.name}`, { fileName: 'med_events.csv', text: medicationEvents, mapping: { dateFormat: 'mdy' } }, 'clinician-1');
    expect(job).toMatchObject({ status: 'succeeded', error: null });
    expect(job?.result).toEqual({ fileName: 'med_events.csv', resources: 1080, created: { Dispensing: 1080 }, unchanged: {}, skipped: [] });
    expect(job?.progressTotal).toBeGreaterThan(0);
    expect(job?.progressDone).toBe(job?.progressTotal);
  });

  it('imports a queued FHIR bundle; a job by a patient fails with the refusal', async () => {
    const fhir = await runJob(`test-import-fhir-${backend.name}`, { fileName: 'bundle.json', text: usCore }, 'clinician-1');
    expect(fhir?.status).toBe('succeeded');
    expect(fhir?.result).toMatchObject({ resources: 264, created: { Patient: 1, MedicationRequest: 13, Medication: 1, MedicationDispense: 1 } });
    const refused = await runJob(`test-import-fhir-${backend.name}`, { fileName: 'bundle.json', text: usCore }, 'patient-1');
    expect(refused).toMatchObject({ status: 'failed', error: 'Only administrators and clinicians can import data.' });
    const broken = await runJob(`test-import-csv-${backend.name}`, { fileName: 'x.csv', text: 'PATIENT_ID,DATE,DURATION\n1,2024-13-01,30\n' }, null);
    expect(broken).toMatchObject({ status: 'failed', error: 'line 2: DATE "2024-13-01" is not a date in YYYY-MM-DD format (--date-format iso)' });
  });
});
