import { expect, signUpFreshAccount, test } from './fixtures';

test('the session cookie is HttpOnly and SameSite=Lax', async ({ context, signIn }) => {
  await signIn('patient');
  const cookies = await context.cookies();
  const session = cookies.find((cookie) => cookie.name.endsWith('session_token'));
  expect(session).toBeDefined();
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe('Lax');
});

test('change the password, see the active sessions, and sign out everywhere else', async ({
  page,
  context,
  baseURL,
  browser,
  clientAddress,
  signIn,
}) => {
  const credentials = await signUpFreshAccount(context, baseURL ?? '');
  const elsewhere = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': clientAddress } });
  await signIn(credentials, elsewhere);

  await page.goto('/settings');
  const sessions = page.getByRole('list', { name: 'Active sessions' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await expect(sessions.getByText('(this browser)')).toHaveCount(1);
  // Named by browser and system, not by the raw user-agent string.
  await expect(sessions.getByRole('listitem').filter({ hasText: '(this browser)' })).toContainText(
    /^Chrome( Headless)? \d+ on Linux · since /,
  );

  await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(page.getByRole('main').getByRole('status')).toHaveText('You are signed out everywhere else.');
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  const otherSession = await elsewhere.request.get('/api/auth/get-session');
  expect(await otherSession.json()).toBeNull();

  // Signed in elsewhere again: changing the password ends that session too (always; there is no opt-out).
  await signIn(credentials, elsewhere);
  const change = page.getByRole('form', { name: 'Change password' });
  await expect(change.getByText('Changing your password signs out all your other sessions.')).toBeVisible();
  await change.getByLabel('Current password').fill('wrong current password');
  await change.getByLabel(/New password/).fill('another long passphrase');
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(change.getByRole('alert')).toHaveText('Your current password is not right.');
  await change.getByLabel('Current password').fill(credentials.password);
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(change.getByRole('status')).toHaveText('Your password was changed, and your other sessions were signed out.');
  expect(await (await elsewhere.request.get('/api/auth/get-session')).json()).toBeNull();

  const old = await elsewhere.request.post('/api/auth/sign-in/email', { headers: { Origin: baseURL ?? '' }, data: credentials });
  expect(old.status()).toBe(401);
  const renewed = await elsewhere.request.post('/api/auth/sign-in/email', {
    headers: { Origin: baseURL ?? '' },
    data: { email: credentials.email, password: 'another long passphrase' },
  });
  expect(renewed.status()).toBe(200);
});
