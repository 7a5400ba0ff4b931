import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// Signing in through a real local OpenID provider (tests/e2e/support/local-openid-provider.ts).
const providerButton = 'Sign in with Test Identity Provider';

async function signInAtProvider(window: Page, login: string) {
  await window.locator('input[name="login"]').fill(login);
  await window.locator('input[name="password"]').fill('any password');
  await window.locator('button[type="submit"]').click();
  await window.getByRole('button', { name: 'Continue' }).click();
}

test('redirect: PKCE (S256), state and nonce, then back to the requested page', async ({ page }) => {
  const authorisation = page.waitForRequest((request) => request.url().includes('/auth?'));
  const callback = page.waitForRequest((request) => request.url().includes('/api/auth/callback/oidc'));
  await page.goto('/login?next=/profile');
  await page.getByRole('button', { name: `${providerButton} in this window` }).click();
  const query = new URL((await authorisation).url()).searchParams;
  expect(query.get('code_challenge_method')).toBe('S256');
  expect(query.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(query.get('state')).toBeTruthy();
  expect(query.get('nonce')).toBeTruthy();
  await signInAtProvider(page, `alice${Date.now()}`);
  const callbackUrl = (await callback).url();
  await expect(page).toHaveURL('/profile');
  await expect(page.getByText(/@idp\.test$/)).toBeVisible();

  // The same callback again (a replay), in another browser: refused with a sentence, not a code.
  const replay = await page.context().browser()?.newContext();
  const replayPage = await replay?.newPage();
  if (replayPage === undefined) throw new Error('no browser');
  await replayPage.goto(callbackUrl);
  await expect(replayPage).toHaveURL(/\/login\?error=/);
  await expect(replayPage.getByRole('main').getByRole('alert')).toHaveText(/refused|could not be confirmed|did not match/);
  await expect(replayPage.getByRole('main').getByRole('alert')).not.toHaveText(/_/);

  // A tampered state is refused too.
  const tampered = new URL(callbackUrl);
  tampered.searchParams.set('state', 'forged-state');
  await replayPage.goto(tampered.toString());
  await expect(replayPage.getByRole('main').getByRole('alert')).toHaveText(/refused|did not match/);
});

test('popup: a 500×600 window signs in and closes', async ({ page }) => {
  await page.goto('/login');
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: providerButton, exact: true }).click();
  const popup = await popupOpened;
  // Measured once the popup has finished redirecting to the provider's login form.
  await expect(popup.locator('input[name="login"]')).toBeVisible();
  expect(await popup.evaluate(() => [window.innerWidth, window.innerHeight])).toEqual([500, 600]);
  await signInAtProvider(popup, `bob${Date.now()}`);
  await popup.waitForEvent('close');
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
});

test('popup: closing it cancels the attempt, reported after the grace period', async ({ page }) => {
  test.setTimeout(45_000);
  await page.goto('/login');
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: providerButton, exact: true }).click();
  const popup = await popupOpened;
  // Closed once it shows the provider's form, as a person would: closing it while its redirect is still being
  // committed can leave Chromium's close unacknowledged and page.close() waiting forever (microsoft/playwright#42366).
  await expect(popup.locator('input[name="login"]')).toBeVisible();
  await popup.close();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('The sign-in window was closed before signing in finished.', {
    timeout: 20_000,
  });
  await expect(page.getByRole('button', { name: 'Account menu' })).toHaveCount(0);
});

test('popup: opening a new popup cancels the previous one', async ({ page }) => {
  await page.goto('/login');
  const firstOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: providerButton, exact: true }).click();
  const first = await firstOpened;
  const secondOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: providerButton, exact: true }).click();
  const second = await secondOpened;
  await expect.poll(() => first.isClosed()).toBe(true);
  await signInAtProvider(second, `carol${Date.now()}`);
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
});

test('popup: a blocked popup is reported with the offer to sign in in this window', async ({ page }) => {
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await page.goto('/login');
  await page.getByRole('button', { name: providerButton, exact: true }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'Your browser blocked the sign-in window. Allow pop-ups for this site, or sign in in this window instead.',
  );
  await page.getByRole('button', { name: 'Continue in this window instead' }).click();
  await expect(page.locator('input[name="login"]')).toBeVisible();
});
