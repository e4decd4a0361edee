// Where to go after signing in: a path of this site, never another origin. The value is parsed with
// the URL API against a stand-in origin, as a browser would resolve it, and kept only when the origin
// did not change: the parser drops tabs and newlines (so "/\t/evil.example" becomes the
// protocol-relative "//evil.example", another origin) and percent-encodes what a Location header
// cannot carry, so the answer is always a clean same-origin path.
const STAND_IN_ORIGIN = 'http://kerf.invalid';
/** Longer values are not a path anyone typed. */
const MAX_NEXT_LENGTH = 2000;
export const DEFAULT_NEXT = '/account';

export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > MAX_NEXT_LENGTH) return DEFAULT_NEXT;
  let url: URL;
  try {
    url = new URL(value, STAND_IN_ORIGIN);
  } catch {
    return DEFAULT_NEXT;
  }
  if (url.origin !== STAND_IN_ORIGIN) return DEFAULT_NEXT;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // a path that still begins with two slashes (or a backslash) would read as another host to a browser
  return /^\/[/\\]/.test(path) ? DEFAULT_NEXT : path;
}
