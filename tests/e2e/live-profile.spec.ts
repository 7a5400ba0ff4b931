import { chooseRole, expect, signUpFreshAccount, test } from './fixtures';

test('a profile change reaches another open page of the same user, and an admin grant reaches the top bar', async ({
  page,
  context,
  baseURL,
  browser,
  clientAddress,
  signIn,
}) => {
  const credentials = await signUpFreshAccount(context, baseURL ?? '');
  const other = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': clientAddress } });
  await signIn(credentials, other);
  const otherPage = await other.newPage();
  await otherPage.goto('/profile');
  await expect(otherPage.getByLabel('Display name')).toHaveValue('Test Person');

  await page.goto('/profile');
  await page.getByLabel('Display name').fill('Changed Elsewhere');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status')).toHaveText('Saved.');
  await expect(otherPage.getByLabel('Display name')).toHaveValue('Changed Elsewhere');

  // An admin makes the user a government official: the open page's top bar shows it without a reload.
  const admin = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': clientAddress } });
  await signIn('admin', admin);
  const adminPage = await admin.newPage();
  await adminPage.goto('/admin');
  await chooseRole(adminPage, credentials.email, 'government-official');
  await expect(adminPage.getByRole('status')).toContainText('is now Government official');
  await expect(otherPage.getByTestId('government-label')).toHaveText('Government');
  await expect(otherPage.getByTestId('profile-role')).toHaveText('Government official');
});
