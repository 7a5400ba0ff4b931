import { expect, test } from './fixtures';

const fixedHeaders = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

function nonceOf(policy: string | undefined): string {
  const nonce = /'nonce-([^']+)'/.exec(policy ?? '')?.[1];
  if (nonce === undefined) throw new Error(`no nonce in: ${policy}`);
  return nonce;
}

test('pages, API routes, static files and not-found answers carry the security headers', async ({ page, request }) => {
  const pageResponse = await page.goto('/login');
  const pageHeaders = pageResponse?.headers() ?? {};
  expect(pageHeaders).toMatchObject(fixedHeaders);
  const policy = pageHeaders['content-security-policy'] ?? '';
  for (const directive of [
    "default-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "connect-src 'self'",
    "worker-src 'self' blob:",
  ]) {
    expect(policy).toContain(directive);
  }
  expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'(;|$)/);
  // Served over plain HTTP here: no HSTS.
  expect(pageHeaders).not.toHaveProperty('strict-transport-security');

  // Next.js gave this response's nonce to every script of the page (read as a property: browsers hide the attribute).
  const nonce = nonceOf(policy);
  const scriptNonces = await page.locator('script').evaluateAll((scripts) => scripts.map((script) => (script as HTMLScriptElement).nonce));
  expect(scriptNonces.length).toBeGreaterThan(0);
  expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
  // A nonce is never reused.
  expect(nonceOf((await request.get('/login')).headers()['content-security-policy'])).not.toBe(nonce);

  const scriptUrl = await page.locator('script[src^="/_next/static/"]').first().getAttribute('src');
  for (const path of ['/api/health', '/api/auth/get-session', scriptUrl ?? '/_next/static/missing.js', '/no-such-page']) {
    const response = await request.get(path);
    expect(response.headers(), path).toMatchObject(fixedHeaders);
    expect(response.headers()['content-security-policy'], path).toContain("frame-ancestors 'none'");
  }
});

test('the policy is enforced: a script injected into a page does not run', async ({ browser, clientAddress }) => {
  // Its own context: the violation this test causes on purpose would fail the fixture's watch for violations.
  const context = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': clientAddress } });
  const page = await context.newPage();
  // As if an attacker got markup into the page: the server's answer, headers and all, with a script added.
  await page.route('**/login', async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace('</head>', '<script>window.injectedScriptRan = true</script></head>');
    await route.fulfill({ response, body: html });
  });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().startsWith('violated ')) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.log(`violated ${event.effectiveDirective} by ${event.blockedURI}`),
    );
  });
  await page.goto('/login');
  await expect.poll(() => violations).toEqual(['violated script-src-elem by inline']);
  expect(await page.evaluate(() => (window as { injectedScriptRan?: boolean }).injectedScriptRan)).toBeUndefined();
  // The page's own scripts still ran: the login form works.
  await expect(page.getByRole('tab', { name: 'Phone' })).toBeVisible();
  await context.close();
});
