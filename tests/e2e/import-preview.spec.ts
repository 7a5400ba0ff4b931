import { chooseFiles, chooseInSelect, expect, pressToCheck, test } from './fixtures';

const header = 'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION';
const csvFile = (name: string, lines: string[]) => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(`${[header, ...lines].join('\n')}\n`),
});

test('a clinician previews a DD/MM CSV (format guessed, dates written out), confirms, and the import job finishes', async ({
  page,
  signIn,
  createAccount,
}) => {
  test.setTimeout(120_000);
  await signIn(await createAccount({ role: 'clinician' }));
  await page.goto('/algorithms/patient-engagement/data-sources');
  const form = page.getByRole('form', { name: 'Import a file' });
  await pressToCheck(form.getByRole('radio', { name: /Pharmacy CSV/ }));
  // Day first, and a day above 12 on line 3: only DD/MM/YYYY reads every date.
  const tag = `pv-${Date.now()}`;
  await chooseFiles(
    form.getByRole('button', { name: /File \(at most 50 MB\)/ }),
    csvFile('day-first.csv', [`${tag}-1,03/04/2025,1,statin,30`, `${tag}-1,25/04/2025,1,statin,30`, `${tag}-2,01/05/2025,2,statin,28`]),
  );
  await form.getByRole('button', { name: 'Import' }).click();

  const preview = page.getByTestId('csv-preview');
  await expect(preview.getByRole('heading', { name: 'Preview of day-first.csv: nothing is stored yet' })).toBeFocused();
  await expect(preview.getByTestId('date-format-guess')).toHaveText('Dates read as DD/MM/YYYY, guessed from the file.');
  await expect(preview.getByRole('button', { name: /Date format of the file$/ })).toContainText('DD/MM/YYYY');
  const rows = preview.getByRole('table', { name: 'First rows of day-first.csv as read' }).getByRole('row');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText('3 Apr 2025');
  await expect(rows.nth(2)).toContainText('25 Apr 2025');
  await expect(rows.nth(3)).toContainText(`${tag}-2`);
  await expect(preview.getByTestId('csv-preview-problems')).toHaveCount(0);

  // Read as MM/DD instead, 25/04 is no date: the preview says so and the import cannot be confirmed.
  await chooseInSelect(preview, 'Date format of the file', 'MM/DD/YYYY');
  await expect(preview.getByTestId('csv-preview-problems')).toContainText('Line 3: DATE "25/04/2025" is not a date in MM/DD/YYYY format');
  await expect(preview.getByRole('button', { name: 'Confirm import' })).toBeDisabled();
  await chooseInSelect(preview, 'Date format of the file', 'DD/MM/YYYY');
  await expect(preview.getByTestId('csv-preview-problems')).toHaveCount(0);

  await preview.getByRole('button', { name: 'Confirm import' }).click();
  await expect(preview).toHaveCount(0);
  const job = page.getByTestId('import-job').first();
  await expect(job.getByTestId('import-status')).toHaveText('succeeded', { timeout: 60_000 });
  await expect(job).toContainText('3 records: 3 created, 0 unchanged, 0 skipped');
});

test('a future-dated CSV shows every bad line, cannot be confirmed, and a direct upload of it stores nothing', async ({
  page,
  signIn,
  createAccount,
}) => {
  test.setTimeout(120_000);
  await signIn(await createAccount({ role: 'admin' }));
  await page.goto('/algorithms/patient-engagement/data-sources');
  const form = page.getByRole('form', { name: 'Import a file' });
  await pressToCheck(form.getByRole('radio', { name: /Pharmacy CSV/ }));
  const tag = `fut-${Date.now()}`;
  const file = csvFile('future.csv', [
    `${tag},2024-05-01,1,statin,30`,
    `${tag},2033-05-01,1,statin,30`,
    `${tag},2035-01-01,1,statin,30`,
    `${tag},2037-12-31,1,statin,400`,
  ]);
  await chooseFiles(form.getByRole('button', { name: /File \(at most 50 MB\)/ }), file);
  await form.getByRole('button', { name: 'Import' }).click();

  const preview = page.getByTestId('csv-preview');
  const problems = preview.getByTestId('csv-preview-problems');
  await expect(problems).toContainText('4 problems: nothing will be imported');
  await expect(problems.getByRole('listitem')).toHaveText([
    /^Line 3: DATE "2033-05-01": 2033-05-01 is in the future/,
    /^Line 4: DATE "2035-01-01": 2035-01-01 is in the future/,
    /^Line 5: DATE "2037-12-31": 2037-12-31 is in the future/,
    'Line 5: DURATION "400" is more than 365 days',
  ]);
  await expect(problems).not.toContainText('--');
  await expect(preview.getByRole('button', { name: 'Confirm import' })).toBeDisabled();

  // Sent straight to the queue, past the preview, the import job refuses the whole file and lists every line.
  const queued = await page.request.post('/api/imports?format=csv&name=future.csv', {
    data: file.buffer,
    headers: { 'Content-Type': 'text/csv' },
  });
  expect(queued.status()).toBe(202);
  const { jobId } = (await queued.json()) as { jobId: string };
  await expect
    .poll(async () => ((await (await page.request.get(`/api/jobs/${jobId}`)).json()) as { status: string }).status, { timeout: 60_000 })
    .toBe('failed');
  const job = (await (await page.request.get(`/api/jobs/${jobId}`)).json()) as { error: string; result: unknown };
  expect(job.error.split('\n')).toEqual([
    'The file has 4 problems; nothing was imported:',
    expect.stringMatching(/^line 3: DATE "2033-05-01"/),
    expect.stringMatching(/^line 4: DATE "2035-01-01"/),
    expect.stringMatching(/^line 5: DATE "2037-12-31"/),
    'line 5: DURATION "400" is more than 365 days',
  ]);
  expect(job.result).toBeNull();
  await page.reload();
  // The page lists every recent import; other specs import at the same time, so find this one by its id.
  await expect(page.locator(`[data-testid="import-job"][data-job-id="${jobId}"]`)).toContainText(
    'The file has 4 problems; nothing was imported',
  );
});
