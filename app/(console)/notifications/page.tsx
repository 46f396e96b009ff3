import type { Metadata } from 'next';
import Link from 'next/link';
import { NotificationList } from '@/components/notifications/notification-list';
import { NotificationPreferences } from '@/components/notifications/notification-preferences';
import { PageHeader } from '@/components/shell/page-header';
import { TitledCard } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { requireUser } from '@/lib/auth/guards';
import { mailConfigured } from '@/lib/notifications/email';
import { getNotificationPreferences, listNotifications } from '@/lib/notifications/queries';

export const metadata: Metadata = { title: 'Notifications' };

export default async function NotificationsPage({ searchParams }: { searchParams: Promise<{ before?: string }> }) {
  const user = await requireUser();
  const before = Number((await searchParams).before);
  const [{ rows, next }, prefs] = await Promise.all([
    listNotifications(user.id, Number.isSafeInteger(before) && before > 0 ? before : undefined),
    getNotificationPreferences(user.id, user.role),
  ]);
  return (
    <>
      <PageHeader title="Notifications" description="What happened to your cases while you looked elsewhere." />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_26rem]">
        <section aria-labelledby="notices-heading">
          <h2 id="notices-heading" className="sr-only">
            Your notifications
          </h2>
          {rows.length ? (
            <NotificationList
              items={rows.map((r) => ({
                id: r.id,
                kind: r.kind,
                executionId: r.executionId,
                actorName: r.actorName,
                details: r.details,
                createdAt: r.createdAt.toISOString(),
                read: Boolean(r.readAt),
              }))}
            />
          ) : (
            <EmptyState title="Nothing yet">
              You are told here when a case is assigned to you, a claim is about to lapse, a case nears its SLA or
              someone mentions you in a note.
            </EmptyState>
          )}
          {next ? (
            <Link className="mt-3 inline-block text-sm text-primary underline" href={`/notifications?before=${next}`}>
              Older notifications
            </Link>
          ) : null}
        </section>
        <TitledCard title="What you are told">
          <NotificationPreferences rows={prefs} mail={mailConfigured()} />
        </TitledCard>
      </div>
    </>
  );
}
