import 'server-only';
import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { notificationPreferences, notifications, users } from '@/lib/db/schema';
import { hasRole, type Role } from '@/lib/auth/roles';
import { NOTIFICATION_KIND_INFO, NOTIFICATION_KINDS, type NotificationKind } from './kinds';

/** The bell's number: one index-only count (notifications_unread_idx). */
export async function countUnreadNotifications(userId: string): Promise<number> {
  const [r] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.inApp, true), isNull(notifications.readAt)));
  return r?.n ?? 0;
}

export const NOTIFICATIONS_PAGE_SIZE = 50;

export interface NotificationRow {
  id: number;
  kind: NotificationKind;
  executionId: string | null;
  caseId: string | null;
  actorName: string | null;
  details: Record<string, unknown>;
  createdAt: Date;
  readAt: Date | null;
}

/** One person's in-app notices, newest first, paged by id (`before`: the last id of the page shown). */
export async function listNotifications(
  userId: string,
  before?: number,
): Promise<{ rows: NotificationRow[]; next: number | null }> {
  const rows = await db()
    .select({
      id: notifications.id,
      kind: notifications.kind,
      executionId: notifications.executionId,
      caseId: notifications.caseId,
      actorName: users.name,
      details: notifications.details,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
    })
    .from(notifications)
    .leftJoin(users, eq(users.id, notifications.actorId))
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.inApp, true),
        ...(before ? [lt(notifications.id, before)] : []),
      ),
    )
    .orderBy(desc(notifications.id))
    .limit(NOTIFICATIONS_PAGE_SIZE + 1);
  const more = rows.length > NOTIFICATIONS_PAGE_SIZE;
  const page = rows.slice(0, NOTIFICATIONS_PAGE_SIZE).map((r) => ({ ...r, details: r.details ?? {} }));
  return { rows: page, next: more ? page[page.length - 1].id : null };
}

export interface NotificationPreference {
  kind: NotificationKind;
  label: string;
  describe: string;
  inApp: boolean;
  email: boolean;
}

/** Each kind the role can receive, with the person's choice or the kind's default. */
export async function getNotificationPreferences(userId: string, role: Role): Promise<NotificationPreference[]> {
  const chosen = await db().select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
  const byKind = new Map(chosen.map((c) => [c.kind, c]));
  return NOTIFICATION_KINDS.filter((k) => hasRole(role, NOTIFICATION_KIND_INFO[k].role)).map((kind) => {
    const info = NOTIFICATION_KIND_INFO[kind];
    const c = byKind.get(kind);
    return {
      kind,
      label: info.label,
      describe: info.describe,
      inApp: c?.inApp ?? info.inApp,
      email: c?.email ?? info.email,
    };
  });
}
