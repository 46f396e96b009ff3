'use client';
import { useState, useTransition } from 'react';
import type { ActionResult } from '@/lib/auth/guards';
import { useStepUp } from './step-up';

/**
 * A form posted to an action that may ask for a fresh second factor: its result, the errors by
 * field and the submit handler. The form is cleared once the action went through, unless `keep`.
 */
export function useStepUpForm<T>(
  action: (data: FormData, form: HTMLFormElement) => Promise<ActionResult<T>>,
  { keep = false }: { keep?: boolean } = {},
) {
  const [result, setResult] = useState<ActionResult<T> | null>(null);
  const [pending, start] = useTransition();
  const stepUp = useStepUp();
  const fieldErrors = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  const onSubmit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    start(async () => {
      const r = await stepUp(() => action(data, form));
      setResult(r);
      if (r.ok && !keep) form.reset();
    });
  };
  return { result, pending, fieldErrors, onSubmit };
}
