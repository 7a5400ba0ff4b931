import type { APIRequestContext, Page } from '@playwright/test';
import { expect, seriousAccessibilityViolations, signUpFreshAccount, test } from './fixtures';

// Per-account step-up: 5 wrong passwords for one address within an hour, from any number of clients, and the
// next e-mail sign-ins for it need the "I am not a robot" check (a sign-in spec: it uses the form).

const captchaRequired =
  'There have been several wrong passwords for this e-mail address, so signing in now also needs the “I am not a robot” check. Complete it below and sign in again.';

/** Five wrong passwords for `email`, each from another client address (a distributed attack). */
async function fiveWrongPasswords(request: APIRequestContext, baseURL: string, email: string, clientAddress: string) {
  const [a, b, c] = clientAddress.split('.').slice(1);
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    const response = await request.post('/api/auth/sign-in/email', {
      headers: { Origin: baseURL, 'X-Forwarded-For': `172.${16 + (Number(a) % 16)}.${b}.${(Number(c) + attempt) % 256}` },
      data: { email, password: `wrong password number ${attempt}` },
    });
    expect(response.status()).toBe(401);
  }
}

async function submitSignIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('after 5 wrong passwords from many clients, /login asks for the captcha, and with it the right password signs in', async ({
  browser,
  page,
  request,
  baseURL,
  clientAddress,
}) => {
  // A fresh account (the demo accounts are shared with other specs), made in a context of its own.
  const setup = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': clientAddress } });
  const account = await signUpFreshAccount(setup, baseURL ?? '');
  await setup.close();

  await fiveWrongPasswords(request, baseURL ?? '', account.email, clientAddress);

  // The right password without the check is refused in words, and the check appears.
  await page.goto('/login');
  await submitSignIn(page, account.email, account.password);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(captchaRequired);
  const widget = page.locator('altcha-widget');
  await expect(widget).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  // Solved, the right password signs in.
  await widget.getByText("I'm not a robot").click();
  await expect(widget.locator('input[name="altcha"]')).not.toHaveValue('', { timeout: 20_000 });
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();

  // The success reset the count: the next sign-in needs no check.
  const again = await request.post('/api/auth/sign-in/email', {
    headers: { Origin: baseURL ?? '', 'X-Forwarded-For': clientAddress },
    data: account,
  });
  expect(again.status()).toBe(200);
});

test('an address without an account gets the same answers', async ({ request, baseURL, clientAddress }) => {
  const email = `nobody-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;
  await fiveWrongPasswords(request, baseURL ?? '', email, clientAddress);
  const response = await request.post('/api/auth/sign-in/email', {
    headers: { Origin: baseURL ?? '', 'X-Forwarded-For': clientAddress },
    data: { email, password: 'any password at all' },
  });
  expect(response.status()).toBe(403);
  expect((await response.json()).code).toBe('CAPTCHA_REQUIRED');
});
