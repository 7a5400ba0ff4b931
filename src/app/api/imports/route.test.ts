import { eq } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, jobs, patients } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { clientAddressHeader } from '@/lib/client-address';
import { type RouteTestServer, serveRoutesFrom } from '@/lib/server/route-testing';
import { POST as postFhir } from '../import/fhir/route';
import { POST as postPreview } from './preview/route';
import { POST as postImport } from './route';

const csv = 'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION\n1,2026-01-01,1,medA,30\n';
const bundle = JSON.stringify({
  resourceType: 'Bundle',
  type: 'collection',
  entry: [{ resource: { resourceType: 'Patient', id: 'p1', gender: 'female' } }],
});

/** A body that counts how much of it the server pulled: 300 chunks of 1 MB. */
function hugeBody() {
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      counter.pulled += 1;
      if (counter.pulled > 300) controller.close();
      else controller.enqueue(new Uint8Array(1024 * 1024));
    },
  });
  return { stream, counter };
}

function upload(path: string, body: BodyInit, headers: Record<string, string>): NextRequest {
  return new NextRequest(`http://localhost:3000${path}`, {
    method: 'POST',
    body,
    headers: { host: 'localhost:3000', [clientAddressHeader]: '198.51.100.4', 'x-request-id': 'req-imports-0001', ...headers },
    duplex: 'half',
  } as ConstructorParameters<typeof NextRequest>[1]);
}

