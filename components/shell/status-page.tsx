import * as React from 'react';

export function StatusPage({
  code,
  title,
  children,
  action,
}: {
  code: string;
  title: string;
  children?: React.ReactNode;
  action?: React.ReactNode;
}) {
  return (
    <main className="flex min-h-[60vh] flex-col items-center justify-center gap-3 px-6 text-center">
      <p className="font-mono text-sm text-muted-fg">{code}</p>
      <h1 className="text-2xl font-semibold">{title}</h1>
      {children ? <p className="max-w-lg text-sm text-muted-fg">{children}</p> : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </main>
  );
}
