import { cookies } from 'next/headers';
import { StepUpProvider } from '@/components/account/step-up';
import { AppShell } from '@/components/shell/app-shell';
import { TimeZoneProvider } from '@/components/time/local-time';
import { getTimeZone } from '@/lib/auth/time-zone';
import { listFactors } from '@/lib/auth/factors';
import { NAV } from '@/lib/auth/access';
import { requireUser } from '@/lib/auth/guards';
import { hasRole } from '@/lib/auth/roles';
import { countUnreadNotifications } from '@/lib/notifications/queries';

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  const nav = NAV.filter((n) => hasRole(user.role, n.role)).map(({ href, label, icon }) => ({ href, label, icon }));
  const demo = process.env.VERDICT_DEMO === '1' || process.env.VERDICT_DEMO === 'true';
  const [factors, unread, timeZone] = await Promise.all([
    user.hasFactor ? listFactors(user.id) : [],
    countUnreadNotifications(user.id),
    getTimeZone(user.id),
  ]);
  return (
    <AppShell
      theme={(await cookies()).get('theme')?.value === 'dark' ? 'dark' : 'light'}
      nav={nav}
      user={{ name: user.name, email: user.email, role: user.role }}
      demo={demo}
      passwordOnly={!user.hasFactor}
      unread={unread}
    >
      <TimeZoneProvider zone={timeZone}>
        <StepUpProvider hasPasskey={factors.some((f) => f.kind === 'passkey')}>{children}</StepUpProvider>
      </TimeZoneProvider>
    </AppShell>
  );
}
