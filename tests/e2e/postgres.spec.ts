import { expect, test } from './fixtures';

// Runs against the server started with DATABASE_URL (playwright.config.ts, project "postgres").

test('GET /api/health reports PostgreSQL', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ status: 'ok', database: 'postgres' });
});

test('a contact message is accepted and stored through PostgreSQL', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Contact Us' }).click();
  const dialog = page.getByRole('dialog', { name: 'Contact Medaptive' });
  await dialog.getByLabel('Your Name').fill('Ada Lovelace');
  await dialog.getByLabel('Email').fill('ada@example.org');
  await dialog.getByLabel('Subject').fill('Through PostgreSQL');
  await dialog.getByLabel('Message').fill('Stored in a real server.');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog.getByRole('status')).toHaveText("Your message has been delivered! Thanks, we'll get in touch soon.");
});

test('a profile change made through one instance reaches a page served by another instance', async ({
  browser,
  baseURL,
  clientAddress,
  signIn,
  createAccount,
}) => {
  if (baseURL === undefined) throw new Error('no baseURL');
  // playwright.config.ts starts the second instance on the next port, sharing the same database.
  const secondURL = baseURL.replace(/:(\d+)$/, (_match, port: string) => `:${Number(port) + 1}`);
  const first = await browser.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': clientAddress } });
  const second = await browser.newContext({ baseURL: secondURL, extraHTTPHeaders: { 'X-Forwarded-For': clientAddress } });
  // An account of its own: the demo accounts' profiles are shared with other specs.
  const credentials = await createAccount({ role: 'patient' });
  await signIn(credentials, first);
  const response = await second.request.post('/api/auth/sign-in/email', { headers: { Origin: secondURL }, data: credentials });
  expect(response.status()).toBe(200);

  const watching = await second.newPage();
  await watching.goto('/profile');
  await expect(watching.getByLabel('Display name')).toBeVisible();

  const editing = await first.newPage();
  await editing.goto('/profile');
  const name = `Across instances ${Date.now()}`;
  await editing.getByLabel('Display name').fill(name);
  await editing.getByRole('button', { name: 'Save' }).click();
  await expect(editing.getByRole('status')).toHaveText('Saved.');
  await expect(watching.getByLabel('Display name')).toHaveValue(name);
});
