'use client';
import { Loader2, ShieldCheck } from 'lucide-react';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { getAuditVerifyProgressAction, verifyAuditNowAction, type AuditVerifyState } from '@/lib/actions/audit';

const SAYS: Record<AuditVerifyState, string> = {
  queued: 'Queued: waiting for the worker…',
  running: 'Verifying every entry and signed checkpoint…',
  done: 'Verified: the banner shows the result.',
  failed: 'The verification did not finish; the worker’s log says why.',
};

/**
 * "Verify now" (managers): queues the full verification and follows it, queued, running, done,
 * then refreshes the page so the banner above shows the new result, not the last hourly one.
 */
export function VerifyNow() {
  const router = useRouter();
  const [jobId, setJobId] = React.useState<string | null>(null);
  const [state, setState] = React.useState<AuditVerifyState | null>(null);
  const [error, setError] = React.useState<string | null>(null);
  const [pending, start] = React.useTransition();
  const busy = pending || state === 'queued' || state === 'running';

  React.useEffect(() => {
    if (!jobId) return;
    const t = setInterval(async () => {
      const r = await getAuditVerifyProgressAction({ jobId });
      if (!r.ok) {
        setError(r.error);
        setJobId(null);
        return;
      }
      setState(r.data.state);
      if (r.data.state === 'done' || r.data.state === 'failed') {
        setJobId(null);
        router.refresh();
      }
    }, 1000);
    return () => clearInterval(t);
  }, [jobId, router]);

  return (
    <div className="mb-4 flex flex-wrap items-center gap-3">
      <Button
        variant="secondary"
        size="sm"
        disabled={busy}
        onClick={() =>
          start(async () => {
            setError(null);
            const r = await verifyAuditNowAction({});
            if (!r.ok) return setError(r.error);
            setState('queued');
            setJobId(r.data.jobId);
          })
        }
      >
        {busy ? (
          <Loader2 aria-hidden className="h-4 w-4 animate-spin" />
        ) : (
          <ShieldCheck aria-hidden className="h-4 w-4" />
        )}
        Verify now
      </Button>
      {state === 'queued' || state === 'running' ? (
        <progress className="h-2 w-40" aria-label="Verification progress" max={2} value={state === 'queued' ? 0 : 1} />
      ) : null}
      <span role="status" aria-live="polite" className="text-sm text-muted-fg" data-testid="audit-verify-state">
        {error ?? (state ? SAYS[state] : '')}
      </span>
    </div>
  );
}
