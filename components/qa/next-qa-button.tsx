'use client';
import { Loader2, ScanEye } from 'lucide-react';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { claimNextQaReviewAction } from '@/lib/actions/qa';

/** "Next QA review": claims the oldest waiting review that is not of one's own case, and opens it. */
export function NextQaButton() {
  const router = useRouter();
  const [pending, start] = React.useTransition();
  const [message, setMessage] = React.useState<string | null>(null);
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        onClick={() =>
          start(async () => {
            setMessage(null);
            const r = await claimNextQaReviewAction({});
            if (!r.ok) setMessage(r.error);
            else if (!r.data) setMessage(r.message ?? 'No QA reviews waiting for you.');
            else router.push(`/executions/${r.data.executionId}#case`);
          })
        }
        disabled={pending}
      >
        {pending ? (
          <Loader2 aria-hidden className="h-4 w-4 animate-spin" />
        ) : (
          <ScanEye aria-hidden className="h-4 w-4" />
        )}
        Next QA review
      </Button>
      <span role="status" className="text-xs text-muted-fg">
        {message}
      </span>
    </span>
  );
}
