/**
 * Browsers still ask for /favicon.ico now and then (a page replaced mid-load, a view without the icon link); the
 * application's icon is /icon.svg (src/app/icon.svg), so this sends them there instead of a 404 in the console.
 */
export function GET(): Response {
  return new Response(null, { status: 308, headers: { Location: '/icon.svg', 'Cache-Control': 'public, max-age=86400' } });
}
