import { describe, expect, it } from 'vitest';
import { parseEnvironment, servedOverHttps } from '@/lib/env';
import { contentSecurityPolicy, createNonce, securityHeaders } from './security-headers';

/** The policy as directive name → sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources] as const;
    }),
  );
}

describe('security headers', () => {
  const production = { nonce: 'bm9uY2Utb2YtdGhpcy1yZXNwb25zZQ==', https: false, development: false };

  it('sends the fixed headers on every response', () => {
    expect(securityHeaders(production)).toMatchObject({
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'X-Frame-Options': 'DENY',
      'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
    });
  });

  it('allows only same-origin content, scripts with this response nonce, and nothing framing the app', () => {
    const policy = directives(contentSecurityPolicy(production));
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'", `'nonce-${production.nonce}'`, "'strict-dynamic'"]);
    expect(policy.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('worker-src')).toEqual(["'self'", 'blob:']);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    // Nothing that would let an injected script run.
    const scripts = policy.get('script-src') ?? [];
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).not.toContain("'unsafe-eval'");
    expect(policy.has('upgrade-insecure-requests')).toBe(false);
  });

  it('lets only the development server evaluate code (React development build, hot reload)', () => {
    expect(directives(contentSecurityPolicy({ ...production, development: true })).get('script-src')).toContain("'unsafe-eval'");
  });

  it('pins HTTPS only when the app is served over HTTPS', () => {
    expect(securityHeaders(production)).not.toHaveProperty('Strict-Transport-Security');
    const https = securityHeaders({ ...production, https: true });
    expect(https['Strict-Transport-Security']).toBe('max-age=31536000; includeSubDomains');
    expect(directives(https['Content-Security-Policy'] ?? '').has('upgrade-insecure-requests')).toBe(true);
    expect(servedOverHttps(parseEnvironment({ NODE_ENV: 'production', PUBLIC_URL: 'https://medaptive.example.org' }))).toBe(true);
    expect(servedOverHttps(parseEnvironment({ NODE_ENV: 'production', PUBLIC_URL: 'http://127.0.0.1:3000' }))).toBe(false);
    expect(servedOverHttps(parseEnvironment({ NODE_ENV: 'development', PUBLIC_URL: 'https://medaptive.example.org' }))).toBe(false);
  });

  it('makes a new unguessable nonce for every response', () => {
    const nonces = new Set(Array.from({ length: 100 }, () => createNonce()));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
  });
});
