'use server';
import { revalidatePath } from 'next/cache';
import { defineAction } from '@/lib/auth/guards';
import { fourEyesSchema } from '@/lib/feedback/schema';
import { setFourEyes } from '@/lib/feedback/settings';

export const setFourEyesAction = defineAction(
  { name: 'settings.four_eyes', role: 'admin', schema: fourEyesSchema, stepUp: true },
  async (input, user) => {
    const r = await setFourEyes(user, input.enabled);
    revalidatePath('/admin/settings');
    return {
      ok: true as const,
      data: r,
      message: input.enabled
        ? 'Four-eyes is on: Fraud and Not fraud labels from analysts now wait for a manager.'
        : 'Four-eyes is off: labels are sent as soon as they are submitted. Labels already waiting stay in the approval queue.',
    };
  },
);
