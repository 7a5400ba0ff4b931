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
