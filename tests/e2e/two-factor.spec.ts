import type { Browser, Page } from '@playwright/test';
import { codeIn, expect, latestOutboxMessage, signUpFreshAccount, test, totp } from './fixtures';

function uniquePhoneNumber(): string {
  return `+4477009${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`;
}

async function signInWithPassword(page: Page, credentials: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Second step' })).toBeVisible();
}

async function freshPage(browser: Browser, clientAddress: string): Promise<Page> {
  const context = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': clientAddress } });
  return context.newPage();
}

test('enrol an authenticator app, sign in with it, refuse a replayed code, use a backup code once, withdraw', async ({
  page,
  context,
  baseURL,
  browser,
  clientAddress,
}) => {
  test.setTimeout(90_000);
  const credentials = await signUpFreshAccount(context, baseURL ?? '');

  // Enrolment start: password, then the QR code and the manual key.
  await page.goto('/settings');
  await expect(page.getByTestId('two-factor-status')).toHaveText('Off.');
  const setUp = page.getByRole('form', { name: 'Set up two-factor sign-in' });
  await setUp.getByLabel('Password').fill(credentials.password);
  await setUp.getByRole('button', { name: 'Set up authenticator app' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);

  // Enrolment finish: a code from the app.
  const enrolmentCode = totp(secret);
  await page.getByLabel('6-digit code from the app').fill(enrolmentCode);
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await expect(page.getByTestId('two-factor-status')).toHaveText('On: signing in asks for a second step.');
  const backupCodes = await page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem').allTextContents();
  expect(backupCodes).toHaveLength(10);

  // Second-factor sign-in in another browser: the next step's code (±1 step is accepted).
  const second = await freshPage(browser, clientAddress);
  await signInWithPassword(second, credentials);
  let signInCode = totp(secret, Date.now(), 1);
  if (signInCode === enrolmentCode) signInCode = totp(secret, Date.now(), -1);
  await second.getByLabel('Code from your authenticator app').fill(signInCode);
  await second.getByRole('button', { name: 'Confirm' }).click();
  await expect(second).toHaveURL('/');
  await expect(second.getByRole('button', { name: 'Account menu' })).toBeVisible();

  // The same code again, elsewhere, is refused.
  const replay = await freshPage(browser, clientAddress);
  await signInWithPassword(replay, credentials);
  await replay.getByLabel('Code from your authenticator app').fill(signInCode);
  await replay.getByRole('button', { name: 'Confirm' }).click();
  await expect(replay.getByRole('main').getByRole('alert')).toHaveText(
    'That code was used already. Wait for the next one in your authenticator app.',
  );

  // A backup code works once.
  const backup = await freshPage(browser, clientAddress);
  await signInWithPassword(backup, credentials);
  await backup.getByRole('radio', { name: 'Backup code' }).click();
  await backup.getByLabel('Backup code').fill(backupCodes[0] ?? '');
  await backup.getByRole('button', { name: 'Confirm' }).click();
  await expect(backup).toHaveURL('/');
  const backupAgain = await freshPage(browser, clientAddress);
  await signInWithPassword(backupAgain, credentials);
  await backupAgain.getByRole('radio', { name: 'Backup code' }).click();
  await backupAgain.getByLabel('Backup code').fill(backupCodes[0] ?? '');
  await backupAgain.getByRole('button', { name: 'Confirm' }).click();
  await expect(backupAgain.getByRole('main').getByRole('alert')).toBeVisible();

  // Withdraw the factor: the next sign-in has no second step.
  await page.reload();
  const turnOff = page.getByRole('form', { name: 'Turn off two-factor sign-in' });
  await turnOff.getByLabel('Password').fill(credentials.password);
  await turnOff.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
  await expect(page.getByTestId('two-factor-status')).toHaveText('Off.');
});

test('enrol SMS codes with a confirmed phone number, sign out, sign in with the SMS code; a wrong code is refused', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const credentials = await signUpFreshAccount(context, baseURL ?? '');
  const phoneNumber = uniquePhoneNumber();

  // Confirm a phone number on /settings: the captcha, then the code sent to it.
  await page.goto('/settings');
  const phoneForm = page.getByRole('form', { name: 'Change phone number' });
  await phoneForm.getByLabel('New mobile number').fill(phoneNumber);
  const widget = phoneForm.locator('altcha-widget');
  await widget.getByText("I'm not a robot").click();
  await expect(widget.locator('input[name="altcha"]')).not.toHaveValue('', { timeout: 20_000 });
  await phoneForm.getByRole('button', { name: 'Send confirmation code' }).click();
  const confirmation = codeIn(await latestOutboxMessage(page.request, phoneNumber, /sign-in code/));
  const confirmForm = page.getByRole('form', { name: 'Confirm phone number' });
  await confirmForm.getByLabel('Code').fill(confirmation);
  await confirmForm.getByRole('button', { name: 'Confirm number' }).click();
  await expect(page.getByText('Your phone number is confirmed. You can now receive codes by SMS.')).toBeVisible();

  // Turn on SMS codes as the second step.
  await page.reload();
  const setUp = page.getByRole('form', { name: 'Set up two-factor sign-in' });
  await setUp.getByLabel('Password').fill(credentials.password);
  await setUp.getByRole('button', { name: `Use SMS codes to ${phoneNumber}` }).click();
  await expect(page.getByTestId('two-factor-status')).toHaveText('On: signing in asks for a second step.');

  // Sign out.
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' })).toBeVisible();

  // Password, then the SMS step: a wrong code is refused in words, the code from the SMS signs in.
  await signInWithPassword(page, credentials);
  await page.getByRole('radio', { name: 'SMS' }).click();
  await expect(page.getByRole('main').getByRole('status')).toHaveText(
    'We sent a code to the phone number on your account. It works for 5 minutes.',
  );
  const code = codeIn(await latestOutboxMessage(page.request, phoneNumber, /verification code/));
  await page.getByLabel('Code sent by SMS').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('That code is not right. Check it and try again.');
  await expect(page).toHaveURL('/login');
  await page.getByLabel('Code sent by SMS').fill(code);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
});

