'use server';
import { revalidatePath } from 'next/cache';
import { createApiKey, revokeApiKey } from '@/lib/api/keys';
import { defineAction } from '@/lib/auth/guards';
import { createApiKeySchema, revokeApiKeySchema } from './schemas/api-keys';

/** Creates a read-only key; the key itself is in the answer and nowhere else, ever. */
export const createApiKeyAction = defineAction(
  { name: 'api_keys.create', role: 'admin', schema: createApiKeySchema, stepUp: true },
  async (input, user) => {
    const r = await createApiKey(input, user);
    revalidatePath('/admin/api-keys');
    return {
      ok: true as const,
      data: { key: r.key, prefix: r.prefix, expiresAt: r.expiresAt.toISOString() },
      message: 'Copy the key now: it is shown only once.',
    };
  },
);

export const revokeApiKeyAction = defineAction(
  { name: 'api_keys.revoke', role: 'admin', schema: revokeApiKeySchema, stepUp: true },
  async (input, user) => {
    const revoked = await revokeApiKey(input.keyId, user);
    revalidatePath('/admin/api-keys');
    if (!revoked) return { ok: false as const, code: 'CONFLICT' as const, error: 'This key was already revoked.' };
    return { ok: true as const, data: null, message: 'Revoked: the key is refused from now on.' };
  },
);
