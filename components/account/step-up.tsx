'use client';
import dynamic from 'next/dynamic';
import { createContext, useCallback, useContext, useRef, useState } from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import type { ActionResult } from '@/lib/auth/guards';

// The console's layout holds this provider on every page, and a step-up is rare: the factor's
// form loads after the page, not with it (`npm run js:budget`).
const ProveFactorForm = dynamic(() => import('./second-factor-forms').then((m) => m.ProveFactorForm), {
  loading: () => <p className="text-sm text-muted-fg">Loading…</p>,
});

/**
 * Step-up in the browser: an action refused with `STEP_UP` (its session's second factor is older
 * than STEP_UP_MINUTES, lib/auth/step-up.ts) opens this dialog; once the factor is proved the same
 * call is made again. The action decides, not this dialog: closing it leaves the refusal as it is.
 */
type Runner = <T>(call: () => Promise<ActionResult<T>>) => Promise<ActionResult<T>>;

const StepUpContext = createContext<Runner>((call) => call());

export const useStepUp = () => useContext(StepUpContext);

export function StepUpProvider({ hasPasskey, children }: { hasPasskey: boolean; children: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  const settle = useRef<((proved: boolean) => void) | null>(null);

  const finish = (proved: boolean) => {
    settle.current?.(proved);
    settle.current = null;
    setOpen(false);
  };

  const run = useCallback<Runner>(async (call) => {
    const first = await call();
    if (first.ok || first.code !== 'STEP_UP') return first;
    const proved = await new Promise<boolean>((resolve) => {
      settle.current = resolve;
      setOpen(true);
    });
    return proved ? call() : first;
  }, []);

  return (
    <StepUpContext.Provider value={run}>
      {children}
      <Dialog open={open} onOpenChange={(o) => (o ? setOpen(true) : finish(false))}>
        <DialogContent
          title="Confirm it is you"
          description="This needs your second factor again: enter a code from your authenticator app, or use your passkey."
        >
          <ProveFactorForm hasPasskey={hasPasskey} onProved={() => finish(true)} />
        </DialogContent>
      </Dialog>
    </StepUpContext.Provider>
  );
}
