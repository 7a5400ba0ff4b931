const base = 'https://app.test';

// C0 and C1 controls (the URL parser drops tab and newlines, so "/\t/evil" becomes "//evil") and backslashes
// (browsers read "\" as "/" in URLs).
const unsafeCharacters = /[\u0000-\u001f\u007f-\u009f\\]/;
// A path that a browser would read as "//host": a protocol-relative URL, another site.
const hostRelative = /^\/[/\\]/;

function isUnsafe(layer: string): boolean {
  // Full-width and other compatibility forms (／ ＼ …) become ASCII under NFKC, as some decoders apply it.
  return [layer, layer.normalize('NFKC')].some((form) => unsafeCharacters.test(form) || hostRelative.test(form));
}

/**
 * Where to go after signing in: a path on this site, or "/". The one normaliser for `?next=`, used by the
 * server redirect of /login and by the sign-in forms. Refuses (answers "/") anything that is, or decodes to,
 * a control character, a backslash, or a "//" start, in any percent-decoding layer and under NFKC; the answer is
 * then re-serialised by the URL parser, so it is ASCII (a Location header cannot carry anything else) and
 * starts with exactly one "/".
 */
export function safeNextPath(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > 2048 || !raw.startsWith('/')) return '/';
  let layer = raw;
  for (let depth = 0; depth < 5; depth += 1) {
    if (isUnsafe(layer)) return '/';
    let decoded: string;
    try {
      decoded = decodeURIComponent(layer);
    } catch {
      return '/';
    }
    if (decoded === layer) break;
    layer = decoded;
  }
  if (isUnsafe(layer)) return '/';
  const url = new URL(raw, base);
  if (url.origin !== base) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('/') && !hostRelative.test(path) && !unsafeCharacters.test(path) ? path : '/';
}
