'use server';
import { revalidatePath } from 'next/cache';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { audit } from '@/lib/audit';
import { saveTimeZone } from '@/lib/auth/time-zone';
import {
  confirmTotpEnrolment,
  removeFactor,
  replaceRecoveryCodes,
  startTotpEnrolment,
  verifyCode,
} from '@/lib/auth/factors';
import { defineAction, type SessionUser } from '@/lib/auth/guards';
import {
  passkeyAuthenticationOptions,
  passkeyRegistrationOptions,
  verifyPasskeyAuthentication,
  verifyPasskeyRegistration,
} from '@/lib/auth/passkeys';
import { changeOwnPassword } from '@/lib/auth/password-change';
import { proveSecondFactor, proveWithCode } from '@/lib/auth/second-factor';
import {
  listLiveSessions,
  markFactorProved,
  revokeOtherSessions,
  revokeSession,
  sessionHandle,
} from '@/lib/auth/sessions';
import {
  changePasswordSchema,
  codeSchema,
  confirmTotpSchema,
  factorIdSchema,
  noInputSchema,
  passkeyResponseSchema,
  sessionIdSchema,
  timeZoneSchema,
} from './schemas/account';

/**
 * The user's own account: second factors, recovery codes, password and sessions. The actions
 * marked `pending` are the only ones a session that still owes its second factor may call; a
 * session that holds a factor but has not proved it may never add one (that would let a stolen
 * password enrol the thief's authenticator).
 */
const NOT_WHILE_VERIFYING = {
  ok: false as const,
  code: 'FORBIDDEN' as const,
  error: 'Prove your second factor first.',
};
const mayEnrol = (user: SessionUser) => user.pending !== 'verify';

/**
 * An enrolment at sign-in proves the factor for this session at once. No revalidation: it would
 * re-render the second-factor page, which then leaves for the console before the recovery codes
 * are read; the account page refreshes itself.
 */
async function afterEnrolment(user: SessionUser) {
  await markFactorProved(user.sessionId);
}

export const startTotpEnrolmentAction = defineAction(
  { name: 'account.totp.start', role: 'analyst', schema: noInputSchema, pending: true, stepUp: true },
  async (_input, user) => {
    if (!mayEnrol(user)) return NOT_WHILE_VERIFYING;
    return { ok: true as const, data: await startTotpEnrolment(user) };
  },
);

export const confirmTotpEnrolmentAction = defineAction(
  { name: 'account.totp.confirm', role: 'analyst', schema: confirmTotpSchema, pending: true, stepUp: true },
  async (input, user) => {
    if (!mayEnrol(user)) return NOT_WHILE_VERIFYING;
    const r = await confirmTotpEnrolment(user, input.factorId, input.code);
    if (!r.ok)
      return {
        ok: false as const,
        code: 'INVALID' as const,
        error: 'That code does not match. Check the time on your phone and try the current code.',
        fieldErrors: { code: ['That code does not match.'] },
      };
    await afterEnrolment(user);
    return { ok: true as const, data: { recoveryCodes: r.recoveryCodes } };
  },
);

export const passkeyRegistrationOptionsAction = defineAction(
  { name: 'account.passkey.options', role: 'analyst', schema: noInputSchema, pending: true, stepUp: true },
  async (_input, user) => {
    if (!mayEnrol(user)) return NOT_WHILE_VERIFYING;
    return { ok: true as const, data: await passkeyRegistrationOptions(user) };
  },
);

export const registerPasskeyAction = defineAction(
  { name: 'account.passkey.register', role: 'analyst', schema: passkeyResponseSchema, pending: true, stepUp: true },
  async (input, user) => {
    if (!mayEnrol(user)) return NOT_WHILE_VERIFYING;
    const r = await verifyPasskeyRegistration(user, input.response as RegistrationResponseJSON, input.label);
    if (!r.ok)
      return { ok: false as const, code: 'INVALID' as const, error: 'The passkey could not be registered. Try again.' };
    await afterEnrolment(user);
    return { ok: true as const, data: { recoveryCodes: r.recoveryCodes } };
  },
);

/** Proves the second factor with a code (TOTP or recovery), at sign-in or for step-up. */
export const proveCodeAction = defineAction(
  { name: 'account.factor.prove', role: 'analyst', schema: codeSchema, pending: true },
  async (input, user) => {
    if (user.pending === 'enrol' || !user.hasFactor)
      return { ok: false as const, code: 'FORBIDDEN' as const, error: 'Add a second factor first.' };
    const r = await proveWithCode(user, user.pending ? 'sign_in' : 'step_up', input.code);
    if (!r.ok)
      return { ok: false as const, code: 'INVALID' as const, error: r.error, fieldErrors: { code: [r.error] } };
    return { ok: true as const, data: { method: r.method } };
  },
);