describe.each(testDatabaseBackends())('upload routes on $name', (backend) => {
  let database: TestDatabase;
  let server: RouteTestServer;
  beforeEach(async () => {
    database = await backend.create();
    server = await serveRoutesFrom(database);
  });
  afterEach(async () => {
    server.restore();
    await database.dispose();
  });

  const auditRows = () =>
    database.database
      .select({ action: auditLog.action, outcome: auditLog.outcome, requestId: auditLog.requestId, clientAddress: auditLog.clientAddress })
      .from(auditLog)
      .where(eq(auditLog.action, 'data-import.queue'));

  it('refuses before reading: signed out, another site, a patient (audited), a form-encodable type, past 50 MB', async () => {
    for (const route of [postImport, postFhir]) {
      const { stream, counter } = hugeBody();
      const signedOut = await route(
        upload('/api/imports?format=csv', stream, { 'content-type': 'text/csv', 'content-length': String(300 * 1024 * 1024) }),
      );
      expect(signedOut.status).toBe(401);
      expect(counter.pulled).toBeLessThanOrEqual(1);
    }
    const clinician = await server.signIn('clinician');
    // A cross-site form (text/plain) or no-cors fetch, with the clinician's cookie.
    const forged = await postFhir(
      upload('/api/import/fhir', bundle, {
        cookie: clinician,
        'content-type': 'text/plain',
        origin: 'https://evil.test',
        'sec-fetch-site': 'cross-site',
      }),
    );
    expect(forged.status).toBe(403);
    const noCors = await postImport(
      upload('/api/imports?format=csv', csv, { cookie: clinician, 'content-type': 'text/plain', origin: 'https://evil.test' }),
    );
    expect(noCors.status).toBe(403);
    // Even from our own origin, a type a form could send is refused: the upload must be sent as its type.
    const plain = await postImport(
      upload('/api/imports?format=csv', csv, { cookie: clinician, 'content-type': 'text/plain', 'sec-fetch-site': 'same-origin' }),
    );
    expect(plain.status).toBe(415);
    const { stream, counter } = hugeBody();
    const tooLarge = await postImport(upload('/api/imports?format=csv', stream, { cookie: clinician, 'content-type': 'text/csv' }));
    expect(tooLarge.status).toBe(413);
    // 50 chunks fit, the 51st passes the limit, and the stream has queued one more ahead of the reader.
    expect(counter.pulled).toBeLessThanOrEqual(52);

    const patient = await server.signIn('patient');
    const refused = await postImport(upload('/api/imports?format=csv', csv, { cookie: patient, 'content-type': 'text/csv' }));
    expect(refused.status).toBe(403);
    expect(await auditRows()).toEqual([
      { action: 'data-import.queue', outcome: 'denied', requestId: 'req-imports-0001', clientAddress: '198.51.100.4' },
    ]);
    expect(await database.database.select({ id: jobs.id }).from(jobs)).toEqual([]);
    expect(await database.database.select({ id: patients.id }).from(patients)).toEqual([]);
  });

  it('queues a clinician’s CSV through the import tail (job + audit row with request id and address), and imports FHIR directly', async () => {
    const clinician = await server.signIn('clinician');
    const queued = await postImport(
      upload('/api/imports?format=csv&name=fills.csv&dateFormat=iso', csv, {
        cookie: clinician,
        'content-type': 'text/csv',
        'sec-fetch-site': 'same-origin',
      }),
    );
    expect(queued.status).toBe(202);
    const { jobId } = (await queued.json()) as { jobId: string };
    const [job] = await database.database.select({ kind: jobs.kind, payload: jobs.payload }).from(jobs).where(eq(jobs.id, jobId));
    expect(job?.kind).toBe('import-csv');
    expect(job?.payload).toMatchObject({
      fileName: 'fills.csv',
      text: csv,
      mapping: { dateFormat: 'iso' },
      request: { requestId: 'req-imports-0001' },
    });
    expect(await auditRows()).toEqual([
      { action: 'data-import.queue', outcome: 'success', requestId: 'req-imports-0001', clientAddress: '198.51.100.4' },
    ]);

    const badFormat = await postImport(upload('/api/imports?format=xml', csv, { cookie: clinician, 'content-type': 'text/csv' }));
    expect(badFormat.status).toBe(400);
    expect(((await badFormat.json()) as { error: { fieldErrors: Record<string, string> } }).error.fieldErrors).toEqual({
      format: 'Choose FHIR or pharmacy CSV.',
    });

    const imported = await postFhir(
      upload('/api/import/fhir', bundle, { cookie: clinician, 'content-type': 'application/fhir+json', origin: 'http://localhost:3000' }),
    );
    expect(imported.status).toBe(200);
    expect(((await imported.json()) as { created: Record<string, number> }).created).toEqual({ Patient: 1 });
    const [fhirAudit] = await database.database
      .select({ requestId: auditLog.requestId, clientAddress: auditLog.clientAddress })
      .from(auditLog)
      .where(eq(auditLog.action, 'data-import.fhir'));
    expect(fhirAudit).toEqual({ requestId: 'req-imports-0001', clientAddress: '198.51.100.4' });
  });

  it('previews a CSV for a clinician without storing anything; refuses signed-out, patients, other sites and other types first', async () => {
    const text = 'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION\n1,25/10/2025,1,medA,30\n2,01/11/2099,1,medA,30\n';
    const { stream, counter } = hugeBody();
    const signedOut = await postPreview(upload('/api/imports/preview', stream, { 'content-type': 'text/csv' }));
    expect(signedOut.status).toBe(401);
    expect(counter.pulled).toBeLessThanOrEqual(1);
    const patient = await server.signIn('patient');
    expect((await postPreview(upload('/api/imports/preview', text, { cookie: patient, 'content-type': 'text/csv' }))).status).toBe(403);
    const clinician = await server.signIn('clinician');
    const forged = await postPreview(
      upload('/api/imports/preview', text, { cookie: clinician, 'content-type': 'text/csv', 'sec-fetch-site': 'cross-site' }),
    );
    expect(forged.status).toBe(403);
    const plain = await postPreview(upload('/api/imports/preview', text, { cookie: clinician, 'content-type': 'text/plain' }));
    expect(plain.status).toBe(415);

    const previewed = await postPreview(
      upload('/api/imports/preview?patientIdColumn=PATIENT_ID', text, {
        cookie: clinician,
        'content-type': 'text/csv',
        'sec-fetch-site': 'same-origin',
      }),
    );
    expect(previewed.status).toBe(200);
    const body = (await previewed.json()) as {
      dateFormat: string;
      rows: { dispensedOn: string | null }[];
      problems: { line: number; field: string }[];
      totalProblems: number;
    };
    expect(body.dateFormat).toBe('dmy');
    expect(body.rows.map((row) => row.dispensedOn)).toEqual(['2025-10-25', null]);
    expect(body.problems.map((problem) => [problem.line, problem.field])).toEqual([[3, 'DATE']]);
    const badMapping = await postPreview(
      upload('/api/imports/preview?dateFormat=ymd', text, { cookie: clinician, 'content-type': 'text/csv' }),
    );
    expect(badMapping.status).toBe(400);
    expect(await database.database.select({ id: jobs.id }).from(jobs)).toEqual([]);
    expect(await database.database.select({ id: patients.id }).from(patients)).toEqual([]);
  });
});
