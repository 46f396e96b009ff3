/**
 * Where to go after sign-in: the `next` path resolved against the console's own origin, the way
 * the browser will resolve it. Browsers read `/\host` and `/<TAB>/host` as `//host` (another
 * site), so a prefix check on the raw string is not enough; anything that leaves the origin, or
 * leads back to the sign-in page, goes to `/`.
 */
export function safeNext(next: string | null | undefined, origin: string): string {
  if (!next || !next.startsWith('/')) return '/';
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return '/';
  }
  if (url.origin !== new URL(origin).origin) return '/';
  if (url.pathname === '/login' || url.pathname.startsWith('/login/')) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}
