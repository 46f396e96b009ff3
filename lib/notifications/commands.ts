import 'server-only';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { notificationPreferences, notifications } from '@/lib/db/schema';
import { hasRole, type Role } from '@/lib/auth/roles';
import { NOTIFICATION_KIND_INFO, type NotificationKind } from './kinds';

/** Marks the person's own notices read (the given ids, or all); another person's ids match nothing. */
export async function markNotificationsRead(userId: string, ids: number[] | 'all'): Promise<number> {
  const rows = await db()
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        ...(ids === 'all' ? [] : [inArray(notifications.id, ids.length ? ids : [-1])]),
      ),
    )
    .returning({ id: notifications.id });
  return rows.length;
}

/** Stores the person's choice for every kind their role receives (kinds above the role are ignored). */
export async function saveNotificationPreferences(
  user: { id: string; role: Role },
  choices: Array<{ kind: NotificationKind; inApp: boolean; email: boolean }>,
): Promise<void> {
  const rows = choices
    .filter((c) => hasRole(user.role, NOTIFICATION_KIND_INFO[c.kind].role))
    .map((c) => ({ userId: user.id, ...c }));
  if (!rows.length) return;
  await db()
    .insert(notificationPreferences)
    .values(rows)
    .onConflictDoUpdate({
      target: [notificationPreferences.userId, notificationPreferences.kind],
      set: { inApp: sql`excluded.in_app`, email: sql`excluded.email` },
    });
}
