import { z } from 'zod';
import { ROLES } from '@/lib/db/schema/auth';

export const EMAIL_MAX = 254;
export const USER_NAME_MAX = 100;

/** Shared by the form (client-side hints) and the actions (the real check). */
export const createUserSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Enter an e-mail address.')
    .max(EMAIL_MAX, `An e-mail address is at most ${EMAIL_MAX} characters.`)
    .pipe(z.email('Enter a valid e-mail address.')),
  name: z.string().trim().min(1, 'Enter a name.').max(USER_NAME_MAX, `Names are at most ${USER_NAME_MAX} characters.`),
  role: z.enum(ROLES, { error: 'Choose a role.' }),
  /** `password`: the user chooses one through a one-time link; `sso`: company SSO only, no password ever. */
  signIn: z.enum(['password', 'sso'], { error: 'Choose how they sign in.' }).default('password'),
});

export const changeRoleSchema = z.object({
  userId: z.uuid('Unknown user.'),
  role: z.enum(ROLES, { error: 'Choose a role.' }),
});
export const setActiveSchema = z.object({
  userId: z.uuid('Unknown user.'),
  active: z.enum(['true', 'false']).transform((v) => v === 'true'),
});
export const userIdSchema = z.object({ userId: z.uuid('Unknown user.') });
