'use client';
import Link from 'next/link';
import * as React from 'react';
import { ActionResultNote } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { markNotificationsReadAction } from '@/lib/actions/notifications';
import type { ActionResult } from '@/lib/auth/guards';
import { NOTIFICATION_KIND_INFO, type NotificationKind } from '@/lib/notifications/kinds';
import { noticeHref, noticeText } from '@/lib/notifications/text';
import { LocalTime } from '@/components/time/local-time';

export interface NotificationItem {
  id: number;
  kind: NotificationKind;
  executionId: string | null;
  actorName: string | null;
  details: Record<string, unknown>;
  createdAt: string;
  read: boolean;
}

/** The person's notices with "Mark read" each and "Mark all read"; opening one marks it read. */
export function NotificationList({ items }: { items: NotificationItem[] }) {
  // What this page marked; the server's flag counts too, so a refresh after "Mark all read" that
  // brings newer notices shows them as the server has them, not as this page first saw them.
  const [marked, setMarked] = React.useState(() => new Set<number>());
  const isReadItem = (i: NotificationItem) => i.read || marked.has(i.id);
  const [result, setResult] = React.useState<ActionResult<number> | null>(null);
  const [pending, start] = React.useTransition();
  const mark = (ids: number[] | 'all') =>
    start(async () => {
      const r = await markNotificationsReadAction(ids === 'all' ? { all: true } : { ids });
      setResult(r);
      if (r.ok) setMarked((s) => new Set([...s, ...(ids === 'all' ? items.map((i) => i.id) : ids)]));
    });
  const unread = items.filter((i) => !isReadItem(i)).length;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-3">
        <p className="text-sm text-muted-fg">{unread ? `${unread} unread` : 'All read'}</p>
        <Button size="sm" variant="secondary" disabled={pending || !unread} onClick={() => mark('all')}>
          Mark all read
        </Button>
        <ActionResultNote result={result} />
      </div>
      <ul className="divide-y divide-border rounded-lg border border-border bg-card" aria-label="Notifications">
        {items.map((n) => {
          const isRead = isReadItem(n);
          return (
            <li key={n.id} className="flex items-start gap-3 px-4 py-3" data-unread={!isRead || undefined}>
              <span
                aria-hidden
                className={
                  isRead ? 'mt-1.5 h-2 w-2 shrink-0 rounded-full' : 'mt-1.5 h-2 w-2 shrink-0 rounded-full bg-primary'
                }
              />
              <div className="min-w-0 flex-1">
                <p className="text-xs text-muted-fg">
                  {NOTIFICATION_KIND_INFO[n.kind]?.label ?? n.kind} · <LocalTime value={n.createdAt} shape="relative" />
                  {isRead ? '' : ' · unread'}
                </p>
                <Link
                  href={noticeHref(n)}
                  className={
                    isRead
                      ? 'text-sm underline-offset-2 hover:underline'
                      : 'text-sm font-medium underline-offset-2 hover:underline'
                  }
                  onClick={() => (isRead ? undefined : void markNotificationsReadAction({ ids: [n.id] }))}
                >
                  {noticeText(n)}
                </Link>
              </div>
              {!isRead ? (
                <Button size="sm" variant="ghost" disabled={pending} onClick={() => mark([n.id])}>
                  Mark read
                </Button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
