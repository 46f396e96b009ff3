'use client';
import { RefreshCw, RotateCcw, Scale } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useEffect, useState, useTransition } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import type { ActionResult } from '@/lib/auth/guards';

type Run = (input: { kind: 'backfill' | 'reconcile' }) => Promise<ActionResult<{ runId: number }>>;
type Retry = (input: Record<string, never>) => Promise<ActionResult<{ fetches: number; runs: number }>>;

function useActionMessage() {
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();
  const router = useRouter();
  const run = (fn: () => Promise<ActionResult<unknown>>) =>
    start(async () => {
      const r = await fn();
      setResult(r.ok ? { ok: true, text: r.message ?? 'Done.' } : { ok: false, text: r.error });
      router.refresh();
    });
  return { result, pending, run };
}

/** "Start a backfill" and "Reconcile now". A run already open of that kind is resumed by the action, not doubled. */
export function SyncRunButtons({ startRun }: { startRun: Run }) {
  const { result, pending, run } = useActionMessage();
  return (
    <div className="flex flex-col items-end gap-2">
      <div className="flex gap-2">
        <Button
          onClick={() => run(() => startRun({ kind: 'backfill' }))}
          disabled={pending}
          title="Fetch what the service has that the cache does not, down to where they meet"
        >
          <RefreshCw aria-hidden className={pending ? 'size-4 animate-spin' : 'size-4'} />
          Start a backfill
        </Button>
        <Button
          variant="secondary"
          onClick={() => run(() => startRun({ kind: 'reconcile' }))}
          disabled={pending}
          title="Walk the whole list and compare it with the cache"
        >
          <Scale aria-hidden className="size-4" />
          Reconcile now
        </Button>
      </div>
      {result ? <Alert tone={result.ok ? 'success' : 'error'}>{result.text}</Alert> : null}
    </div>
  );
}

export function RetryFailedButton({ retry, disabled }: { retry: Retry; disabled: boolean }) {
  const { result, pending, run } = useActionMessage();
  return (
    <div className="flex items-center gap-3">
      {result ? (
        <span role={result.ok ? 'status' : 'alert'} className="text-xs text-muted-fg">
          {result.text}
        </span>
      ) : null}
      <Button size="sm" variant="secondary" onClick={() => run(() => retry({}))} disabled={pending || disabled}>
        <RotateCcw aria-hidden className="size-3.5" />
        {pending ? 'Queuing…' : 'Retry failed'}
      </Button>
    </div>
  );
}

/** Re-renders the page every `ms` while work is going on, so progress moves without a reload. */
export function AutoRefresh({ active, ms = 2000 }: { active: boolean; ms?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => router.refresh(), ms);
    return () => clearInterval(t);
  }, [active, ms, router]);
  return null;
}