test('after 10 wrong second-step codes in a row, /login says sign-in is locked for 15 minutes, even for the right code', async ({
  page,
  context,
  baseURL,
}) => {
  const credentials = await signUpFreshAccount(context, baseURL ?? '');
  const headers = { Origin: baseURL ?? '' };
  // An authenticator app, set up through the API (the first test covers the settings page).
  const enable = await context.request.post('/api/auth/two-factor/enable', { headers, data: { password: credentials.password } });
  expect(enable.status()).toBe(200);
  const secret = new URL(((await enable.json()) as { totpURI: string }).totpURI).searchParams.get('secret') ?? '';
  const enrolmentCode = totp(secret);
  expect((await context.request.post('/api/auth/two-factor/verify-totp', { headers, data: { code: enrolmentCode } })).status()).toBe(200);

  // Ten wrong codes: each sign-in allows 5 tries, so two sign-ins.
  const valid = new Set([-1, 0, 1].map((offset) => totp(secret, Date.now(), offset)));
  const wrong = ['000000', '111111', '222222', '333333'].find((candidate) => !valid.has(candidate)) ?? '';
  for (let challenge = 0; challenge < 2; challenge += 1) {
    const signIn = await context.request.post('/api/auth/sign-in/email', { headers, data: credentials });
    expect(await signIn.json()).toMatchObject({ twoFactorRedirect: true });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await context.request.post('/api/auth/two-factor/verify-totp', { headers, data: { code: wrong } })).status()).toBe(401);
    }
  }

  await signInWithPassword(page, credentials);
  let rightCode = totp(secret, Date.now(), 1);
  if (rightCode === enrolmentCode) rightCode = totp(secret, Date.now(), -1);
  await page.getByLabel('Code from your authenticator app').fill(rightCode);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'Too many wrong codes in a row: second-step sign-in is locked for 15 minutes. Try again later.',
  );
  await expect(page).toHaveURL('/login');
});
