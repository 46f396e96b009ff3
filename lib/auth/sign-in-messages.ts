/**
 * The one answer to a refused password sign-in, on the server (lib/auth/options.ts) and in the form
 * (app/(auth)/login/login-form.tsx): an unknown e-mail, a wrong password and a deactivated account
 * read the same, so the page tells nobody which accounts exist or are active. Browser-safe.
 */
export const SIGN_IN_REFUSED = 'Wrong e-mail or password, or the account is deactivated.';
