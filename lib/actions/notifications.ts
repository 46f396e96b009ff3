'use server';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { defineAction } from '@/lib/auth/guards';
import { markNotificationsRead, saveNotificationPreferences } from '@/lib/notifications/commands';
import { countUnreadNotifications } from '@/lib/notifications/queries';
import { markReadSchema, preferencesSchema } from '@/lib/notifications/schema';

/**
 * Notifications (lib/notifications): each person reads, marks and chooses only their own; the
 * session's user is the only user these actions touch.
 */

/** The bell's poll: the unread count only, so it stays one small index read every ~20 s. */
export const getUnreadCountAction = defineAction(
  { name: 'notifications.count', role: 'analyst', schema: z.object({}).optional() },
  async (_input, user) => countUnreadNotifications(user.id),
);

export const markNotificationsReadAction = defineAction(
  { name: 'notifications.read', role: 'analyst', schema: markReadSchema },
  async (input, user) => {
    const n = await markNotificationsRead(user.id, 'all' in input ? 'all' : input.ids);
    revalidatePath('/notifications');
    return { ok: true as const, data: n, message: n === 1 ? '1 marked read.' : `${n} marked read.` };
  },
);

export const saveNotificationPreferencesAction = defineAction(
  { name: 'notifications.preferences', role: 'analyst', schema: preferencesSchema },
  async (input, user) => {
    await saveNotificationPreferences(user, input.choices);
    revalidatePath('/notifications');
    return { ok: true as const, data: null, message: 'Saved.' };
  },
);
