import fs from 'node:fs';
import path from 'node:path';
import { chooseFiles, chooseInSelect, expect, pressToCheck, seriousAccessibilityViolations, test } from './fixtures';

test('an admin creates a dose-event API key, a device uses it, the admin revokes it', async ({ page, signIn }) => {
  await signIn('admin');
  await page.goto('/algorithms/patient-engagement/data-sources');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Data Integration Sources');
  const deviceName = `Bottles ${Date.now()}`;
  await page.getByRole('form', { name: 'Create an API key' }).getByLabel('Device or app name').fill(deviceName);
  await page.getByRole('button', { name: 'Create API key' }).click();
  const apiKey = (await page.getByTestId('new-api-key').textContent()) ?? '';
  expect(apiKey).toMatch(/^mdk_[A-Za-z0-9_-]{43}$/);

  const batch = {
    events: [
      { idempotencyKey: 'e2e-1', patient: 'P-does-not-exist', scheduledAt: '2026-11-22T08:00:00Z', status: 'missed' },
      { idempotencyKey: 'e2e-2', patient: 'P-x', scheduledAt: 'not a time', status: 'missed' },
    ],
  };
  // All or nothing: a batch with bad events is a 400 naming each one, and stores none of the batch.
  const refused = await page.request.post('/api/dose-events', { headers: { Authorization: `Bearer ${apiKey}` }, data: batch });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).rejected).toEqual([
    { index: 0, idempotencyKey: 'e2e-1', field: 'patient', message: 'No patient has this pseudonym.' },
    {
      index: 1,
      idempotencyKey: 'e2e-2',
      field: 'scheduledAt',
      message: 'scheduledAt must be an ISO 8601 time with a zone, e.g. 2026-11-22T08:00:00Z',
    },
  ]);
  const wrongKey = await page.request.post('/api/dose-events', { headers: { Authorization: 'Bearer mdk_wrong' }, data: batch });
  expect(wrongKey.status()).toBe(401);

  await page.reload();
  await page.getByRole('button', { name: `Revoke ${deviceName}` }).click();
  await expect(page.getByRole('button', { name: `Revoke ${deviceName}` })).toHaveCount(0);
  const revoked = await page.request.post('/api/dose-events', { headers: { Authorization: `Bearer ${apiKey}` }, data: batch });
  expect(revoked.status()).toBe(401);
});

test('a patient sees the sources but cannot import or manage keys; the page passes axe', async ({ page, signIn }) => {
  await signIn('patient');
  await page.goto('/algorithms/patient-engagement/data-sources');
  await expect(page.getByText('Clinicians and administrators can import data.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dose-event API keys' })).toHaveCount(0);
  const upload = await page.request.post('/api/imports?format=csv&name=x.csv', { data: 'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION\n' });
  expect(upload.status()).toBe(403);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test('a clinician imports a pharmacy CSV: a background job with progress, then its report', async ({ page, signIn }) => {
  test.setTimeout(90_000);
  await signIn('clinician');
  await page.goto('/algorithms/patient-engagement/data-sources');
  const form = page.getByRole('form', { name: 'Import a file' });
  await pressToCheck(form.getByRole('radio', { name: /Pharmacy CSV/ }));
  // The AdhereR example file writes dates as MM/DD/YYYY, in 2030–2044 (refused as future): 20 years earlier here.
  await form.getByText('CSV columns and date format').click();
  await chooseInSelect(form, 'Date format', 'MM/DD/YYYY');
  const medicationEvents = fs
    .readFileSync(path.resolve(process.cwd(), '../shared/testdata/adherer/med_events.csv'), 'utf8')
    .replace(/\/(20\d\d)\b/g, (_, year: string) => `/${Number(year) - 20}`);
  await chooseFiles(form.getByRole('button', { name: /File \(at most 50 MB\)/ }), {
    name: 'med_events.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(medicationEvents),
  });
  await form.getByRole('button', { name: 'Import' }).click();
  // A CSV is previewed first; nothing is stored until the import is confirmed.
  await page.getByTestId('csv-preview').getByRole('button', { name: 'Confirm import' }).click();
  const job = page.getByTestId('import-job').first();
  await expect(job.getByTestId('import-status')).toHaveText('succeeded', { timeout: 60_000 });
  await expect(job).toContainText(/1,080 records: \d[\d,]* created/);
  // The imported dispensings now count under their source.
  await page.reload();
  await expect(page.getByRole('row', { name: /Pharmacy dispensing files/ })).toBeVisible();
});

test('POST /api/import/fhir imports a bundle for a clinician, idempotently, and refuses others', async ({ page, signIn, baseURL }) => {
  const bundle = fs.readFileSync(path.resolve(process.cwd(), '../shared/testdata/fhir/uscore_bundle_patient_85.json'), 'utf8');
  const anonymous = await page.request.post('/api/import/fhir', { data: bundle, headers: { 'Content-Type': 'application/fhir+json' } });
  expect(anonymous.status()).toBe(401);

  await signIn('patient');
  const patient = await page.request.post('/api/import/fhir', { data: bundle, headers: { 'Content-Type': 'application/fhir+json' } });
  expect(patient.status()).toBe(403);

  await signIn('clinician');
  const first = await page.request.post('/api/import/fhir', {
    data: bundle,
    headers: { 'Content-Type': 'application/fhir+json', Origin: baseURL ?? '' },
  });
  expect(first.status()).toBe(200);
  const report = (await first.json()) as {
    resources: number;
    created: Record<string, number>;
    unchanged: Record<string, number>;
    skipped: unknown[];
  };
  const entries = (JSON.parse(bundle) as { entry: unknown[] }).entry.length;
  expect(report.resources).toBe(entries);
  const created = Object.values(report.created).reduce((sum, count) => sum + count, 0);
  const unchanged = Object.values(report.unchanged).reduce((sum, count) => sum + count, 0);
  expect(created + unchanged + report.skipped.length).toBe(entries);

  const second = await page.request.post('/api/import/fhir', {
    data: bundle,
    headers: { 'Content-Type': 'application/fhir+json', Origin: baseURL ?? '' },
  });
  expect((await second.json()).created).toEqual({});

  const broken = await page.request.post('/api/import/fhir', {
    data: '{"resourceType": "Bundle", "entry": [',
    headers: { 'Content-Type': 'application/fhir+json' },
  });
  expect(broken.status()).toBe(400);
  expect(JSON.stringify(await broken.json())).not.toMatch(/\.ts:\d+|node_modules/);
});
