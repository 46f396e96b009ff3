'use client';
import { StatusPage } from '@/components/shell/status-page';
import { Button } from '@/components/ui/button';

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <StatusPage code="Error" title="Something went wrong" action={<Button onClick={reset}>Try again</Button>}>
      The page could not be shown. Nothing you entered was lost.{' '}
      {error.digest ? <span className="font-mono">Reference: {error.digest}</span> : null}
    </StatusPage>
  );
}
