import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';
import { isTimeZone } from '@/lib/format';

export const codeSchema = z.object({
  code: z
    .string({ error: 'Enter the code.' })
    .trim()
    .min(6, 'Enter the 6-digit code from your app, or a recovery code.')
    .max(20, 'That code is too long.'),
});
export const confirmTotpSchema = codeSchema.extend({ factorId: z.uuid('Start the enrolment again.') });
export const factorIdSchema = z.object({ factorId: z.uuid('Unknown factor.') });
export const noInputSchema = z.object({}).optional().default({});
/** The browser's WebAuthn answer, checked by @simplewebauthn/server; only its shape is checked here. */
export const passkeyResponseSchema = z.object({
  response: z.custom<RegistrationResponseJSON | AuthenticationResponseJSON>(
    (v) =>
      typeof v === 'object' &&
      v !== null &&
      typeof (v as { id?: unknown }).id === 'string' &&
      (v as { id: string }).id.length <= 1024 &&
      (v as { type?: unknown }).type === 'public-key',
    'That is not a passkey answer.',
  ),
  label: z.string().trim().max(60, 'Names are at most 60 characters.').optional().default(''),
});
export const changePasswordSchema = z.object({
  current: z.string().min(1, 'Enter your current password.').max(128),
  next: z.string().min(1, 'Enter a new password.').max(128, 'Use at most 128 characters.'),
  code: z.string().trim().max(20).optional().default(''),
});
/** A time zone from the list ("UTC" clears the preference). */
export const timeZoneSchema = z.object({
  timeZone: z
    .string()
    .trim()
    .min(1, 'Choose a time zone.')
    .max(64, 'Choose a time zone from the list.')
    .refine(isTimeZone, 'Choose a time zone from the list.'),
});

export const sessionIdSchema = z.object({ sessionId: z.string().min(10).max(64, 'Unknown session.') });
