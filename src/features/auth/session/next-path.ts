/**
 * The `?next=` target after sign-in, when it is a path on this site; anything else (another
 * origin, `//host`, `/\host`, a scheme) falls back, so the link cannot send users elsewhere.
 */
export function safeNextPath(next: string | null, fallback: string): string {
  if (!next || !/^\/(?![/\\])/.test(next)) return fallback;
  try {
    const base = 'http://console.invalid';
    const url = new URL(next, base);
    if (url.origin !== base) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}
