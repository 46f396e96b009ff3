import { stepUpMinutes } from './mfa-policy';
import type { SessionUser } from './sessions';

/**
 * Step-up: revealing personal data, API keys, webhook endpoints, roles and deactivation, the audit
 * export and settings need a second factor proved within STEP_UP_MINUTES. The actions and routes
 * check it themselves (`defineAction({ stepUp: true })`, `routeUser(role, { stepUp: true })`), so
 * a direct call is refused like the button; the dialog (components/account/step-up-dialog.tsx)
 * only asks for the code and calls again.
 *
 * A user without any factor (a demo user in demo mode, or anyone while MFA_REQUIRED is not `all`)
 * has nothing to prove: the shell says their sign-in is password-only.
 */
export function stepUpDue(user: Pick<SessionUser, 'hasFactor' | 'factorAt'>, now = Date.now()): boolean {
  if (!user.hasFactor) return false;
  return !user.factorAt || now - user.factorAt.getTime() > stepUpMinutes() * 60_000;
}

export const STEP_UP_TEXT = 'Confirm it is you: enter a code from your authenticator app or use your passkey.';
