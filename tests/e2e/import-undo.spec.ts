import { chooseFiles, expect, pressToCheck, seriousAccessibilityViolations, test } from './fixtures';

test('a clinician uploads a CSV, previews and stores it, sees it as a batch with its counts, and removes it after confirming what goes', async ({
  page,
  signIn,
  createAccount,
}) => {
  test.setTimeout(180_000); // a background job, reloads and axe on a loaded machine took 108 s
  // A clinician of their own: the history lists only the imports they ran, so this test sees only its batch.
  const clinician = await createAccount({ role: 'clinician' });
  await signIn(clinician);
  const run = `e2e-undo-${Date.now()}`;
  const csv = [
    'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION',
    `${run}-1,2024-01-01,1,medA,30`,
    `${run}-1,2024-01-31,1,medA,30`,
    `${run}-2,2024-01-05,2,medA,30`,
    `${run}-3,2024-02-01,1,medB,60`,
    '',
  ].join('\n');
  // Import → preview → store: nothing is stored before the preview is confirmed.
  await page.goto('/algorithms/patient-engagement/data-sources');
  const form = page.getByRole('form', { name: 'Import a file' });
  await pressToCheck(form.getByRole('radio', { name: /Pharmacy CSV/ }));
  await chooseFiles(form.getByRole('button', { name: /File \(at most 50 MB\)/ }), {
    name: 'undo-me.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await form.getByRole('button', { name: 'Import' }).click();
  const preview = page.getByTestId('csv-preview');
  await expect(preview.getByTestId('date-format-guess')).toContainText('YYYY-MM-DD');
  await expect(preview.getByRole('table', { name: 'First rows of undo-me.csv as read' }).getByRole('row')).toHaveCount(5);
  await preview.getByRole('button', { name: 'Confirm import' }).click();
  await expect(preview).toHaveCount(0);

  const history = page.getByRole('region', { name: 'Import history' });
  await expect(history.getByText('The latest 20 imports you ran')).toBeVisible();
  const batch = history.getByTestId('import-batch');
  // The job runs in the background: reload until its batch has finished.
  await expect(async () => {
    await page.reload();
    await expect(batch.getByTestId('import-batch-status')).toHaveText('Completed', { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await expect(batch).toHaveCount(1);
  await expect(batch).toContainText('undo-me.csv');
  await expect(batch).toContainText('4 rows');
  await expect(batch.getByTestId('import-batch-counts')).toContainText('3 patients, 4 dispensings');

  await batch.getByRole('button', { name: /^Remove undo-me\.csv/ }).click();
  const confirmation = page.getByTestId('confirm-removal');
  await expect(confirmation.getByRole('heading', { name: 'Remove undo-me.csv?' })).toBeFocused();
  await expect(confirmation.getByTestId('removal-summary')).toContainText('This deletes 3 patients, 4 dispensings');
  // The sample shows pseudonyms, never the file's patient ids.
  await expect(confirmation.getByRole('table', { name: 'Dispensings' })).toContainText(/P-[0-9A-Z]{12}/);
  await expect(confirmation).not.toContainText(run);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  await confirmation.getByRole('button', { name: 'Remove import' }).click();
  await expect(history.getByRole('status')).toHaveText(/^Removed undo-me\.csv: deleted 3 patients, 4 dispensings/);
  await expect(confirmation).toHaveCount(0);
  await expect(batch.getByTestId('import-batch-status')).toContainText('Removed');
  await expect(batch.getByTestId('import-batch-counts')).toContainText('removed: 3 patients, 4 dispensings');
  await expect(batch.getByRole('button', { name: /^Remove/ })).toHaveCount(0);

  // Still removed after a reload, and nothing left to remove.
  await page.reload();
  await expect(batch.getByTestId('import-batch-status')).toContainText('Removed');
});
