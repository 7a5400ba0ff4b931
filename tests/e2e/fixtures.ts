import { createHash, createHmac } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type BrowserContext, test as base, expect, type Page } from '@playwright/test';

export const demoPassword = 'Medaptive-demo-1';
export const demoAccounts = {
  patient: 'patient@medaptive.test',
  clinician: 'clinician@medaptive.test',
  manufacturer: 'manufacturer@medaptive.test',
  government: 'government@medaptive.test',
  admin: 'admin@medaptive.test',
} as const;
export type DemoRole = keyof typeof demoAccounts;

/**
 * Every test appears to the server as its own client (X-Forwarded-For, believed because the e2e server
 * trusts the loopback proxy), so per-client rate limits never couple two tests.
 */
export const test = base.extend<{ clientAddress: string; signIn: (who: DemoRole | { email: string; password: string }, context?: BrowserContext) => Promise<void> }>({
  clientAddress: async ({}, use, testInfo) => {
    const digest = createHash('sha256').update(`${testInfo.testId}:${testInfo.repeatEachIndex}:${testInfo.retry}`).digest();
    await use(`10.${digest[0]}.${digest[1]}.${digest[2]}`);
  },
  context: async ({ context, clientAddress, baseURL }, use) => {
    await context.setExtraHTTPHeaders({ 'X-Forwarded-For': clientAddress });
    // Any Content-Security-Policy violation on our pages fails the test: the policy must not break the app.
    const violations: string[] = [];
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(`CSP violation on ${location.origin}: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`);
      });
    });
    context.on('console', (message) => {
      const text = message.text();
      if (text.startsWith(`CSP violation on ${new URL(baseURL ?? 'http://invalid').origin}:`)) violations.push(text);
    });
    await use(context);
    expect(violations, 'Content-Security-Policy violations').toEqual([]);
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
});

export { expect };

/** Serious and critical axe-core violations on the page (or the part of it `include` selects). */
export async function seriousAccessibilityViolations(page: Page, include?: string) {
  let builder = new AxeBuilder({ page });
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
  const response = await context.request.post('/api/auth/sign-up/email', { headers: { Origin: baseURL }, data: { email, password, name: 'Test Person' } });
  expect(response.status()).toBe(200);
  const message = await latestOutboxMessage(context.request, email, /https?:\/\//);
  const link = /(https?:\/\/\S+)/.exec(message.body)?.[1];
  if (link === undefined) throw new Error('no confirmation link');
  const confirmation = await context.request.get(link);
  expect(confirmation.ok()).toBe(true);
  return { email, password };
}
