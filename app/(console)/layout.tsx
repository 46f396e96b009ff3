import { cookies } from 'next/headers';
import { AppShell } from '@/components/shell/app-shell';
import { NAV } from '@/lib/auth/access';
import { requireUser } from '@/lib/auth/guards';
import { hasRole } from '@/lib/auth/roles';

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  const nav = NAV.filter((n) => hasRole(user.role, n.role)).map(({ href, label, icon }) => ({ href, label, icon }));
  const demo = process.env.VERDICT_DEMO === '1' || process.env.VERDICT_DEMO === 'true';
  return (
    <AppShell
      theme={(await cookies()).get('theme')?.value === 'dark' ? 'dark' : 'light'}
      nav={nav}
      user={{ name: user.name, email: user.email, role: user.role }}
      demo={demo}
    >
      {children}
    </AppShell>
  );
}
