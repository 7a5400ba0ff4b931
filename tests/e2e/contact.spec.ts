import type { Page } from '@playwright/test';
import { expect, seriousAccessibilityViolations, test } from './fixtures';

const successText = "Your message has been delivered! Thanks, we'll get in touch soon.";
const failureText = 'Failed to send message. Please try again later.';

test.use({ viewport: { width: 1280, height: 900 } });

async function openContactModal(page: Page) {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Contact Us' }).click();
  const dialog = page.getByRole('dialog', { name: 'Contact Medaptive' });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function fillValidMessage(page: Page, overrides: { phone?: string } = {}) {
  await page.getByLabel('Your Name').fill('Ada Lovelace');
  await page.getByLabel('Email').fill('ada@example.org');
  await page.getByLabel('Phone Number').fill(overrides.phone ?? '+44 20 7946 0958');
  await page.getByLabel('Subject').fill('A pilot in our clinic');
  await page.getByLabel('Message').fill('Could we talk about a pilot?');
}

/** Collects browser alerts, accepting each one. */
function collectAlerts(page: Page): string[] {
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.accept();
  });
  return alerts;
}

test('the modal is titled "Contact Medaptive", extra large, with labelled fields of the right types', async ({ page }) => {
  const dialog = await openContactModal(page);
  await expect(dialog.getByRole('heading', { name: 'Contact Medaptive' })).toBeVisible();
  // The dialog scales in, so its box is only final once the entry animation ends: poll rather than read once.
  await expect.poll(async () => (await dialog.boundingBox())?.width).toBe(576); // 36rem, HeroUI's "xl"

  const expectations: [string, string, boolean][] = [
    ['Your Name', 'text', true],
    ['Email', 'email', true],
    ['Phone Number', 'tel', false],
    ['Subject', 'text', true],
  ];
  for (const [label, type, required] of expectations) {
    const field = dialog.getByLabel(label);
    await expect(field).toHaveAttribute('type', type);
    if (required) await expect(field).toHaveAttribute('required', '');
    else await expect(field).not.toHaveAttribute('required', '');
  }
  const message = dialog.getByLabel('Message');
  expect(await message.evaluate((element) => element.tagName)).toBe('TEXTAREA');
  await expect(message).toHaveAttribute('required', '');
});

test('sends the message: GET with query parameters and a JSON content type, loading, then the confirmation', async ({ page }) => {
  const dialog = await openContactModal(page);
  await fillValidMessage(page);

  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/contact-us?**', async (route) => {
    await held;
    await route.continue();
  });
  const requestPromise = page.waitForRequest('**/api/contact-us?**');
  const send = dialog.getByRole('button', { name: 'Send' });
  await send.click();

  const request = await requestPromise;
  expect(request.method()).toBe('GET');
  expect(request.headers()['content-type']).toBe('application/json');
  expect(request.postData()).toBeNull();
  const query = new URL(request.url()).searchParams;
  expect(Object.fromEntries(query)).toEqual({
    subject: 'A pilot in our clinic',
    message: 'Could we talk about a pilot?',
    contactName: 'Ada Lovelace',
    contactEmail: 'ada@example.org',
    contactNumber: '+44 20 7946 0958',
  });

  // Sending: the button shows loading and is disabled.
  await expect(send).toBeDisabled();
  await expect(send).toHaveAttribute('data-loading', 'true');
  await expect(send.getByTestId('send-spinner')).toBeVisible();
  await expect(dialog.getByText('Sending your message…')).toBeAttached();

  release();
  await expect(dialog.getByRole('status')).toHaveText(successText);
  await expect(dialog.getByRole('status')).toBeFocused();
  await expect(dialog.getByLabel('Your Name')).toHaveCount(0);
  await expect(send).toBeDisabled();
  await expect(send).not.toHaveAttribute('data-loading', 'true');
});

test('required fields are enforced by the browser: nothing is sent', async ({ page }) => {
  const dialog = await openContactModal(page);
  let requests = 0;
  page.on('request', (request) => {
    if (request.url().includes('/api/contact-us')) requests += 1;
  });
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect
    .poll(() => dialog.getByLabel('Your Name').evaluate((element) => (element as HTMLInputElement).validity.valueMissing))
    .toBe(true);
  // Phone Number is optional, so an empty value is valid.
  expect(await dialog.getByLabel('Phone Number').evaluate((element) => (element as HTMLInputElement).validity.valid)).toBe(true);
  await expect(dialog.getByRole('button', { name: 'Send' })).toBeEnabled();
  expect(requests).toBe(0);
});

test('success:false keeps the form, alerts, and lets the user send again', async ({ page }) => {
  const alerts = collectAlerts(page);
  const dialog = await openContactModal(page);
  await fillValidMessage(page);
  await page.route('**/api/contact-us?**', (route) => route.fulfill({ json: { success: false } }));
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect.poll(() => alerts).toEqual([`alert: ${failureText}`]);
  await expect(dialog.getByRole('button', { name: 'Send' })).toBeFocused();
  await expect(dialog.getByLabel('Your Name')).toHaveValue('Ada Lovelace');
  await expect(dialog.getByLabel('Message')).toHaveValue('Could we talk about a pilot?');
  await expect(dialog.getByRole('button', { name: 'Send' })).toBeEnabled();
  await expect(dialog.getByRole('status')).toHaveCount(0);
});