export const passkeyAuthenticationOptionsAction = defineAction(
  { name: 'account.passkey.challenge', role: 'analyst', schema: noInputSchema, pending: true },
  async (_input, user) => {
    const options = await passkeyAuthenticationOptions(user);
    if (!options) return { ok: false as const, code: 'INVALID' as const, error: 'You have no passkey.' };
    return { ok: true as const, data: options };
  },
);

export const provePasskeyAction = defineAction(
  { name: 'account.passkey.prove', role: 'analyst', schema: passkeyResponseSchema, pending: true },
  async (input, user) => {
    const r = await proveSecondFactor(user, user.pending ? 'sign_in' : 'step_up', () =>
      verifyPasskeyAuthentication(user, input.response as AuthenticationResponseJSON),
    );
    if (!r.ok) return { ok: false as const, code: 'INVALID' as const, error: r.error };
    return { ok: true as const, data: { method: r.method } };
  },
);

export const removeFactorAction = defineAction(
  { name: 'account.factor.remove', role: 'analyst', schema: factorIdSchema, stepUp: true },
  async (input, user) => {
    const r = await removeFactor(user, input.factorId);
    if (r === 'unknown') return { ok: false as const, code: 'INVALID' as const, error: 'Unknown factor.' };
    if (r === 'last')
      return {
        ok: false as const,
        code: 'CONFLICT' as const,
        error: 'This is your only second factor: add another one before removing it.',
      };
    // A removed factor may have been a lost or stolen one: every other session ends.
    const ended = await revokeOtherSessions(user.id, user.sessionId);
    revalidatePath('/account');
    return { ok: true as const, data: { ended }, message: `Removed. ${ended} other session(s) were signed out.` };
  },
);

export const replaceRecoveryCodesAction = defineAction(
  { name: 'account.recovery_codes.replace', role: 'analyst', schema: noInputSchema, stepUp: true },
  async (_input, user) => {
    if (!user.hasFactor) return { ok: false as const, code: 'CONFLICT' as const, error: 'Add a second factor first.' };
    const codes = await replaceRecoveryCodes(user);
    revalidatePath('/account');
    return { ok: true as const, data: { recoveryCodes: codes } };
  },
);

export const changePasswordAction = defineAction(
  { name: 'account.password.change', role: 'analyst', schema: changePasswordSchema },
  async (input, user) => {
    const r = await changeOwnPassword(user, input, () => verifyCode(user, input.code));
    if (!r.ok)
      return { ok: false as const, code: 'INVALID' as const, error: r.error, fieldErrors: { [r.field]: [r.error] } };
    revalidatePath('/account');
    return {
      ok: true as const,
      data: { ended: r.ended },
      message: `Your password is changed. ${r.ended} other session(s) were signed out.`,
    };
  },
);

export const signOutSessionAction = defineAction(
  { name: 'account.sessions.sign_out', role: 'analyst', schema: sessionIdSchema },
  async (input, user) => {
    if (input.sessionId === sessionHandle(user.sessionId))
      return { ok: false as const, code: 'CONFLICT' as const, error: 'Use "Sign out" for this session.' };
    const target = (await listLiveSessions(user.id)).find((s) => sessionHandle(s.id) === input.sessionId);
    if (!target) return { ok: false as const, code: 'INVALID' as const, error: 'Unknown session.' };
    await revokeSession(target.id);
    await audit({ action: 'auth.session.revoke', actor: user, details: { sessions: 1 } });
    revalidatePath('/account');
    return { ok: true as const, data: null, message: 'That session is signed out.' };
  },
);

export const signOutOtherSessionsAction = defineAction(
  { name: 'account.sessions.sign_out_others', role: 'analyst', schema: noInputSchema },
  async (_input, user) => {
    const ended = await revokeOtherSessions(user.id, user.sessionId);
    await audit({ action: 'auth.session.revoke', actor: user, details: { sessions: ended } });
    revalidatePath('/account');
    return { ok: true as const, data: { ended }, message: `${ended} other session(s) signed out.` };
  },
);

/** Nothing but the step-up check: a download whose route asks for a fresh factor calls it first. */
export const confirmStepUpAction = defineAction(
  { name: 'account.step_up.confirm', role: 'analyst', schema: noInputSchema, stepUp: true },
  async () => null,
);

/** Times across the console in the user's zone (UTC on hover); kept with their preferences. */
export const saveTimeZoneAction = defineAction(
  { name: 'account.time_zone', role: 'analyst', schema: timeZoneSchema },
  async ({ timeZone }, user) => {
    await saveTimeZone(user.id, timeZone === 'UTC' ? null : timeZone);
    await audit({
      action: 'account.time_zone',
      actor: user,
      targetType: 'user',
      targetId: user.id,
      details: { timeZone },
    });
    revalidatePath('/', 'layout');
    return { ok: true as const, data: { timeZone }, message: `Times now show in ${timeZone}.` };
  },
);
