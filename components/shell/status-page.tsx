import Link from 'next/link';
import * as React from 'react';

/** A page in place of the one asked for; unless it offers something better, it leads back home. */
export function StatusPage({
  code,
  title,
  children,
  action = (
    <Link className="text-primary underline" href="/">
      Back to Verdict
    </Link>
  ),
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
      <div className="mt-2">{action}</div>
    </main>
  );
}
