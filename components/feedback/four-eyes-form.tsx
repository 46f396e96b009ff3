'use client';
import { useStepUp } from '@/components/account/step-up';
import * as React from 'react';
import { setFourEyesAction } from '@/lib/actions/settings';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import type { ActionResult } from '@/lib/auth/guards';
import { cn } from '@/lib/utils';

/** The four-eyes switch: a labelled checkbox styled as a switch, saved explicitly. */
export function FourEyesForm({ enabled }: { enabled: boolean }) {
  const [on, setOn] = React.useState(enabled);
  const [result, setResult] = React.useState<ActionResult<unknown> | null>(null);
  const [pending, start] = React.useTransition();
  const stepUp = useStepUp();
  const changed = on !== enabled;
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => setResult(await stepUp(() => setFourEyesAction({ enabled: on ? 'true' : 'false' }))));
      }}
    >
      <label className="flex cursor-pointer items-start gap-3">
        <input
          type="checkbox"
          role="switch"
          className="peer sr-only"
          checked={on}
          onChange={(e) => setOn(e.target.checked)}
          aria-describedby="four-eyes-hint"
          disabled={pending}
        />
        <span
          aria-hidden
          className={cn(
            'relative mt-0.5 inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring',
            on ? 'bg-primary' : 'bg-border',
          )}
        >
          <span
            className={cn(
              'inline-block h-4 w-4 rounded-full bg-white shadow transition-transform',
              on ? 'translate-x-4' : 'translate-x-0.5',
            )}
          />
        </span>
        <span className="flex flex-col gap-0.5">
          <span className="text-sm font-medium">Four-eyes for Fraud and Not fraud labels</span>
          <span id="four-eyes-hint" className="text-xs text-muted-fg">
            When on, a label from an analyst waits in the Approvals queue until a manager approves it (then it is sent)
            or rejects it with a comment. Labels from managers and admins, and NA from anyone, are sent at once.
          </span>
        </span>
      </label>
      {result ? (
        <Alert tone={result.ok ? 'success' : 'error'}>{result.ok ? result.message : result.error}</Alert>
      ) : null}
      <div>
        <Button type="submit" disabled={pending || !changed}>
          {pending ? 'Saving…' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
