import { expect, seriousAccessibilityViolations, test } from './fixtures';

const path = '/algorithms/patient-engagement/lifestyle-surveys';

// Saves a new version of the lifestyle survey with the same questions, so a patient's survey running in another
// spec at the same time keeps its version and meets the same questions if it starts anew.
test('an admin edits a survey: a bad definition is refused with its field named and nothing saved, a good one becomes the next version and every version stays listed', async ({
  page,
  signIn,
  createAccount,
}) => {
  test.slow();
  await signIn(await createAccount({ role: 'admin' }));
  await page.goto(path);
  const definitions = page.getByRole('region', { name: 'Survey definitions' });
  const summary = definitions.getByText(/^Edit “Lifestyle” \(version \d+; \d+ versions? kept\)$/);
  const before = Number(/version (\d+);/.exec((await summary.textContent()) ?? '')?.[1]);
  expect(before).toBeGreaterThanOrEqual(1);
  // Opened from the keyboard, as the disclosure is a native <details>.
  await summary.focus();
  await page.keyboard.press('Enter');
  const editor = definitions.getByRole('form', { name: 'Edit the Lifestyle survey' });
  const json = editor.getByRole('textbox', { name: 'Definition (JSON)' });
  await expect(json).toBeVisible();
  const original = await json.inputValue();
  const definition = JSON.parse(original) as {
    questions: { kind: string; options?: { likelihoods: Record<string, number> }[] }[];
  };
  const list = definitions.getByRole('listitem');
  const versionsBefore = await list.count();

  // Likelihoods that no longer sum to 1 for a persona: refused, the question named.
  const broken = structuredClone(definition);
  const choice = broken.questions.find((question) => question.kind === 'choice')!;
  const persona = Object.keys(choice.options![0]!.likelihoods)[0]!;
  choice.options![0]!.likelihoods[persona]! += 0.25;
  await json.fill(JSON.stringify(broken, null, 2));
  await editor.getByRole('textbox', { name: 'What changed' }).fill('A likelihood raised by mistake');
  await editor.getByRole('button', { name: `Save as version ${before + 1}` }).click();
  await expect(editor.getByRole('alert')).toContainText(`P(answer | ${persona}) sums to`);

  // Not JSON at all: refused in words.
  await json.fill('{ "key": "lifestyle", ');
  await editor.getByRole('button', { name: `Save as version ${before + 1}` }).click();
  await expect(editor.getByRole('alert')).toHaveText('The definition is not valid JSON.');
  await expect(list).toHaveCount(versionsBefore);

  // The definition as it was, with a note: saved as the next version, listed beside the earlier ones.
  await json.fill(original);
  await editor.getByRole('textbox', { name: 'What changed' }).fill('Wording reviewed, no question changed (end-to-end test)');
  await editor.getByRole('button', { name: `Save as version ${before + 1}` }).click();
  await expect(editor.getByRole('status')).toHaveText(`Saved as version ${before + 1}.`);
  await expect(definitions.getByText(new RegExp(`^Edit “Lifestyle” \\(version ${before + 1}; \\d+ versions kept\\)$`))).toBeVisible();
  await expect(list.filter({ hasText: 'Wording reviewed, no question changed (end-to-end test)' })).toHaveCount(1);
  await expect.poll(() => list.count()).toBe(versionsBefore + 1);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});
