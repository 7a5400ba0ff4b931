import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authUsers, dispensings, importBatches, jobs, userProfiles } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { claimNextJob, enqueueJob, getJob, registerJobHandler, runClaimedJob, staleAfterSeconds } from '@/lib/server/jobs';
import { createImportJobHandlers } from './import-job-handlers';

// AdhereR's example dates run 2030–2044, which an import refuses as future dates: 20 years earlier, they are past.
const medicationEvents = fs
  .readFileSync(path.resolve(process.cwd(), '../shared/testdata/adherer/med_events.csv'), 'utf8')
  .replace(/\/(20\d\d)\b/g, (_, year: string) => `/${Number(year) - 20}`);
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
    return getJob({ database: database.database, id });
  }

  it('imports a queued CSV with its mapping, reporting progress and the report as the result', async () => {
    const job = await runJob(
      `test-import-csv-${backend.name}`,
      { fileName: 'med_events.csv', text: medicationEvents, mapping: { dateFormat: 'mdy' } },
      'clinician-1',
    );
    expect(job).toMatchObject({ status: 'succeeded', error: null });
    expect(job?.result).toEqual({ fileName: 'med_events.csv', resources: 1080, created: { Dispensing: 1080 }, unchanged: {}, skipped: [] });
    expect(job?.progressTotal).toBeGreaterThan(0);
    expect(job?.progressDone).toBe(job?.progressTotal);
  });

  it('imports a queued FHIR bundle; a job by a patient fails with the refusal', async () => {
    const fhir = await runJob(`test-import-fhir-${backend.name}`, { fileName: 'bundle.json', text: usCore }, 'clinician-1');
    expect(fhir?.status).toBe('succeeded');
    expect(fhir?.result).toMatchObject({
      resources: 264,
      created: { Patient: 1, MedicationRequest: 13, Medication: 1, MedicationDispense: 1 },
    });
    const refused = await runJob(`test-import-fhir-${backend.name}`, { fileName: 'bundle.json', text: usCore }, 'patient-1');
    expect(refused).toMatchObject({ status: 'failed', error: 'Only administrators and clinicians can import data.' });
    const broken = await runJob(
      `test-import-csv-${backend.name}`,
      { fileName: 'x.csv', text: 'PATIENT_ID,DATE,DURATION\n1,2024-13-01,30\n' },
      null,
    );
    expect(broken).toMatchObject({
      status: 'failed',
      error: 'The file has 1 problem; nothing was imported:\nline 2: DATE "2024-13-01" is not a date in YYYY-MM-DD format',
    });
  });

  it('a job whose process stopped part-way resumes after the last committed chunk; its report counts every row once', async () => {
    const kind = `test-import-csv-crashing-${backend.name}`;
    const handlers = createImportJobHandlers(() => database.database);
    let stopAfterProgressReports: number | null = 3;
    registerJobHandler(kind, (job, context) => {
      let reports = 0;
      return handlers.csv(job, {
        ...context,
        reportProgress: async (done, total) => {
          reports += 1;
          // Patients (1), medications (2), then the first 1,000-row chunk of dispensings (3): the process dies.
          if (reports === stopAfterProgressReports) throw new Error('the process stopped');
          await context.reportProgress(done, total);
        },
      });
    });
    const { id } = await enqueueJob({
      database: database.database,
      kind,
      payload: { fileName: 'med_events.csv', text: medicationEvents, mapping: { dateFormat: 'mdy' } },
      createdBy: 'clinician-1',
    });
    const first = await claimNextJob({ database: database.database, kinds: [kind] });
    await runClaimedJob({ database: database.database, job: first! });
    // A process that dies leaves its job running with a heartbeat that goes stale.
    await database.database
      .update(jobs)
      .set({ status: 'running', error: null, heartbeatAt: new Date(Date.now() - 2 * staleAfterSeconds * 1000) })
      .where(eq(jobs.id, id));
    expect((await getJob({ database: database.database, id }))?.checkpoint).toEqual({
      createdEntries: [[0, 999]],
      written: { regimens: 0, dispensings: 1000, doseEvents: 0 },
    });
    expect(await database.database.select({ id: dispensings.id }).from(dispensings)).toHaveLength(1000);

    stopAfterProgressReports = null;
    const resumed = await claimNextJob({ database: database.database, kinds: [kind] });
    expect(resumed).toMatchObject({ id, attempts: 2 });
    await runClaimedJob({ database: database.database, job: resumed! });
    const job = await getJob({ database: database.database, id });
    expect(job).toMatchObject({ status: 'succeeded', error: null, progressDone: 1180, progressTotal: 1180 });
    expect(job?.result).toEqual({ fileName: 'med_events.csv', resources: 1080, created: { Dispensing: 1080 }, unchanged: {}, skipped: [] });
    expect(await database.database.select({ id: dispensings.id }).from(dispensings)).toHaveLength(1080);
    // Both runs wrote under one batch, named after the file, with every row counted once.
    const batches = await database.database
      .select({
        jobId: importBatches.jobId,
        fileName: importBatches.fileName,
        status: importBatches.status,
        createdBy: importBatches.createdBy,
        createdRows: importBatches.createdRows,
      })
      .from(importBatches);
    expect(batches).toEqual([
      {
        jobId: id,
        fileName: 'med_events.csv',
        status: 'completed',
        createdBy: 'clinician-1',
        createdRows: { patients: 100, dispensings: 1080, dataSources: 1 },
      },
    ]);
  });
});
