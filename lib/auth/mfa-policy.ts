import type { Role } from './roles';
import { DEMO_USERS } from './seed';

/**
 * Who needs a second factor, and how fresh it must be for what matters. One place, read by the
 * sign-in (lib/auth/options.ts), the guards (lib/auth/guards.ts) and the pages that explain it.
 *
 * - `MFA_REQUIRED=all` (the default): every password user; `privileged`: managers and admins;
 *   `off`: nobody is made to enrol (a user who has a factor is still asked for it).
 * - In demo mode the demo users sign in with the password alone, and the shell says so.
 * - SSO users: the identity provider's `amr`/`acr` claim counts as the second factor when it
 *   names one of `OIDC_MFA_VALUES`; otherwise they are asked for Verdict's own.
 */
export type MfaPolicy = 'all' | 'privileged' | 'off';

export function mfaPolicy(): MfaPolicy {
  const v = (process.env.MFA_REQUIRED ?? '').trim().toLowerCase();
  return v === 'off' || v === 'privileged' ? v : 'all';
}

export const isDemoMode = () => ['1', 'true', 'on', 'yes'].includes((process.env.VERDICT_DEMO ?? '').toLowerCase());

const DEMO_EMAILS = new Set(DEMO_USERS.map((u) => u.email));
export const isDemoUser = (email: string) => isDemoMode() && DEMO_EMAILS.has(email.toLowerCase());

/** Whether this user must hold and prove a second factor at sign-in (before holding one: enrol). */
export function mfaRequiredFor(user: { email: string; role: Role }, hasFactor: boolean): boolean {
  if (hasFactor) return true;
  if (isDemoUser(user.email)) return false;
  const policy = mfaPolicy();
  return policy === 'all' || (policy === 'privileged' && user.role !== 'analyst');
}

/** How long a proved second factor covers the actions that ask for it again (STEP_UP_MINUTES, default 15). */
export function stepUpMinutes(): number {
  const n = Number(process.env.STEP_UP_MINUTES);
  return Number.isFinite(n) && n > 0 ? n : 15;
}

/** The `amr`/`acr` values that prove MFA at the identity provider (OIDC_MFA_VALUES, comma-separated); none by default. */
export function ssoMfaValues(): string[] {
  return (process.env.OIDC_MFA_VALUES ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

/** Whether an ID token's claims prove MFA at the provider. */
export function ssoClaimsProveMfa(claims: { amr?: unknown; acr?: unknown } | undefined): boolean {
  const wanted = ssoMfaValues();
  if (!claims || wanted.length === 0) return false;
  const amr = Array.isArray(claims.amr) ? claims.amr.map(String) : [];
  return amr.some((v) => wanted.includes(v)) || (typeof claims.acr === 'string' && wanted.includes(claims.acr));
}
