import type { Browser, Page } from '@playwright/test';
import { expect, signUpFreshAccount, test, totp } from './fixtures';

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

test('enrol an authenticator app, sign in with it, refuse a replayed code, use a backup code once, withdraw', async ({ page, context, baseURL, browser, clientAddress }) => {
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
  await expect(replay.getByRole('main').getByRole('alert')).toHaveText('That code was used already. Wait for the next one in your authenticator app.');

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
