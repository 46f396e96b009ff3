import { z } from 'zod';
import { ROLES } from '@/lib/db/schema/auth';
import { PASSWORD_MAX, PASSWORD_MIN } from '@/lib/auth/password';

/** Shared by the form (client-side hints) and the actions (the real check). */
export const createUserSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Enter an e-mail address.')
    .max(254, 'That e-mail address is too long.')
    .pipe(z.email('Enter a valid e-mail address.')),
  name: z.string().trim().min(1, 'Enter a name.').max(100, 'Names are at most 100 characters.'),
  role: z.enum(ROLES, { error: 'Choose a role.' }),
  password: z
    .string()
    .max(PASSWORD_MAX, `Passwords are at most ${PASSWORD_MAX} characters.`)
    .refine((p) => p === '' || p.length >= PASSWORD_MIN, `Passwords are at least ${PASSWORD_MIN} characters.`)
    .optional()
    .transform((p) => p || undefined),
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
