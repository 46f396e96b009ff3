'use client';
import { RefreshCw } from 'lucide-react';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import type { ActionResult } from '@/lib/auth/guards';

/**
 * "Refresh from service": fetches the execution again (R2, R7, R8) through the sync feature's
 * action, passed in by the page. Without one, the button explains that refresh is unavailable.
 */
export function RefreshButton({
  executionId,
  action,
}: {
  executionId: string;
  action?: (input: { executionId: string }) => Promise<ActionResult<unknown>>;
}) {
  const router = useRouter();
  const [pending, start] = React.useTransition();
  const [message, setMessage] = React.useState<{ ok: boolean; text: string } | null>(null);
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        variant="secondary"
        disabled={!action || pending}
        title={
          action
            ? 'Fetch this execution again from the service'
            : 'Refreshing needs the connection to the service (sync), which is not available here.'
        }
        onClick={() =>
          action &&
          start(async () => {
            const r = await action({ executionId });
            setMessage(r.ok ? { ok: true, text: r.message ?? 'Refreshed.' } : { ok: false, text: r.error });
            if (r.ok) router.refresh();
          })
        }
      >
        <RefreshCw aria-hidden className={pending ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} /> Refresh from service
      </Button>
      {message ? (
        <span role={message.ok ? 'status' : 'alert'} className={message.ok ? 'text-xs text-ok' : 'text-xs text-danger'}>
          {message.text}
        </span>
      ) : null}
    </span>
  );
}
