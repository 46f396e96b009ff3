import { Logo } from '@/components/ui/logo';

type Heading = { title: string; subtitle: string };

/** The frame of the sign-in pages: the mark and a title over what the page shows. */
export function AuthFrame({ title, subtitle, children }: Heading & { children: React.ReactNode }) {
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
        {children}
      </div>
    </main>
  );
}

/** A sign-in page whose content stands in one card. */
export function AuthCard({ children, ...heading }: Heading & { children: React.ReactNode }) {
  return (
    <AuthFrame {...heading}>
      <div className="flex flex-col gap-4 rounded-lg border border-border bg-card p-5 shadow-sm">{children}</div>
    </AuthFrame>
  );
}
