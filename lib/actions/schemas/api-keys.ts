import { z } from 'zod';

/** How long a new key may live: a key without an end would outlive the integration that needed it. */
export const API_KEY_DAY_OPTIONS = [30, 90, 180, 365] as const;

export const API_KEY_NAME_MAX = 100;

/** Shared by the form (its options) and the actions (the real check). */
export const createApiKeySchema = z.object({
  name: z
    .string()
    .trim()
    .min(3, 'Name the key after what uses it (at least 3 characters).')
    .max(API_KEY_NAME_MAX, `A name is at most ${API_KEY_NAME_MAX} characters.`),
  days: z.coerce
    .number({ error: 'Choose how long the key lives.' })
    .refine((d) => (API_KEY_DAY_OPTIONS as readonly number[]).includes(d), 'Choose how long the key lives.'),
});

export const revokeApiKeySchema = z.object({ keyId: z.uuid('Unknown key.') });
