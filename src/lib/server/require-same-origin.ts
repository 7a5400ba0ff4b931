import 'server-only';
import { AppError } from '@/lib/errors';
import { getEnvironment, publicUrl } from '@/lib/env';

function originOf(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/**
 * Whether a request comes from a page of this application — the one origin check for route handlers and
 * server actions. A browser marks every request it sends: Sec-Fetch-Site must be same-origin (or none: typed
 * by the user), else the Origin must be this site's (PUBLIC_URL — `allowedOrigins` — or the host the request
 * was sent to, X-Forwarded-Host behind a proxy). "same-site" is refused too: a sibling subdomain is not us.
 * A request with neither header does not come from a browser (curl, scripts), so it carries no ambient
 * cookies an attacker could borrow: it passes unless `requireBrowser` (server actions always come from our
 * pages) — the rule Go's net/http CrossOriginProtection follows.
 */
export function isSameOrigin(headers: Headers, options: { allowedOrigins?: readonly string[]; requireBrowser?: boolean } = {}): boolean {
  const fetchSite = headers.get('sec-fetch-site');
  if (fetchSite !== null) return fetchSite === 'same-origin' || fetchSite === 'none';
  const origin = headers.get('origin');
  if (origin === null) return options.requireBrowser !== true;
  const requestOrigin = originOf(origin);
  if (requestOrigin === null) return false;
  const allowed = new Set((options.allowedOrigins ?? [publicUrl(getEnvironment())]).map(originOf));
  const host = headers.get('x-forwarded-host') ?? headers.get('host');
  return allowed.has(requestOrigin) || (host !== null && new URL(requestOrigin).host === host);
}

/** Cross-site request forgery guard for state-changing calls: throws 'forbidden' (403) unless `isSameOrigin`. */
export function requireSameOrigin(
  source: Request | Headers,
  options: { allowedOrigins?: readonly string[]; requireBrowser?: boolean } = {},
): void {
  const headers = source instanceof Headers ? source : source.headers;
  if (!isSameOrigin(headers, options)) throw new AppError('forbidden', 'This request came from another site and was refused.');
}
