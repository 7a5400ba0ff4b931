import { type NextRequest, NextResponse } from 'next/server';
import { requestedPathHeader } from '@/lib/routes';

/**
 * Tells server components which path was requested (layouts cannot see it), so a signed-out visitor can be
 * sent to /login and returned afterwards. Authorisation itself happens on the server in layouts and use cases.
 */
export function proxy(request: NextRequest) {
  const forwarded = new Headers(request.headers);
  forwarded.set(requestedPathHeader, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers: forwarded } });
}

export const config = { matcher: ['/((?!api/|_next/|favicon.ico).*)'] };
