import { getToken } from 'next-auth/jwt';
import { NextResponse, type NextRequest } from 'next/server';

/**
 * First line only: signed-out visitors of pages go to /login, and every response gets a
 * per-request Content-Security-Policy nonce and `Cache-Control: no-store`. Every page, action
 * and route still checks the session and role itself (lib/auth/guards.ts): this proxy only sees
 * that a signed cookie exists, not whether its session is still valid.
 */
const PUBLIC_PAGES = ['/login'];

function csp(nonce: string) {
  const dev = process.env.NODE_ENV !== 'production';
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

function withHeaders(req: NextRequest) {
  const nonce = btoa(crypto.randomUUID());
  const policy = csp(nonce);
  const requestHeaders = new Headers(req.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('content-security-policy', policy);
  const res = NextResponse.next({ request: { headers: requestHeaders } });
  res.headers.set('Content-Security-Policy', policy);
  res.headers.set('Cache-Control', 'no-store, max-age=0');
  return res;
}

export default async function proxy(req: NextRequest) {
  const path = req.nextUrl.pathname;
  // Machine routes (the API, /metrics) answer 401 themselves instead of redirecting to a page, and set their own
  // headers (the image proxy's sandbox policy and `private` cache header): a page policy set
  // here would replace them. Next marks their dynamic responses uncacheable by itself.
  if (path.startsWith('/api/') || path === '/metrics') return NextResponse.next();
  const open = PUBLIC_PAGES.some((p) => path === p || path.startsWith(`${p}/`));
  if (!open) {
    const token = await getToken({ req, secret: process.env.NEXTAUTH_SECRET }).catch(() => null);
    if (!token) {
      const url = new URL('/login', req.url);
      if (path !== '/') url.searchParams.set('next', `${path}${req.nextUrl.search}`);
      return NextResponse.redirect(url);
    }
  }
  return withHeaders(req);
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico|icon.svg|robots.txt).*)'],
};
