import 'server-only';
import { randomBytes } from 'node:crypto';

export type SecurityHeaderOptions = {
  /** This response's script nonce: Next.js gives it to its own scripts (it reads it from the request's policy). */
  nonce: string;
  /** Served over HTTPS (servedOverHttps): adds Strict-Transport-Security and upgrade-insecure-requests. */
  https: boolean;
  /** `npm run dev`: React's development build and hot reload evaluate code, which production never does. */
  development: boolean;
};

/** A fresh, unguessable nonce for one response (128 bits). */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

/** The Content-Security-Policy of every response (docs/decisions/005-security-headers.md says why each part). */
export function contentSecurityPolicy(options: SecurityHeaderOptions): string {
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    // Only scripts carrying this response's nonce run, and what they load ('strict-dynamic': Next.js's chunks,
    // the ALTCHA widget); 'self' only for browsers without CSP level 3. No inline script, no eval.
    ['script-src', "'self'", `'nonce-${options.nonce}'`, "'strict-dynamic'", ...(options.development ? ["'unsafe-eval'"] : [])],
    // Inline styles stay allowed: React renders style attributes into the HTML (HeroUI/React Aria positioning),
    // ECharts' SVG renderer writes style attributes and ALTCHA injects a <style> element. A style cannot run code.
    ['style-src', "'self'", "'unsafe-inline'"],
    // data: for the two-factor QR code, blob: for images built in the browser.
    ['img-src', "'self'", 'data:', 'blob:'],
    ['font-src', "'self'"],
    // Same-origin fetches and Server-Sent Events only (the OpenID provider is reached by navigation, not fetch).
    ['connect-src', "'self'"],
    // ALTCHA solves its proof of work in a worker it starts from a blob: URL.
    ['worker-src', "'self'", 'blob:'],
    ['frame-src', "'none'"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    // Our forms submit to ourselves; OpenID sign-in leaves by a script navigation, which form-action does not govern.
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
    ...(options.https ? ([['upgrade-insecure-requests']] as [string][]) : []),
  ];
  return directives.map((directive) => directive.join(' ')).join('; ');
}

/** The security headers of every response, HTML page or API answer alike. */
export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(options),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    // frame-ancestors 'none' for current browsers, X-Frame-Options for older ones.
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
    // Only over HTTPS: browsers ignore it over HTTP, and a development machine must not be pinned to HTTPS.
    ...(options.https ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}
