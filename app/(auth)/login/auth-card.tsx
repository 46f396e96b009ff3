import { Logo } from '@/components/ui/logo';

/** The frame of the sign-in pages: the mark, a title and the card. */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: string;
  children: React.ReactNode;
}) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center gap-2">
          <Logo className="h-8 w-8" />
          <div>
            <h1 className="text-xl font-semibold">{title}</h1>
            <p className="text-xs text-muted-fg">{subtitle}</p>
          </div>
        </div>
        <div className="flex flex-col gap-4 rounded-lg border border-border bg-card p-5 shadow-sm">{children}</div>
      </div>
    </main>
  );
}
