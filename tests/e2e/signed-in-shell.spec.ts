import { expect, seriousAccessibilityViolations, test } from './fixtures';

test.use({ viewport: { width: 1400, height: 900 } });

test('signed in: centre links, dropdowns with the current page marked, Portal and the avatar menu', async ({ page, signIn }) => {
  await signIn('patient');
  await page.goto('/algorithms/patient-engagement/whatsapp-analysis');
  const bar = page.getByRole('navigation', { name: 'Main' });
  await expect(bar.getByRole('link', { name: '12-Week Trial' })).toHaveAttribute('href', '/trials/cohort-a');
  // The portal serves manufacturers, officials and admins: a patient is not offered it.
  await expect(bar.getByRole('link', { name: 'Login' })).toHaveCount(0);
  await expect(bar.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await expect(bar.getByRole('link', { name: 'Portal' })).toHaveCount(0);

  await bar.getByRole('button', { name: 'Patient Algorithm' }).click();
  const algorithms = page.getByRole('menu', { name: 'Patient Algorithm' });
  await expect(algorithms.getByRole('menuitem')).toHaveCount(14);
  await expect(algorithms.getByRole('menuitem', { name: 'WhatsApp Message Data Analysis' })).toHaveAttribute('aria-current', 'page');
  await expect(algorithms.getByRole('menuitem', { name: 'Patient Profile' })).not.toHaveAttribute('aria-current', 'page');
  await algorithms.getByRole('menuitem', { name: 'Medaptive Comparison' }).click();
  await expect(page).toHaveURL('/algorithms/patient-engagement/medaptive-comparison');

  await bar.getByRole('button', { name: 'Surveys' }).click();
  const surveys = page.getByRole('menu', { name: 'Surveys' });
  await expect(surveys.getByRole('menuitem')).toHaveText([
    'Patient Micro-Survey Evolution',
    'Lifestyle Micro-Surveys',
    'Medication Adherence Optimisation System',
  ]);
  await page.keyboard.press('Escape');

  await bar.getByRole('link', { name: '12-Week Trial' }).click();
  await expect(bar.getByRole('link', { name: '12-Week Trial' })).toHaveAttribute('aria-current', 'page');

  await bar.getByRole('button', { name: 'Account menu' }).click();
  const account = page.getByRole('menu', { name: 'Account' });
  await expect(account.getByRole('menuitem')).toHaveText(['Profile', 'Contact Us', 'Settings', 'Logout']);
  await account.getByRole('menuitem', { name: 'Contact Us' }).click();
  await expect(page.getByRole('dialog', { name: 'Contact Medaptive' })).toBeVisible();
});

test('menus work with the keyboard, with type-ahead', async ({ page, signIn }) => {
  await signIn('patient');
  await page.goto('/');
  const trigger = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Patient Algorithm' });
  await trigger.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: 'Patient Algorithm' });
  await expect(menu).toBeVisible();
  await page.keyboard.type('wh');
  await expect(menu.getByRole('menuitem', { name: 'WhatsApp Message Data Analysis' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL('/algorithms/patient-engagement/whatsapp-analysis');
});

test('a manufacturer sees the selected companies under the brand and changes them in the selector', async ({
  page,
  signIn,
  createAccount,
}) => {
  // A manufacturer of its own: the demo manufacturer's selection is what other specs read.
  test.setTimeout(60_000);
  await signIn(await createAccount({ role: 'drug-manufacturer', companies: ['Halcyon Therapeutics', 'Northwind Pharma'] }));
  await page.goto('/');
  const label = page.getByTestId('company-label');
  // Memberships alone select nothing: the manufacturer picks which of their companies the portal shows.
  await expect(label).toHaveText('0 Companies');
  await label.click();
  await expect(page).toHaveURL('/app/drug-company-selector');
  const halcyon = page.getByRole('checkbox', { name: 'Halcyon Therapeutics' });
  const northwind = page.getByRole('checkbox', { name: 'Northwind Pharma' });
  await expect(halcyon).not.toBeChecked();
  await page.getByText('Halcyon Therapeutics', { exact: true }).click();
  await page.getByText('Northwind Pharma', { exact: true }).click();
  await expect(northwind).toBeChecked();
  await page.getByRole('button', { name: 'Save selection' }).click();
  await expect(label).toHaveText('2 Companies');
  await page.getByText('Halcyon Therapeutics', { exact: true }).click();
  await expect(halcyon).not.toBeChecked();
  await page.getByRole('button', { name: 'Save selection' }).click();
  await expect(label).toHaveText('Company: Northwind Pharma');
  // Nothing ticked is refused in words; the saved selection stays.
  await page.getByText('Northwind Pharma', { exact: true }).click();
  await expect(northwind).not.toBeChecked();
  await page.getByRole('button', { name: 'Save selection' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'Tick at least one company: the portal shows the companies you choose.',
  );
  // Saved on the server: a fresh page load shows the same.
  await page.reload();
  await expect(label).toHaveText('Company: Northwind Pharma');
  await expect(halcyon).not.toBeChecked();
  await expect(northwind).toBeChecked();
});

test('a government official sees the shield and "Government"', async ({ page, signIn }) => {
  await signIn('government');
  await page.goto('/');
  const label = page.getByTestId('government-label');
  await expect(label).toHaveText('Government');
  await expect(label.locator('svg[data-icon="shield"]')).toBeAttached();
});

test('logout clears client values, signs out, and reloads the home page', async ({ page, signIn }) => {
  await signIn('clinician');
  await page.goto('/profile');
  await page.evaluate(() => window.localStorage.setItem('medaptive.preferences', JSON.stringify({ cohort: 'A' })));
  await page.getByRole('button', { name: 'Account menu' }).click();
  const navigation = page.waitForEvent('load');
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await navigation;
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('medaptive.preferences'))).toBe('{}');
  const session = await page.request.get('/api/auth/get-session');
  expect(await session.json()).toBeNull();
  await page.goto('/profile');
  await expect(page).toHaveURL('/login?next=%2Fprofile');
});

test('an administrator finds Administration in the account menu and the Portal button', async ({ page, signIn }) => {
  await signIn('admin');
  await page.goto('/settings');
  const bar = page.getByRole('navigation', { name: 'Main' });
  await expect(bar.getByRole('link', { name: 'Portal' })).toHaveAttribute('href', '/app/manufacturing');
  await bar.getByRole('button', { name: 'Account menu' }).click();
  const account = page.getByRole('menu', { name: 'Account' });
  await expect(account.getByRole('menuitem')).toHaveText(['Profile', 'Contact Us', 'Settings', 'Administration', 'Logout']);
  await account.getByRole('menuitem', { name: 'Administration' }).click();
  await expect(page).toHaveURL('/admin');
});

test('only an administrator reaches the administration page', async ({ page, signIn }) => {
  await signIn('patient');
  await page.goto('/admin');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Only administrators can manage users and roles.');
});

test('the signed-in home page and settings pass axe', async ({ page, signIn }) => {
  await signIn('patient');
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Active sessions' })).toBeVisible();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test('a failed profile subscription keeps the user signed in, without profile data, and logs the error', async ({
  page,
  signIn,
  allowConsoleMessages,
}) => {
  await signIn('manufacturer');
  // The failure this test provokes: the browser reports the 500 and the app logs that it gave up.
  allowConsoleMessages(/Failed to load resource: the server responded with a status of 500/, /Profile subscription failed/);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.route('**/api/profile/stream', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));
  await page.goto('/profile');
  // Signed in (seed-spec §4: loggedIn stays true) …
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  // … with userData null: no company label, and the profile page says so.
  await expect(page.getByTestId('company-label')).toHaveCount(0);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Your profile could not be loaded. Reload the page to try again.');
  await expect.poll(() => errors.some((text) => text.includes('Profile subscription failed'))).toBe(true);
});
