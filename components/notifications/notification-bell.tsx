'use client';
import { Bell } from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import * as React from 'react';
import { getUnreadCountAction } from '@/lib/actions/notifications';
import { BELL_POLL_MS } from '@/lib/notifications/kinds';

/**
 * The unread count in the shell. It asks one small action every BELL_POLL_MS while the tab is
 * visible, and at every navigation, so a case assigned meanwhile shows without reloading the app.
 */
export function NotificationBell({ initial }: { initial: number }) {
  const pathname = usePathname();
  const [count, setCount] = React.useState(initial);
  const refresh = React.useCallback(async () => {
    if (document.visibilityState === 'hidden') return;
    const r = await getUnreadCountAction({}).catch(() => null);
    if (r?.ok) setCount(r.data);
  }, []);
  React.useEffect(() => {
    const t = setInterval(refresh, BELL_POLL_MS);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      clearInterval(t);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [refresh]);
  // Each navigation asks again (the first render already has the server's count).
  const first = React.useRef(true);
  React.useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void refresh();
  }, [pathname, refresh]);
  const label = count ? `Notifications: ${count} unread` : 'Notifications: none unread';
  return (
    <Link
      href="/notifications"
      aria-label={label}
      title={label}
      data-testid="notification-bell"
      className="relative inline-flex h-9 w-9 items-center justify-center rounded-md hover:bg-muted"
    >
      <Bell aria-hidden className="h-4 w-4" />
      {count ? (
        <span
          aria-hidden
          data-testid="notification-count"
          // A fixed dark red: white on it stays above 4.5:1 in both themes.
          className="absolute -right-0.5 -top-0.5 min-w-[1.1rem] rounded-full bg-[#b91c1c] px-1 text-center text-[10px] font-semibold leading-[1.1rem] text-white"
        >
          {count > 99 ? '99+' : count}
        </span>
      ) : null}
    </Link>
  );
}
