'use client';
import { useRouter } from 'next/navigation';
import { startTransition } from 'react';
import { StatusPage } from '@/components/shell/status-page';
import { Button } from '@/components/ui/button';
import { DATABASE_OUTAGE_DIGEST, DATABASE_OUTAGE_TEXT } from '@/lib/db/outage';

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  if (error.digest === DATABASE_OUTAGE_DIGEST) {
    // The page's data is the server's: ask for it again, not only render again what failed.
    const retry = () =>
      startTransition(() => {
        router.refresh();
        reset();
      });
    return (
      <StatusPage code="503" title={DATABASE_OUTAGE_TEXT.title} action={<Button onClick={retry}>Try again</Button>}>
        {DATABASE_OUTAGE_TEXT.detail}
      </StatusPage>
    );
  }
  return (
    <StatusPage code="Error" title="Something went wrong" action={<Button onClick={reset}>Try again</Button>}>
      The page could not be shown. Nothing you entered was lost.{' '}
      {error.digest ? <span className="font-mono">Reference: {error.digest}</span> : null}
    </StatusPage>
  );
}
