import { expect, seriousAccessibilityViolations, test } from './fixtures';

const path = '/algorithms/patient-engagement/persona-based-message-examples';

test('a clinician sees each template as a WhatsApp bubble with its buttons and as an SMS, in English and Spanish, without edit controls', async ({
  page,
  signIn,
}) => {
  test.slow();
  await signIn('clinician');
  // Even asking for the editor in the address opens nothing for a clinician.
  await page.goto(`${path}?edit=reminder.gain.1`);
  await expect(page.getByRole('heading', { level: 1, name: 'Persona-Based Message Examples' })).toBeVisible();
  await expect(page.getByTestId('example-record')).toContainText('example record');

  const bubble = page.getByRole('figure', { name: 'reminder.neutral.1 on WhatsApp' });
  await expect(bubble).toContainText('Reminder: your Metformin 500 mg is due at 8:00 am.');
  await expect(bubble.getByRole('list', { name: 'Quick-reply buttons' }).getByRole('listitem')).toHaveText(['Taken ✓', 'Not yet', 'Skip']);
  const sms = page.getByRole('figure', { name: 'reminder.neutral.1 by SMS' });
  await expect(sms).toContainText('Medaptive: Reminder: your Metformin 500 mg is due at 8:00 am.');
  await expect(sms).toContainText('Reply 1 = taken, 2 = not yet, 3 = skip. STOP to opt out.');
  await expect(page.getByTestId('persona-population')).toContainText('Population:');

  await expect(page.getByRole('link', { name: /^Edit / })).toHaveCount(0);
  await expect(page.getByRole('form', { name: /^Edit template/ })).toHaveCount(0);

  await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'Español' }).click();
  await expect(page).toHaveURL(/lang=es/);
  const spanish = page.getByRole('figure', { name: 'reminder.neutral.1 on WhatsApp' });
  await expect(spanish.getByRole('listitem')).toHaveText(['Tomada ✓', 'Aún no', 'Omitir']);
  expect(await seriousAccessibilityViolations(page, 'main')).toEqual([]);
});

test('an admin edits a template with the keyboard: a bad placeholder is refused naming the body, then a new version is saved and listed', async ({
  page,
  signIn,
}) => {
  test.slow();
  await signIn('admin');
  await page.goto(path);
  const edit = page.getByRole('link', { name: 'Edit reminder.gain.1' });
  await edit.focus();
  await page.keyboard.press('Enter');
  const editor = page.locator('#template-editor');
  await expect(editor.getByRole('heading', { name: 'Edit reminder.gain.1 (English)' })).toBeVisible();
  const history = editor.getByRole('table', { name: 'Version history' });
  // Whatever an earlier attempt left: the version being edited is the newest row of the history.
  const current = Number(await history.getByRole('row').nth(1).getByRole('cell').first().textContent());
  expect(current).toBeGreaterThanOrEqual(1);

  const body = editor.getByRole('textbox', { name: 'Body' });
  await body.fill('Hello {{name}}, your {{medicine}} is due at {{dose_time}}.');
  await editor.getByRole('button', { name: `Save as version ${current + 1}` }).click();
  await expect(editor.getByRole('alert').filter({ hasText: 'The template is not valid' })).toContainText(
    'body: Unknown placeholder {{name}}.',
  );
  await expect(editor.getByText('Unknown placeholder {{name}}.').first()).toBeVisible();

  const note = `e2e ${Date.now()}`;
  await body.fill('Your {{medicine}} is due at {{dose_time}}. Each dose on time keeps it working.');
  await editor.getByRole('textbox', { name: 'Note (why this version)' }).fill(note);
  await editor.getByRole('button', { name: `Save as version ${current + 1}` }).focus();
  await page.keyboard.press('Enter');
  await expect(editor.getByRole('status')).toHaveText(`Saved as version ${current + 1}.`);

  const newest = history.getByRole('row').nth(1);
  await expect(newest).toContainText(note);
  await expect(newest.getByRole('cell').first()).toHaveText(String(current + 1));
  await expect(history.getByRole('row')).toHaveCount(current + 2);
  const card = page.getByRole('article', { name: 'reminder.gain.1' });
  await expect(card.getByTestId('template-version')).toHaveText(`Version ${current + 1}`);
  await expect(card.getByRole('figure', { name: 'reminder.gain.1 on WhatsApp' })).toContainText('Each dose on time keeps it working.');
});