test('a network failure alerts and re-enables Send (the spec hang is fixed)', async ({ page, allowConsoleMessages }) => {
  // The browser reports the dropped connection this test causes.
  allowConsoleMessages(/^Failed to load resource: net::ERR_INTERNET_DISCONNECTED$/);
  const alerts = collectAlerts(page);
  const dialog = await openContactModal(page);
  await fillValidMessage(page);
  await page.route('**/api/contact-us?**', (route) => route.abort('internetdisconnected'));
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect.poll(() => alerts).toEqual([`alert: ${failureText}`]);
  await expect(dialog.getByRole('button', { name: 'Send' })).toBeEnabled();
  await expect(dialog.getByLabel('Subject')).toHaveValue('A pilot in our clinic');

  // The connection comes back: the same form can now be sent for real.
  await page.unroute('**/api/contact-us?**');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog.getByRole('status')).toHaveText(successText);
});

test('an answer that is not JSON alerts and re-enables Send', async ({ page, allowConsoleMessages }) => {
  // The browser reports the 502 this test serves.
  allowConsoleMessages(/^Failed to load resource: the server responded with a status of 502 \(Bad Gateway\)$/);
  const alerts = collectAlerts(page);
  const dialog = await openContactModal(page);
  await fillValidMessage(page);
  await page.route('**/api/contact-us?**', (route) =>
    route.fulfill({ status: 502, contentType: 'text/html', body: '<html>Bad gateway</html>' }),
  );
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect.poll(() => alerts).toEqual([`alert: ${failureText}`]);
  await expect(dialog.getByRole('button', { name: 'Send' })).toBeEnabled();
});

test('the server rejects a bad phone number: alert, and the field shows why', async ({ page }) => {
  const alerts = collectAlerts(page);
  const dialog = await openContactModal(page);
  await fillValidMessage(page, { phone: '12' });
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect.poll(() => alerts).toEqual([`alert: ${failureText}`]);
  await expect(dialog.getByText(/^Phone Number must be a phone number of 7 to 15 digits/)).toBeVisible();
  await expect(dialog.getByLabel('Phone Number')).toHaveAttribute('aria-invalid', 'true');
  // Correcting the field clears the error and the message goes through.
  await dialog.getByLabel('Phone Number').fill('+44 20 7946 0958');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog.getByRole('status')).toHaveText(successText);
});

test('the endpoint answers 400 with the field named, and 429 past 5 messages a minute', async ({ page, clientAddress }) => {
  const headers = { 'X-Forwarded-For': clientAddress, 'Content-Type': 'application/json' };
  const valid = new URLSearchParams({
    subject: 'Hello',
    message: 'A question',
    contactName: 'Ada',
    contactEmail: 'ada@example.org',
    contactNumber: '',
  });

  const invalid = new URLSearchParams(valid);
  invalid.delete('subject');
  const rejected = await page.request.get(`/api/contact-us?${invalid}`, { headers });
  expect(rejected.status()).toBe(400);
  const rejectedBody = await rejected.json();
  expect(rejectedBody).toMatchObject({ success: false, error: { code: 'validation', fieldErrors: { subject: 'Subject is required.' } } });
  expect(JSON.stringify(rejectedBody)).not.toMatch(/\.ts:\d+|node_modules|at \w+ \(/);

  // The rejected request counted too: 4 more are accepted, the next is refused.
  for (let index = 0; index < 4; index += 1) {
    const accepted = await page.request.get(`/api/contact-us?${valid}`, { headers });
    expect(accepted.status()).toBe(200);
    expect(await accepted.json()).toEqual({ success: true });
  }
  const limited = await page.request.get(`/api/contact-us?${valid}`, { headers });
  expect(limited.status()).toBe(429);
  expect(await limited.json()).toMatchObject({ success: false, error: { code: 'rate_limited' } });
});

test('the modal works with the keyboard alone, and focus returns to Contact Us', async ({ page }) => {
  await page.goto('/');
  const contactUs = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Contact Us' });
  await contactUs.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Contact Medaptive' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Your Name')).toBeFocused();

  await page.keyboard.type('Grace Hopper');
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Email')).toBeFocused();
  await page.keyboard.type('grace@example.org');
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Phone Number')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Subject')).toBeFocused();
  await page.keyboard.type('Keyboard only');
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Message')).toBeFocused();
  await page.keyboard.type('Sent without a mouse.');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Close', exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Send' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('status')).toHaveText(successText);

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(contactUs).toBeFocused();

  // Opening again starts a fresh form.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Contact Medaptive' }).getByLabel('Your Name')).toHaveValue('');
});

test('the open modal has no serious or critical accessibility violations', async ({ page }) => {
  await openContactModal(page);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});
