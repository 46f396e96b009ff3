'use client';
import {
  Activity,
  BarChart3,
  CheckSquare,
  ClipboardList,
  Gauge,
  Network,
  Home,
  Inbox,
  KeyRound,
  List,
  Menu,
  Moon,
  RefreshCw,
  ScanEye,
  Settings,
  Sun,
  Users,
  Webhook,
} from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { ShortcutHelp } from '@/components/shortcuts/shortcut-help';
import { OnFirstUse } from '@/components/ui/on-first-use';
import { cn } from '@/lib/utils';
import { NotificationBell } from '@/components/notifications/notification-bell';
import { AccountButton } from './account-button';
import { Logo } from '@/components/ui/logo';

const AccountMenu = React.lazy(() => import('./account-menu'));

const ICONS = {
  home: Home,
  list: List,
  chart: BarChart3,
  audit: ClipboardList,
  sync: RefreshCw,
  users: Users,
  settings: Settings,
  check: CheckSquare,
  activity: Activity,
  webhook: Webhook,
  inbox: Inbox,
  key: KeyRound,
  scan: ScanEye,
  gauge: Gauge,
  network: Network,
};

export interface ShellNavItem {
  href: string;
  label: string;
  icon: keyof typeof ICONS;
}

function isActive(pathname: string, href: string) {
  return href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
}

export function AppShell({
  nav,
  user,
  demo,
  passwordOnly,
  theme,
  unread,
  children,
}: {
  nav: ShellNavItem[];
  user: { name: string; email: string; role: string };
  demo: boolean;
  /** Signed in with the password alone (no second factor held): said in the shell, with the way to add one. */
  passwordOnly: boolean;
  theme: 'light' | 'dark';
  /** Unread notifications when the page was rendered; the bell keeps it current. */
  unread: number;
  children: React.ReactNode;
}) {
  const pathname = usePathname();
  const [open, setOpen] = React.useState(false);
  const [dark, setDark] = React.useState(theme === 'dark');

  function toggleTheme() {
    const next = !dark;
    document.documentElement.classList.toggle('dark', next);
    document.cookie = `theme=${next ? 'dark' : 'light'}; path=/; max-age=31536000; samesite=lax`;
    setDark(next);
  }

  return (
    <div className="flex min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-card focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <aside
        className={cn(
          'fixed inset-y-0 left-0 z-30 w-56 shrink-0 border-r border-border bg-card transition-transform md:static md:translate-x-0',
          open ? 'translate-x-0' : '-translate-x-full',
        )}
      >
        <div className="flex h-14 items-center gap-2 border-b border-border px-4">
          <Logo />
          <span className="font-semibold">Verdict</span>
          {demo ? (
            <span className="ml-auto rounded bg-warn/15 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-warn">
              Demo
            </span>
          ) : null}
        </div>
        {passwordOnly ? (
          <Link
            href="/account"
            className="mx-2 mt-2 block rounded-md border border-warn/40 bg-warn/10 px-2 py-1.5 text-xs text-fg hover:bg-warn/20"
          >
            {demo ? 'Demo sign-in: password only, no second factor.' : 'Signed in with a password only.'}{' '}
            <span className="underline">Add a second factor</span>
          </Link>
        ) : null}
        <nav aria-label="Main" className="flex flex-col gap-0.5 p-2">
          {nav.map((item) => {
            const Icon = ICONS[item.icon];
            const active = isActive(pathname, item.href);
            return (
              <Link
                key={item.href}
                href={item.href}
                aria-current={active ? 'page' : undefined}
                onClick={() => setOpen(false)}
                className={cn(
                  'flex items-center gap-2 rounded-md px-3 py-2 text-sm',
                  active ? 'bg-primary/10 font-medium text-primary' : 'text-fg hover:bg-muted',
                )}
              >
                <Icon aria-hidden className="h-4 w-4" />
                {item.label}
              </Link>
            );
          })}
        </nav>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-20 flex h-14 items-center gap-2 border-b border-border bg-card/95 px-4 backdrop-blur">
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-label="Open navigation"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            <Menu className="h-5 w-5" aria-hidden />
          </Button>
          <div className="ml-auto flex items-center gap-1">
            <NotificationBell initial={unread} />
            <Button
              variant="ghost"
              size="icon"
              onClick={toggleTheme}
              aria-label={dark ? 'Switch to light theme' : 'Switch to dark theme'}
            >
              {dark ? <Sun className="h-4 w-4" aria-hidden /> : <Moon className="h-4 w-4" aria-hidden />}
            </Button>
            <OnFirstUse trigger={(p) => <AccountButton user={user} {...p} />}>
              {(use) => <AccountMenu user={user} defaultOpen={use.open} />}
            </OnFirstUse>
          </div>
        </header>
        <main id="main" className="mx-auto w-full max-w-[1400px] flex-1 px-4 py-6 md:px-6">
          {children}
        </main>
        <ShortcutHelp />
      </div>
    </div>
  );
}
