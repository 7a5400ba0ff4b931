import type { Page } from '@playwright/test';
import { codeIn, expect, latestOutboxMessage, openPhoneTab, seriousAccessibilityViolations, solveCaptcha, test } from './fixtures';

// Sign-in flows through the UI (the only specs that sign in through the form).

function uniquePhoneNumber(): string {
  return `+4477009${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`;
}

async function requestPhoneCode(page: Page, phoneNumber: string) {
  await openPhoneTab(page);
  await page.getByLabel('Mobile number').fill(phoneNumber);
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Send code' }).click();
}

test('e-mail and password: a wrong password is explained in words, the right one signs in', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill('patient@medaptive.test');
  await page.getByLabel('Password').fill('not the password at all');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'That e-mail and password do not match an account. Check both and try again.',
  );

  await page.getByLabel('Password').fill('Medaptive-demo-1');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' })).toHaveCount(0);
});

test('creating an account answers the same for a new and a registered address', async ({ page }) => {
  const fresh = `fresh-${Date.now()}@example.org`;
  const answers: string[] = [];
  for (const email of [fresh, 'patient@medaptive.test']) {
    await page.goto('/login');
    await page.getByRole('button', { name: 'New here? Create an account' }).click();
    await page.getByLabel('Your name').fill('Someone');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('twelve chars ok');
    await page.getByRole('button', { name: 'Create account' }).click();
    const status = page.getByRole('status');
    await expect(status).toContainText('Check your inbox');
    answers.push((await status.textContent())?.replace(email, '<address>') ?? '');
    // The view says what it is, and the form is emptied once the request has gone.
    await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
    await expect(page.getByLabel('Password')).toHaveValue('');
    await expect(page.getByLabel('Email')).toHaveValue('');
  }
  expect(answers[0]).toBe(answers[1]);
  // The new address gets a confirmation link; the owner of the registered one is told instead.
  await latestOutboxMessage(page.request, fresh, /Open this link to confirm/);
  await latestOutboxMessage(page.request, 'patient@medaptive.test', /An account already exists/);
});

test('creating an account needs a password of at least 12 characters', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'New here? Create an account' }).click();
  await page.getByLabel('Your name').fill('Someone');
  await page.getByLabel('Email').fill(`short-${Date.now()}@example.org`);
  await page.getByLabel('Password').fill('elevenchars');
  await page.getByRole('button', { name: 'Create account' }).click();
  // The browser's own check stops the form before anything is sent.
  expect(await page.getByLabel('Password').evaluate((element) => (element as HTMLInputElement).validity.tooShort)).toBe(true);
});

test('phone: no code is sent before the captcha is solved — in the browser and on the server', async ({ page, baseURL }) => {
  let sendRequests = 0;
  page.on('request', (request) => {
    if (request.url().includes('/phone-number/send-otp')) sendRequests += 1;
  });
  await page.goto('/login');
  await openPhoneTab(page);
  const phoneNumber = uniquePhoneNumber();
  await page.getByLabel('Mobile number').fill(phoneNumber);
  await page.getByRole('button', { name: 'Send code' }).click();
  // The widget's own checkbox is required: the browser's validation stops the form.
  await expect
    .poll(() =>
      page.locator('altcha-widget input[type="checkbox"]').evaluate((element) => (element as HTMLInputElement).validity.valueMissing),
    )
    .toBe(true);
  expect(sendRequests).toBe(0);

  // Straight to the server without a solved challenge, or with a forged one: refused, and no SMS.
  for (const altcha of [undefined, Buffer.from(JSON.stringify({ challenge: {}, solution: {} })).toString('base64')]) {
    const response = await page.request.post('/api/auth/phone-number/send-otp', {
      headers: { Origin: baseURL ?? '', ...(altcha ? { 'x-altcha': altcha } : {}) },
      data: { phoneNumber },
    });
    expect(response.status()).toBe(400);
    expect((await response.json()).code).toBe('CAPTCHA_FAILED');
  }
  const outbox = (await (await page.request.get('/api/dev/outbox')).json()) as { messages: { recipient: string }[] };
  expect(outbox.messages.filter((message) => message.recipient === phoneNumber)).toEqual([]);
});

test('phone: the SMS code signs in (a new number creates the account)', async ({ page }) => {
  const phoneNumber = uniquePhoneNumber();
  await page.goto('/login?next=/profile');
  await requestPhoneCode(page, phoneNumber);
  const sms = await latestOutboxMessage(page.request, phoneNumber, /sign-in code/);
  await page.getByRole('textbox', { name: /^Code/ }).fill(codeIn(sms));
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page).toHaveURL('/profile');
  await expect(page.getByTestId('profile-role')).toHaveText('Patient');
});

test('phone: three wrong guesses invalidate the code, and a second code within a minute is refused', async ({ page }) => {
  const phoneNumber = uniquePhoneNumber();
  await page.goto('/login');
  await requestPhoneCode(page, phoneNumber);
  const code = codeIn(await latestOutboxMessage(page.request, phoneNumber, /sign-in code/));
  const wrong = code === '000000' ? '111111' : '000000';
  for (let attempt = 0; attempt < 3; attempt += 1) {
    await page.getByRole('textbox', { name: /^Code/ }).fill(wrong);
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toBeVisible();
  }
  await page.getByRole('textbox', { name: /^Code/ }).fill(code);
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(/expired or was replaced|not right|Too many attempts/);
  await expect(page).toHaveURL('/login');

  // A new code for the same number within the minute is refused.
  await page.getByRole('button', { name: 'Use another number or send a new code' }).click();
  await page.getByLabel('Mobile number').fill(phoneNumber);
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Too many attempts. Please wait a while before trying again.');
});

test('the login page passes axe on both tabs', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Login');
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await openPhoneTab(page);
  await expect(page.locator('altcha-widget')).toBeVisible();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test('forgot password: the same answer for any address, a single-use link by e-mail, and only the new password signs in', async ({
  page,
  createAccount,
}) => {
  test.setTimeout(90_000);
  const account = await createAccount({ role: 'patient' });
  const answers: string[] = [];
  for (const email of [`nobody-${Date.now()}@example.org`, account.email]) {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reset your password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    const status = page.getByRole('main').getByRole('status');
    await expect(status).toContainText('If an account uses');
    answers.push((await status.textContent())?.replace(email, '<address>') ?? '');
  }
  expect(answers[0]).toBe(answers[1]);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  const message = await latestOutboxMessage(page.request, account.email, /choose a new password/);
  const link = /(https?:\/\/\S+)/.exec(message.body)?.[1] ?? '';
  await page.goto(link);
  await expect(page).toHaveURL(/\/login\/reset-password\?token=/);
  const form = page.getByRole('form', { name: 'Choose a new password' });
  await form.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
  await form.getByLabel('New password again').fill('a different passphrase');
  await form.getByRole('button', { name: 'Set the new password' }).click();
  await expect(form.getByRole('alert')).toHaveText('The two passwords are not the same. Type the new password twice.');
  await form.getByLabel('New password again').fill('a brand new passphrase');
  await form.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByRole('main').getByRole('status')).toContainText('Your password has been changed');
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  // The link works once.
  await page.goto(link);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'This reset link has expired or has already been used. Ask for a new one below.',
  );

  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'That e-mail and password do not match an account. Check both and try again.',
  );
  await page.getByLabel('Password').fill('a brand new passphrase');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
});
