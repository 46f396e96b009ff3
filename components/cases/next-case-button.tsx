'use client';
import { Inbox, Loader2 } from 'lucide-react';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { claimNextCaseAction } from '@/lib/actions/cases';
import { SHORTCUTS } from '@/components/shortcuts/shortcuts';
import { useKey } from './use-key';

/**
 * "Next case" (and the `n` key): claims the next case of the user's queues on the server, in one
 * atomic step, and opens it. When every queue is empty it says so instead of moving.
 */
export function NextCaseButton({ size = 'sm' }: { size?: 'sm' | 'md' }) {
  const router = useRouter();
  const [pending, start] = React.useTransition();
  const [message, setMessage] = React.useState<string | null>(null);
  const next = React.useCallback(() => {
    if (pending) return;
    setMessage(null);
    start(async () => {
      const r = await claimNextCaseAction({});
      if (!r.ok) setMessage(r.error);
      else if (!r.data) setMessage(r.message ?? 'No open cases in your queues.');
      else router.push(`/executions/${r.data.executionId}`);
    });
  }, [pending, router]);
  useKey('nextCase', next);
  return (
    <span className="inline-flex items-center gap-2">
      <Button size={size} onClick={next} disabled={pending} aria-keyshortcuts={SHORTCUTS.nextCase.key}>
        {pending ? <Loader2 aria-hidden className="h-4 w-4 animate-spin" /> : <Inbox aria-hidden className="h-4 w-4" />}
        Next case <kbd className="font-mono text-[10px] opacity-80">{SHORTCUTS.nextCase.key}</kbd>
      </Button>
      <span role="status" className="text-xs text-muted-fg">
        {message}
      </span>
    </span>
  );
}
