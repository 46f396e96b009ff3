/**
 * What a server action reads from `next/headers` in integration tests, where there is no Next
 * request: the session cookie of whoever `request.cookie` names, and a client address. A test file
 * mocks the module with it (vi.mock is hoisted per file, so each file says so itself):
 *
 *   vi.mock('next/headers', async () => (await import('./next-headers')).nextHeaders);
 *
 * and sets `request.cookie` (sessionCookieFor in ./feedback) to act as a user, and
 * `request.ip` to act from another address. No imports:
 * it is loaded while `next/headers` itself is being resolved.
 */
export const request = { cookie: '', ip: '127.0.0.1' };

export const nextHeaders = {
  cookies: async () => ({
    get: (name: string) =>
      name === 'next-auth.session-token' && request.cookie ? { name, value: request.cookie } : undefined,
  }),
  headers: async () => new Headers({ 'x-forwarded-for': request.ip }),
};
