'use client';
import * as React from 'react';

/** Runs a form's action with its result shown: field errors under the fields, the message above the button. */
export function useActionForm(
  run: (
    fd: FormData,
  ) => Promise<{ ok: boolean; error?: string; message?: string; fieldErrors?: Record<string, string[]> }>,
  onDone: () => void,
) {
  const [pending, start] = React.useTransition();
  const [errors, setErrors] = React.useState<Record<string, string[]>>({});
  const [message, setMessage] = React.useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const submit = (fd: FormData) =>
    start(async () => {
      const r = await run(fd);
      if (r.ok) {
        setErrors({});
        setMessage(r.message ? { tone: 'success', text: r.message } : null);
        onDone();
      } else {
        setErrors(r.fieldErrors ?? {});
        setMessage({ tone: 'error', text: r.error ?? 'Not saved.' });
      }
    });
  return { pending, errors, message, submit };
}
