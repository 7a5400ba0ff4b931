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
 * Cross-site request forgery guard for cookie-authenticated route handlers that change state (server actions
 * get the same from Next.js). A browser marks every request it sends: Sec-Fetch-Site must be same-origin (or
 * none: typed by the user), else the Origin must be this site's (PUBLIC_URL, or the Host the request was
 * sent to). "same-site" is refused too: a sibling subdomain is not us. A request with neither header does not
 * come from a browser (curl, scripts), so it carries no ambient cookies an attacker could borrow and passes —
 * the rule Go's net/http CrossOriginProtection follows. Throws 'forbidden' (403).
 */
export function requireSameOrigin(request: Request, options: { allowedOrigins?: readonly string[] } = {}): void {
  const fetchSite = request.headers.get('sec-fetch-site');
  if (fetchSite !== null) {
    if (fetchSite === 'same-origin' || fetchSite === 'none') return;
    throw new AppError('forbidden', 'This request came from another site and was refused.');
  }
  const origin = request.headers.get('origin');
  if (origin === null) return;
  const allowed = new Set((options.allowedOrigins ?? [publicUrl(getEnvironment())]).map(originOf));
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  const requestOrigin = originOf(origin);
  if (requestOrigin !== null && (allowed.has(requestOrigin) || (host !== null && new URL(requestOrigin).host === host))) return;
  throw new AppError('forbidden', 'This request came from another site and was refused.');
}
