'use client';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { useStepUp } from '@/components/account/step-up';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { markAccessReviewedAction } from '@/lib/actions/access-review';
import type { ActionResult } from '@/lib/auth/guards';

export function MarkReviewedButton() {
  const router = useRouter();
  const stepUp = useStepUp();
  const [result, setResult] = useState<ActionResult<unknown> | null>(null);
  const [pending, start] = useTransition();
  return (
    <div className="flex flex-col items-end gap-2">
      <Button
        disabled={pending}
        onClick={() =>
          start(async () => {
            const r = await stepUp(() => markAccessReviewedAction({}));
            setResult(r);
            if (r.ok) router.refresh();
          })
        }
      >
        {pending ? 'Recording…' : 'Mark reviewed'}
      </Button>
      {result ? (
        <Alert tone={result.ok ? 'success' : 'error'}>{result.ok ? result.message : result.error}</Alert>
      ) : null}
    </div>
  );
}
