import { createHash, createHmac } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import {
  type APIRequestContext,
  type BrowserContext,
  type FileChooser,
  test as base,
  expect,
  type Locator,
  type Page,
} from '@playwright/test';
import { type Role, roleNames } from '../../src/lib/domain/roles';

export const demoPassword = 'Medaptive-demo-1';
export const demoAccounts = {
  patient: 'patient@medaptive.test',
  clinician: 'clinician@medaptive.test',
  manufacturer: 'manufacturer@medaptive.test',
  government: 'government@medaptive.test',
  admin: 'admin@medaptive.test',
} as const;
export type DemoRole = keyof typeof demoAccounts;

/** The roles an administrator can grant. */
export type { Role };
export type Credentials = { email: string; password: string };

/**
 * Console errors and warnings that are not the application's fault, each with why. Anything else a page
 * logs as an error or warning fails the test; a test that provokes one on purpose says so with
 * `allowConsoleMessages`.
 */
const benignConsoleMessages: { text: RegExp; url?: RegExp }[] = [
  // Chromium reports every 4xx answer to a fetch as an error. From our API that is the answer to bad input,
  // a wrong password or a rate limit, which the page shows (and the specs check); a 5xx or a page's 404 still fails.
  { text: /^Failed to load resource: the server responded with a status of 4\d\d /, url: /^https?:\/\/[^/]+\/api\// },
];

type Fixtures = {
  clientAddress: string;
  signIn: (who: DemoRole | Credentials, context?: BrowserContext) => Promise<void>;
  /** Lets this test's pages log console errors, warnings or uncaught errors matching these (a failure the test provokes). */
  allowConsoleMessages: (...patterns: RegExp[]) => void;
  /**
   * A new account of its own for a test that changes its account or needs a role or companies (so no
   * test changes the shared demo accounts): signed up through the API, then given the role and company
   * memberships by the demo administrator on /admin, as a person would. Not signed in anywhere.
   */
  createAccount: (options: { role: Role; companies?: string[] }) => Promise<Credentials>;
};

/**
 * Every test appears to the server as its own client (X-Forwarded-For, believed because the e2e server
 * trusts the loopback proxy), so per-client rate limits never couple two tests.
 */
export const test = base.extend<Fixtures & { allowedConsoleMessages: RegExp[] }>({
  clientAddress: async ({}, use, testInfo) => {
    const digest = createHash('sha256').update(`${testInfo.testId}:${testInfo.repeatEachIndex}:${testInfo.retry}`).digest();
    await use(`10.${digest[0]}.${digest[1]}.${digest[2]}`);
  },
  allowedConsoleMessages: async ({}, use) => {
    await use([]);
  },
  allowConsoleMessages: async ({ allowedConsoleMessages }, use) => {
    await use((...patterns) => {
      allowedConsoleMessages.push(...patterns);
    });
  },
  context: async ({ context, clientAddress, baseURL, allowedConsoleMessages }, use) => {
    await context.setExtraHTTPHeaders({ 'X-Forwarded-For': clientAddress });
    const origin = new URL(baseURL ?? 'http://invalid').origin;
    // Any Content-Security-Policy violation on our pages fails the test: the policy must not break the app.
    const violations: string[] = [];
    // Any other console error or warning, or an uncaught exception, fails it too: a page that works logs none.
    const unexpected: string[] = [];
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(
          `CSP violation on ${location.origin}: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
        );
      });
    });
    context.on('console', (message) => {
      const type = message.type();
      if (type !== 'error' && type !== 'warning') return;
      const text = message.text();
      const where = message.location().url;
      if (text.startsWith('CSP violation on ')) {
        // Only our pages' policy is under test, not the local OpenID provider's pages.
        if (text.startsWith(`CSP violation on ${origin}:`)) violations.push(text);
        return;
      }
      // Only our pages are under test, not the local OpenID provider's.
      if (!message.page()?.url().startsWith(origin)) return;
      if (benignConsoleMessages.some((benign) => benign.text.test(text) && (benign.url === undefined || benign.url.test(where)))) return;
      if (allowedConsoleMessages.some((pattern) => pattern.test(text))) return;
      unexpected.push(`${type}: ${text}${where ? ` (${where})` : ''}`);
    });
    context.on('weberror', (error) => {
      const text = error.error().message;
      // A failure the test provokes (the connection dropped on purpose) may surface as an uncaught rejection too.
      if (allowedConsoleMessages.some((pattern) => pattern.test(text))) return;
      unexpected.push(`uncaught: ${text}`);
    });
    await use(context);
    expect(violations, 'Content-Security-Policy violations').toEqual([]);
    expect(unexpected, 'console errors and warnings').toEqual([]);
  },
  /** Signs a browser context in through the API (only the sign-in specs use the UI). */
  signIn: async ({ context, baseURL }, use) => {
    await use(async (who, target = context) => {
      const credentials = typeof who === 'string' ? { email: demoAccounts[who], password: demoPassword } : who;
      const response = await target.request.post('/api/auth/sign-in/email', {
        headers: { Origin: baseURL ?? '' },
        data: credentials,
      });
      expect(response.status(), `sign-in of ${credentials.email}`).toBe(200);
    });
  },
  createAccount: async ({ browser, clientAddress, baseURL, signIn }, use) => {
    await use(async ({ role, companies = [] }) => {
      const own = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': clientAddress } });
      const credentials = await signUpFreshAccount(own, baseURL ?? '');
      await own.close();
      if (role === 'patient' && companies.length === 0) return credentials;
      const admin = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': clientAddress } });
      try {
        await signIn('admin', admin);
        const page = await admin.newPage();
        await page.goto('/admin');
        const status = page.getByRole('main').getByRole('status');
        if (role !== 'patient') {
          await chooseRole(page, credentials.email, role);
          await expect(status).toHaveText(`${credentials.email} is now ${roleNames[role]}.`);
        }
        const memberships = page.getByRole('group', { name: `Companies of ${credentials.email}` });
        for (const company of companies) {
          // Space on the focused box, not check(): the box shows the server's answer, which arrives after the key.
          const box = memberships.getByRole('checkbox', { name: company });
          await box.focus();
          await box.press('Space');
          await expect(status).toHaveText(`${credentials.email} joined ${company}.`);
          await expect(memberships.getByRole('checkbox', { name: company })).toBeChecked();
        }
      } finally {
        await admin.close();
      }
      return credentials;
    });
  },
});

export { expect };

/**
 * Picks an option in a HeroUI select within `scope`: its button is named by the shown value then the label
 * ("Guess from the file Date format"), so the label is matched at the end; the list opens in a popover.
 */
export async function chooseInSelect(scope: Page | Locator, label: string, option: string) {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await scope.getByRole('button', { name: new RegExp(`(^| )${escaped}$`) }).click();
  const page = 'page' in scope ? scope.page() : scope;
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Picks a user's role in /admin's role list. */
export async function chooseRole(page: Page, email: string, role: Role) {
  await chooseInSelect(page, `Role of ${email}`, roleNames[role]);
}

/** Chooses files through the system file picker that `button` opens (a file field is a button, not a native input). */
export async function chooseFiles(button: Locator, files: Parameters<FileChooser['setFiles']>[0]) {
  const chooser = button.page().waitForEvent('filechooser');
  await button.click();
  await (await chooser).setFiles(files);
}

/** Selects a HeroUI radio or ticks a checkbox with the keyboard (its input is visually hidden, so check() cannot click it). */
export async function pressToCheck(control: Locator) {
  await control.focus();
  await control.press('Space');
  await expect(control).toBeChecked();
}

/** Serious and critical axe-core violations on the page (or the part of it `include` selects). */
export async function seriousAccessibilityViolations(page: Page, include?: string) {
  // Next streams a dynamic page's metadata, its <title> among it, apart from the page, and renders it again on a
  // refresh such as a server action's; axe reads the document as it is at that instant, and once found no title
  // (risk.spec after "Record contacted", a CI run of 2026-11-28). So wait for the title first: a page without one
  // still fails, here, after the wait.
  await expect(page).toHaveTitle(/\S/);
  // Legacy mode runs axe.run in the page itself. The default mode runs each frame apart and finishes in a blank
  // page of its own, which only matters for frames, and the app has none (CSP frame-src 'none'). The rules and
  // the findings are the same; the compliance journey is checked in about 5 s instead of 10.
  let builder = new AxeBuilder({ page }).setLegacyMode();
  if (include !== undefined) builder = builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ id: violation.id, help: violation.help, targets: violation.nodes.map((node) => node.target) }));
}

type OutboxMessage = { channel: 'email' | 'sms'; recipient: string; subject: string | null; body: string; createdAt: string };

/** The newest outbox message to `recipient` that matches, waiting for it to arrive. */
export async function latestOutboxMessage(request: APIRequestContext, recipient: string, matching: RegExp = /./): Promise<OutboxMessage> {
  let found: OutboxMessage | undefined;
  await expect
    .poll(async () => {
      const response = await request.get('/api/dev/outbox');
      const { messages } = (await response.json()) as { messages: OutboxMessage[] };
      found = messages.find((message) => message.recipient === recipient && matching.test(message.body));
      return found !== undefined;
    })
    .toBe(true);
  return found as OutboxMessage;
}

/** The 6-digit code inside an SMS. */
export function codeIn(message: OutboxMessage): string {
  const match = /\b(\d{6})\b/.exec(message.body);
  if (!match?.[1]) throw new Error(`no code in: ${message.body}`);
  return match[1];
}

function base32Decode(input: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const character of input.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(character).toString(2).padStart(5, '0');
  const bytes: number[] = [];
  for (let index = 0; index + 8 <= bits.length; index += 8) bytes.push(Number.parseInt(bits.slice(index, index + 8), 2));
  return Buffer.from(bytes);
}

/** RFC 6238 TOTP (SHA-1, 30 s, 6 digits), as an authenticator app computes it. */
export function totp(secret: string, at: number = Date.now(), stepOffset = 0): string {
  const counter = Math.floor(at / 30_000) + stepOffset;
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac('sha1', base32Decode(secret)).update(buffer).digest();
  const offset = (digest[digest.length - 1] as number) & 0x0f;
  const value = (digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return value.toString().padStart(6, '0');
}

/**
 * A fresh account for tests that change their account (two-factor, password): signs up through the API,
 * opens the confirmation link from the outbox, which signs the context in.
 */
export async function signUpFreshAccount(context: BrowserContext, baseURL: string): Promise<{ email: string; password: string }> {
  const email = `user-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;
  const password = 'a long enough passphrase';
  const response = await context.request.post('/api/auth/sign-up/email', {
    headers: { Origin: baseURL },
    data: { email, password, name: 'Test Person' },
  });
  expect(response.status()).toBe(200);
  const message = await latestOutboxMessage(context.request, email, /https?:\/\//);
  const link = /(https?:\/\/\S+)/.exec(message.body)?.[1];
  if (link === undefined) throw new Error('no confirmation link');
  const confirmation = await context.request.get(link);
  expect(confirmation.ok()).toBe(true);
  return { email, password };
}

/** Solves the ALTCHA check on /login's phone tab as a person does. */
export async function solveCaptcha(page: Page) {
  const widget = page.locator('altcha-widget');
  // As a person does: the label (the check mark drawn over the box takes the pointer).
  await widget.getByText("I'm not a robot").click();
  await expect(widget.locator('input[name="altcha"]')).not.toHaveValue('', { timeout: 20_000 });
}

// A click that lands before React hydrates the tabs is lost; click again until the tab is selected.
export async function openPhoneTab(page: Page) {
  const tab = page.getByRole('tab', { name: 'Phone' });
  await expect(async () => {
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true', { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

/** Signs in on /login with a phone number and the SMS code the local outbox received. */
export async function signInByPhone(page: Page, phoneNumber: string) {
  await page.goto('/login');
  await openPhoneTab(page);
  await page.getByLabel('Mobile number').fill(phoneNumber);
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Send code' }).click();
  const code = codeIn(await latestOutboxMessage(page.request, phoneNumber, /sign-in code/));
  await page.getByRole('textbox', { name: /^Code/ }).fill(code);
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
}
